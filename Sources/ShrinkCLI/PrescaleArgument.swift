import ArgumentParser

/// `--prescale 1/8` (or `8`): a DCT scale denominator of 1, 2, 4 or 8.
struct PrescaleArgument: ExpressibleByArgument, Sendable {
    let denominator: Int

    init?(argument: String) {
        let text = argument.hasPrefix("1/") ? String(argument.dropFirst(2)) : argument
        guard let n = Int(text), [1, 2, 4, 8].contains(n) else { return nil }
        denominator = n
    }
}
