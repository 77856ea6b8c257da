/// A setting that cannot be used, with a message naming it and what is wrong (printed at start, exit 64).
package struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
