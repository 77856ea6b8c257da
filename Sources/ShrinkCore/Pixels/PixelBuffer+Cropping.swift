extension PixelBuffer {
    /// The pixels inside `rect`, which must lie inside the image, copied plane by plane (a subsampled plane's
    /// rectangle is the luma one halved, so `rect`'s origin should be even for yuv420 and nv12). Costs one copy of
    /// the cropped bytes.
    package func cropped(to rect: PixelRect) -> PixelBuffer {
        precondition(
            rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0 && rect.x + rect.width <= size.width
                && rect.y + rect.height <= size.height, "crop \(rect) is outside \(size)")
        let out = PixelSize(width: rect.width, height: rect.height)
        let from = planes, to = format.planes(for: out)
        var bytes = [UInt8](repeating: 0, count: format.byteCount(for: out))
        bytes.withUnsafeMutableBufferPointer { dst in
            self.bytes.withUnsafeBufferPointer { src in
                for (source, target) in zip(from, to) {
                    // A plane subsampled by 2 across (or down) takes half the origin.
                    let sx = source.width < size.width ? 2 : 1, sy = source.height < size.height ? 2 : 1
                    let x = rect.x / sx, y = rect.y / sy, rowBytes = target.bytesPerRow
                    for row in 0..<target.height {
                        let s = source.offset + (y + row) * source.bytesPerRow + x * source.bytesPerPixel
                        (dst.baseAddress! + target.offset + row * rowBytes).update(
                            from: src.baseAddress! + s, count: rowBytes)
                    }
                }
            }
        }
        return PixelBuffer(format: format, size: out, bytes: bytes)
    }
}
