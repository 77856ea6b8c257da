/// A decode whose image splits into tiles taken in row order by several threads (``TileCrew``): it makes each
/// thread's lane (its own decoder and scratch), decodes one tile into what it shares with the others (a band's own
/// columns, sums poured under the crew's lock), and keeps whatever its tiles are decoded into per slot.
package protocol TileDecoding: AnyObject, Sendable {
    /// What one thread decodes tiles with.
    associatedtype Lane

    /// A lane for a helper thread; nil when one cannot be made (the helper returns). Called without the lock.
    func makeLane() -> Lane?
    /// A row of tiles is about to use `slot` (0 or 1) for the first time. Called with the crew's lock held.
    func allocate(slot: Int)
    /// Decodes tile `tile` (counted in row order) with `lane`. Called without the lock.
    func decode(_ tile: Int, lane: Lane) -> Result<Void, ImageError>
    /// Tile `tile` has been decoded (or failed) with `lane`. Called with the crew's lock held.
    func finished(_ tile: Int, _ result: Result<Void, ImageError>, lane: Lane)
}
