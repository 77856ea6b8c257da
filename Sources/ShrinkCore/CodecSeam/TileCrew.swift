/// The threads decoding one image's tiles: the reader (the thread that pulls rows) and, while cores would otherwise
/// idle, helpers lent by ``DecodeHelping``. Tiles are taken in row order, each by one thread with a lane of its own
/// (its owner's ``TileDecoding``); with helpers they decode the next row of tiles while the reader reads this one,
/// never further, so what a row is decoded into can have two slots: the reader's row keeps the slot the row before it
/// had (one slot while nobody decodes ahead), the row after it takes the other. No helper outlives the decode:
/// ``stop()`` waits for those still decoding a tile, and one lent later returns without touching anything.
///
/// Holds its owner unowned: the owner keeps the crew, and must call ``stop()`` before it goes (a helper still running
/// would reach a deallocated owner); its `deinit` calling ``stop()`` again finds no helper running.
package final class TileCrew<Owner: TileDecoding>: @unchecked Sendable {
    /// Tiles across, rows of tiles, and tiles in all.
    package let columns: Int, rows: Int, count: Int
    /// Rows of tiles that may be in flight at once: 1 without helpers, 2 with.
    package let slots: Int
    /// Guards the crew's counts and the owner's shared state alike.
    package let lock = ConditionLock()
    private unowned let owner: Owner
    private let helpers: (any DecodeHelping)?
    /// What a helper holds, counted against its lender's budget.
    private let helperBytes: Int

    // Guarded by `lock`.
    /// The next tile to take, and the tiles taken and still being decoded.
    private var next = 0
    private var decoding: [Int] = []
    /// The row of tiles the reader reads.
    private var reading = 0
    private var failure: ImageError?
    /// The row of tiles of the first failure.
    private var failedRow = Int.max
    private var stopped = false
    /// Helpers lent and not yet returned, and those of them that have started.
    private var helping = 0
    private var running = 0
    /// The slot of each row of tiles from the one before the reader's on.
    private var slotOf: [Int: Int] = [:]

    /// A crew for `owner`'s `columns` × `rows` tiles; `helpers` (used when there is more than one tile) are offered
    /// `helperBytes` a helper at each row.
    package init(
        owner: Owner, columns: Int, rows: Int, helpers: (any DecodeHelping)?, helperBytes: Int
    ) {
        self.owner = owner
        self.columns = max(1, columns)
        self.rows = max(0, rows)
        count = self.columns * self.rows
        self.helpers = count > 1 ? helpers : nil
        self.helperBytes = helperBytes
        slots = self.helpers == nil ? 1 : 2
    }

    /// The slot row `r` of tiles was given (0 before it was taken). Called with the lock held.
    package func slot(ofRow r: Int) -> Int { slotOf[r] ?? 0 }

    /// Tiles before the first one still being decoded: all of them finished, decoded or failed. Called with the lock
    /// held.
    package var finishedTiles: Int { decoding.min() ?? next }

    /// Returns once every tile of row `r` has been decoded: the reader decodes tiles itself (with `lane`), beside the
    /// helpers it was lent; with helpers, tiles of the next row too while this row's are still being decoded. Rows are
    /// read in order; reading row `r` lets row `r - 1`'s slot be written again. Throws the first failure in a tile of
    /// row `r` or a row above it (one further on is thrown when its row is read).
    package func read(row r: Int, lane: Owner.Lane) throws(ImageError) {
        lock.withLock {
            reading = r
            for row in slotOf.keys where row < r - 1 { slotOf[row] = nil }
            lock.broadcast()
        }
        offerHelp()
        lock.lock()
        defer { lock.unlock() }
        while true {
            // A failed tile counts among the finished ones: its failure first.
            if let failure, failedRow <= r { throw failure }
            if finishedTiles >= min(count, (r + 1) * columns) { return }
            if let t = take(through: r + slots - 1) {
                lock.unlock()
                let result = owner.decode(t, lane: lane)
                lock.lock()
                finish(t, result, lane: lane)
                continue
            }
            lock.wait()
        }
    }

    /// Ends the decode: helpers finish the tile they hold and return; returns once none is decoding.
    package func stop() {
        lock.lock()
        stopped = true
        lock.broadcast()
        while running > 0 { lock.wait() }
        lock.unlock()
    }

    /// Lends helpers while more tiles can be taken now (this row's and the next one's) than threads decoding them.
    private func offerHelp() {
        guard let helpers else { return }
        while true {
            let wanted = lock.withLock { () -> Bool in
                let reachable = min(count, (reading + slots) * columns) - next
                guard !stopped, failure == nil, reachable > helping + 1 else { return false }
                helping += 1
                return true
            }
            guard wanted else { return }
            guard helpers.lend(bytes: helperBytes, { [self] in help() }) else {
                lock.withLock { helping -= 1 }
                return
            }
        }
    }

    /// A helper's work: tiles through a lane of its own until none is left, the decode ends, or other work waits
    /// for the thread (looked at after each tile and every few milliseconds while waiting for the reader).
    private func help() {
        lock.lock()
        running += 1
        var lane = stopped ? nil : lock.unlocked { owner.makeLane() }
        while let working = lane, !stopped, failure == nil, next < count, helpers?.othersWaiting != true {
            guard let t = take(through: reading + slots - 1) else {
                lock.wait(milliseconds: 5)
                continue
            }
            lock.unlock()
            let result = owner.decode(t, lane: working)
            lock.lock()
            finish(t, result, lane: working)
        }
        lane = nil // freed before the decode may end (stop() returns once no helper is running)
        helping -= 1
        running -= 1
        lock.broadcast()
        lock.unlock()
    }

    /// The next tile when its row is at most `last`, its row's slot chosen (and allocated by the owner the first
    /// time). Called with the lock held.
    private func take(through last: Int) -> Int? {
        guard !stopped, failure == nil, next < count else { return nil }
        let r = next / columns
        guard r <= last else { return nil }
        if slotOf[r] == nil {
            let previous = slotOf[r - 1] ?? 0
            let slot = r > reading ? 1 - previous : previous
            slotOf[r] = slot
            owner.allocate(slot: slot)
        }
        decoding.append(next)
        next += 1
        return next - 1
    }

    /// Records tile `t`'s outcome and tells the owner. Called with the lock held.
    private func finish(_ t: Int, _ result: Result<Void, ImageError>, lane: Owner.Lane) {
        decoding.removeAll { $0 == t }
        if case .failure(let error) = result, failure == nil {
            failure = error
            failedRow = t / columns
        }
        owner.finished(t, result, lane: lane)
        lock.broadcast()
    }
}
