import ShrinkCore

/// What `Fuzz/`'s container harness runs, as an entry point (only through `@_spi(Fuzzing)` outside this package,
/// so the parser stays `package`): the HEIF/AVIF container parser on raw bytes: boxes, items, extents, references, properties and grid
/// payloads. Every extent the parser returns must lie inside the input, every association must name a
/// property that exists, and every grid it accepts must be within the tile limit.
@_spi(Fuzzing) public enum HEIFContainerFuzzing {
    /// Parses `bytes` as a container and walks it; traps when an invariant above breaks.
    public static func exercise(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            guard let container = try? HEIFContainer(bytes: raw, path: "fuzz.heic") else { return }
            precondition(container.items[container.primaryID] != nil, "primary item missing")
            for item in container.items.values {
                for extent in item.extents {
                    precondition(
                        extent.lowerBound >= 0 && extent.upperBound <= raw.count,
                        "extent \(extent) outside \(raw.count)")
                }
                _ = container.properties(of: item.id)
                _ = container.references("dimg", from: item.id)
                _ = container.items(referencing: item.id, with: "thmb")
                if item.type == "grid", let grid = try? container.grid(item.id, bytes: raw, path: "fuzz.heic") {
                    precondition(grid.rows * grid.columns <= 65536 && grid.outputWidth > 0 && grid.outputHeight > 0)
                }
            }
        }
    }
}
