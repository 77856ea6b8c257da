extension String {
    /// The text with the spaces cameras pad their fixed-size name fields with removed from both ends; nil when
    /// nothing else is left.
    var cameraText: String? {
        let trimmed = drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
