import Testing
@testable import ShrinkCore

@Suite struct DurationMillisecondsTests {
    @Test func secondsAndFractionsInMilliseconds() {
        #expect(Duration.seconds(2).inMilliseconds == 2000)
        #expect(Duration.microseconds(1500).inMilliseconds == 1.5)
        #expect(Duration.nanoseconds(250_000).inMilliseconds == 0.25)
        #expect((Duration.seconds(1) + .milliseconds(7)).inMilliseconds == 1007)
    }
}
