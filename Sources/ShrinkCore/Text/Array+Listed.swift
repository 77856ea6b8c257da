extension Array where Element == String {
    /// The items as a message lists them: `a, b and c` (`or` with `conjunction: "or"`); one item alone, as it is.
    package func listed(conjunction: String = "and") -> String {
        count > 1 ? dropLast().joined(separator: ", ") + " \(conjunction) " + last! : joined()
    }
}
