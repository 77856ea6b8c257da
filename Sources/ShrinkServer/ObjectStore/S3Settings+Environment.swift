import Foundation
import ShrinkServerURL

extension S3Settings {
    /// The settings `reader`'s environment gives, each under Shrink's name or, unset, imgproxy's (the reader remembers
    /// imgproxy's names read): `SHRINK_USE_S3`/`IMGPROXY_USE_S3` (on by default when buckets are allowed),
    /// `SHRINK_S3_ENDPOINT`/`IMGPROXY_S3_ENDPOINT`, `SHRINK_S3_REGION`/`IMGPROXY_S3_REGION` (then `AWS_REGION`,
    /// `AWS_DEFAULT_REGION`), `SHRINK_S3_PATH_STYLE`/`IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE`,
    /// `SHRINK_S3_ALLOWED_BUCKETS`/`IMGPROXY_S3_ALLOWED_BUCKETS` (comma-separated), `SHRINK_S3_VALIDATOR_TTL`
    /// (seconds). The credentials are not looked up here (``AWSCredentials/resolve(environment:read:)`` does it when
    /// the store is used). Fails naming the variable that cannot be used.
    init(reading reader: inout EnvironmentReader) throws(ConfigurationError) {
        func value(_ names: String...) -> (name: String, value: String)? { reader.value(names) }
        self.init()
        if let (name, list) = value("SHRINK_S3_ALLOWED_BUCKETS", "IMGPROXY_S3_ALLOWED_BUCKETS") {
            for entry in list.split(separator: ",") {
                let bucket = entry.trimmingCharacters(in: .whitespaces)
                guard !bucket.isEmpty else { continue }
                guard S3Location.isBucketName(Substring(bucket)) else {
                    throw ConfigurationError("\(name): \(bucket) is not a bucket name")
                }
                allowedBuckets.insert(bucket)
            }
        }
        let on = try value("SHRINK_USE_S3", "IMGPROXY_USE_S3").map { (name, flag) throws(ConfigurationError) in
            try ServerConfiguration.flag(flag, name: name)
        }
        servesSources = on ?? !allowedBuckets.isEmpty
        if let (name, endpoint) = value("SHRINK_S3_ENDPOINT", "IMGPROXY_S3_ENDPOINT"), !endpoint.isEmpty {
            try setEndpoint(endpoint, name: name)
        }
        if let (name, region) = value("SHRINK_S3_REGION", "IMGPROXY_S3_REGION", "AWS_REGION", "AWS_DEFAULT_REGION"),
            !region.isEmpty
        {
            guard region.utf8.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") }) else {
                throw ConfigurationError("\(name) must be a region name such as eu-west-1, not \(region)")
            }
            self.region = region
        }
        if let (name, flag) = value("SHRINK_S3_PATH_STYLE", "IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE") {
            pathStyle = try ServerConfiguration.flag(flag, name: name)
        }
        if let text = reader["SHRINK_S3_VALIDATOR_TTL"] {
            guard let v = Double(text), v >= 0, v <= 86_400 else {
                throw ConfigurationError("SHRINK_S3_VALIDATOR_TTL must be seconds from 0 to 86400, not \(text)")
            }
            validatorLifetime = .milliseconds(Int(v * 1000))
        }
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
