extension Duration {
    /// The duration in milliseconds, with its fraction: what telemetry, logs and `Server-Timing` print.
    package var inMilliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
