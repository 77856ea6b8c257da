import Testing
@testable import ShrinkServerURL

/// The SSRF classifier on the full list of ranges, offline: no connection is opened.
@Suite struct AddressClassifierTests {
    @Test(arguments: [
        "0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "127.0.0.1", "127.1.2.3", "172.16.0.1", "172.31.255.255",
        "192.168.0.1", "192.168.255.255", "169.254.169.254", "169.254.0.1", "100.64.0.1", "100.127.255.255",
        "224.0.0.1", "239.255.255.250", "255.255.255.255", "240.0.0.1", "192.0.0.8", "192.0.2.1", "198.18.0.1",
        "198.51.100.7", "203.0.113.9",
        "::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "fec0::1", "ff02::1", "ff0e::1",
        "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:8.8.8.8", "::127.0.0.1",
        "64:ff9b::7f00:1", "64:ff9b::808:808", "64:ff9b:1::1", "2002:7f00:1::1", "2002:808:808::1", "2001::1",
        "2001:db8::1", "100::1", "2001:10::1", "[::1]", "[fe80::1%eth0]",
    ])
    func refused(_ text: String) throws {
        let address = try #require(IPAddress(text), "\(text) parses")
        #expect(AddressClassifier.refusal(address) != nil, "\(text) must be refused")
    }

    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "93.184.216.34", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1",
        "169.253.255.255", "192.169.0.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "[2001:4860:4860::8888]",
    ])
    func allowed(_ text: String) throws {
        let address = try #require(IPAddress(text), "\(text) parses")
        #expect(AddressClassifier.refusal(address) == nil, "\(text) is public")
    }

    @Test func namesAreNotAddresses() {
        #expect(IPAddress("localhost") == nil)
        #expect(IPAddress("example.com") == nil)
        #expect(IPAddress("127.0.0.1.nip.io") == nil)
        #expect(IPAddress("0x7f.0.0.1") == nil)
    }

    @Test func reasonsNameTheRange() throws {
        #expect(AddressClassifier.refusal(try #require(IPAddress("169.254.169.254")))?.contains("metadata") == true)
        #expect(AddressClassifier.refusal(try #require(IPAddress("::ffff:127.0.0.1")))?.contains("IPv4-mapped") == true)
    }
}
