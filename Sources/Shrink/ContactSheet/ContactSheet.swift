import ShrinkCore

/// A contact sheet: many photos in a grid of square cells, rendered through an ``ImagePipeline`` and
/// written band by band by a ``StreamingImageEncoding`` — one row of cells at a time, while the next rows are
/// prefetched — like a scrolling grid that keeps only the visible rows. The encoder is given yuv420 planes (a
/// 4:2:0 JPEG), so the cells' planes go into the file without a conversion to RGB and back. Its memory does not grow with the number of photos: one
/// band of the sheet, the cells of about two rows in the pipeline's memory cache, and the decodes the budget
/// admits.
///
/// ```swift
/// let sheet = ContactSheet(layout: ContactSheet.Layout(cell: 256, columns: 8), encoder: JPEGEncoder())
/// let summary = try await sheet.render(paths, to: "sheet.jpg", pipeline: pipeline) { cell in print(cell.index) }
/// ```
package struct ContactSheet: Sendable {
    /// The grid: cell size, columns, gap and background.
    package var layout: Layout
    /// Mode and pixel format of the cell thumbnails. Quality mode, memory-optimised formats by default.
    package var options: ThumbnailOptions
    /// What writes the sheet, band by band, from yuv420 planes: a 4:2:0 encoder (a `JPEGEncoder` with
    /// `chroma444` set refuses them, and ``render(_:to:pipeline:progress:)`` fails with `.invalidArgument`).
    package var encoder: any StreamingImageEncoding
    /// Rows of cells prefetched ahead of the row being written. `1` by default.
    package var rowsAhead: Int

    package init(
        layout: Layout, options: ThumbnailOptions = ThumbnailOptions(), encoder: any StreamingImageEncoding,
        rowsAhead: Int = 1
    ) {
        self.layout = layout
        self.options = options
        self.encoder = encoder
        self.rowsAhead = max(0, rowsAhead)
    }

    /// One photo's outcome.
    package struct Cell: Sendable {
        /// Index of the photo in the input order (row-major in the grid).
        package let index: Int
        /// The photo's path.
        package let path: String
        /// The thumbnail's size and telemetry, or why the photo could not be shown (its cell stays empty).
        package let result: Result<(size: PixelSize, telemetry: ImageTelemetry), ImageError>
    }

    /// What a sheet cost.
    package struct Summary: Sendable {
        /// The sheet's size in pixels.
        package let size: PixelSize
        /// Photos shown and photos that failed.
        package let shown: Int
        package let failed: Int
        /// The pipeline's ledger when the sheet was finished (peak running charge, counters).
        package let ledger: PipelineLedger
    }

    /// The memory cache limits a sheet needs: the cells of `rowsAhead + 1` rows (4 B/px each at most).
    package func memoryCacheConfiguration() -> MemoryCache<CacheKey, DecodedImage>.Configuration {
        let cellBytes = layout.cell * layout.cell * 4
        let cells = layout.columns * (rowsAhead + 1)
        return MemoryCache.Configuration(costLimit: cellBytes * cells, countLimit: cells, entryCostLimit: cellBytes)
    }

    /// Renders `paths` into a sheet at `output` through `pipeline` (give it at least
    /// ``memoryCacheConfiguration()`` so prefetched cells survive until their row is written); `progress`
    /// is called once per photo, in grid order, as each row completes. Fails only when the sheet itself
    /// cannot be written (`.io`, `.invalidArgument`); photos that fail leave an empty cell and are reported
    /// through `progress`.
    package func render(
        _ paths: [String], to output: String, pipeline: ImagePipeline,
        progress: (Cell) -> Void = { _ in }
    ) async throws(ImageError) -> Summary {
        guard !paths.isEmpty else {
            throw ImageError(.invalidArgument, "\(output): a contact sheet needs at least one photo")
        }
        let size = layout.sheetSize(count: paths.count)
        let writer = try encoder.startWriting(to: output, size: size, format: .yuv420)
        let rows = layout.rows(count: paths.count)
        // Requests are made a row at a time: nothing per photo is held beyond the rows in flight.
        let target = ThumbnailTarget.box(PixelSize(width: layout.cell, height: layout.cell), fit: .inside)
        func requestsOfRow(_ r: Int) -> [ImageRequest] {
            guard r < rows else { return [] }
            return paths[r * layout.columns..<min(paths.count, (r + 1) * layout.columns)].map {
                ImageRequest(path: $0, target: target, options: options)
            }
        }
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        var band = SheetBand(layout: layout, sheet: size, bands: rows)
        var shown = 0, failed = 0
        for r in 0..<rows {
            prefetcher.startPrefetching(
                with: (1...max(1, rowsAhead)).flatMap { rowsAhead > 0 ? requestsOfRow(r + $0) : [] })
            let row = requestsOfRow(r)
            let results = await withTaskGroup(of: (Int, Result<ImageResponse, ImageError>).self) { group in
                for (i, request) in row.enumerated() {
                    group.addTask {
                        do throws(ImageError) {
                            return (i, .success(try await pipeline.image(for: request)))
                        } catch {
                            return (i, .failure(error))
                        }
                    }
                }
                var results = [Result<ImageResponse, ImageError>?](repeating: nil, count: row.count)
                for await (i, result) in group { results[i] = result }
                return results
            }
            // Drawn cells are not needed again: dropping them keeps the cache for the prefetched rows (a
            // visible read made them the most recent entries, so LRU alone would evict the prefetched ones).
            for request in row { if let key = try? request.cacheKey() { pipeline.memoryCache?.removeValue(for: key) } }
            band.begin(band: r)
            for (i, result) in results.enumerated() {
                let index = r * layout.columns + i
                switch result! {
                case .success(let response):
                    band.place(response.image.pixels, row: r, column: i)
                    shown += 1
                    progress(
                        Cell(
                            index: index, path: paths[index],
                            result: .success((response.image.size, response.telemetry))))
                case .failure(let error):
                    failed += 1
                    progress(Cell(index: index, path: paths[index], result: .failure(error)))
                }
            }
            try band.write(to: writer)
        }
        prefetcher.stopPrefetching()
        try writer.finish()
        return Summary(size: size, shown: shown, failed: failed, ledger: pipeline.ledger)
    }
}
