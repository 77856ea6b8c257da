import ShrinkCore

extension Finishing {
    /// `image` finished: the steps in order, on an 8-bit copy (RGBA when the image has alpha or the canvas grows
    /// with no background to fill it, else RGB), then flattened onto ``background`` when one is set, then the
    /// watermark laid over. Returns `image` itself when nothing is done. Fails when the watermark does not decode.
    package func apply(to image: PixelBuffer) throws(ImageError) -> PixelBuffer {
        guard !isEmpty else { return image }
        guard let watermark else { return finished(image) }
        var result = finished(image)
        if result.format != .rgb8 && result.format != .rgba8 {
            result = PixelConverter.convert(result, to: result.format.hasAlpha ? .rgba8 : .rgb8)
        }
        let mark = try watermark.source.image(watermark.target(over: result.size), options: watermark.decoding).pixels
        let channels = result.format.bytesPerPixel, size = result.size
        let origins = watermark.origins(of: mark.size, over: size)
        result.bytes.withUnsafeMutableBufferPointer { dst in
            mark.bytes.withUnsafeBufferPointer { src in
                for origin in origins {
                    RasterFilters.blend(
                        src, size: mark.size, over: dst, canvas: size, at: origin, channels: channels,
                        opacity: watermark.opacity)
                }
            }
        }
        return result
    }

    /// `image` through every step but the watermark.
    private func finished(_ image: PixelBuffer) -> PixelBuffer {
        var image = image
        if grayscale && image.format != .gray8 && image.format != .alpha8 {
            image = PixelConverter.convert(image, to: image.format.hasAlpha ? .grayAlpha8 : .gray8)
        }
        let (canvas, origin) = placement(of: image.size)
        let grows = canvas != image.size
        let filters = blurSigma > 0 || sharpenSigma > 0 || pixelateSize > 1
        // A background alone changes nothing in an opaque image that keeps its size.
        guard filters || grows || image.format.hasAlpha else { return image }
        guard filters || grows || background != nil else {
            // Grey and nothing else to do; grey with alpha goes out as RGBA, which every writer keeps.
            return image.format == .grayAlpha8 ? PixelConverter.convert(image, to: .rgba8) : image
        }
        // RGBA for an image with alpha (flattened at the end when there is a background), or a canvas that grows with
        // nothing to fill it.
        var work = PixelConverter.convert(
            image, to: image.format.hasAlpha || grows && background == nil ? .rgba8 : .rgb8)
        let channels = work.format.bytesPerPixel, size = work.size
        if filters {
            work.bytes.withUnsafeMutableBufferPointer { pixels in
                if blurSigma > 0 {
                    RasterFilters.gaussianBlur(pixels, size: size, channels: channels, sigma: blurSigma)
                }
                if sharpenSigma > 0 {
                    RasterFilters.unsharpMask(pixels, size: size, channels: channels, sigma: sharpenSigma)
                }
                if pixelateSize > 1 {
                    RasterFilters.pixelate(pixels, size: size, channels: channels, block: pixelateSize)
                }
            }
        }
        if grows {
            let fill: [UInt8] =
                background.map { [$0.red, $0.green, $0.blue, 255] } ?? [0, 0, 0, 0]
            var out = [UInt8](repeating: 0, count: canvas.pixelCount * channels)
            out.withUnsafeMutableBufferPointer { dst in
                work.bytes.withUnsafeBufferPointer { src in
                    RasterFilters.place(
                        src, size: size, into: dst, canvas: canvas, at: origin, channels: channels,
                        fill: Array(fill.prefix(channels)))
                }
            }
            work = PixelBuffer(format: work.format, size: canvas, bytes: out)
        }
        if let background, work.format.hasAlpha {
            return PixelConverter.flattened(work, over: (background.red, background.green, background.blue))
        }
        return work
    }
}
