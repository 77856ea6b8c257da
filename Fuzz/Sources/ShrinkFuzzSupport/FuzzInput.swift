/// A fuzz input read as a fixed block of parameter bytes followed by the image: the harness draws its
/// arguments (sizes, flags, rectangles) from the block and decodes ``image``. scripts/fuzz prepends a block to
/// every seed image, so seeds stay valid images; a short input reads as zero parameters and no image.
public struct FuzzInput {
    /// Bytes at the front that hold the parameters.
    public static let parameterBytes = 32

    /// The encoded image: everything after the parameter block.
    public let image: [UInt8]
    private let parameters: [UInt8]
    private var next = 0

    public init(_ bytes: [UInt8]) {
        let split = min(bytes.count, Self.parameterBytes)
        parameters = Array(bytes[..<split]) + Array(repeating: 0, count: Self.parameterBytes - split)
        image = Array(bytes[split...])
    }

    /// The next parameter byte (0 once the block is used up).
    public mutating func byte() -> UInt8 {
        guard next < parameters.count else { return 0 }
        defer { next += 1 }
        return parameters[next]
    }

    /// The next two parameter bytes, little-endian.
    public mutating func uint16() -> UInt16 {
        UInt16(byte()) | UInt16(byte()) << 8
    }

    /// One of `choices` (which must not be empty), chosen by the next byte.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(byte()) % choices.count]
    }
}
