/// The order in which queued decodes start: higher first, first come first served within a priority.
public enum Priority: Int, Sendable, Comparable, CaseIterable {
    case veryLow, low, normal, high, veryHigh

    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }

}
