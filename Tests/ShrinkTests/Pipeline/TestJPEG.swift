import Shrink
import ShrinkTestSupport

/// Small generated JPEGs for pipeline tests.
enum TestJPEG {
    static func make(width: Int, height: Int, quality: Int = 90) throws -> [UInt8] {
        try TestImages.jpeg(TestImages.pattern(width: width, height: height), quality: quality, chroma444: false)
    }
}
