#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CShrinkJPEG
import ShrinkCore

/// Writes a JPEG file a band of rows at a time, so an image far larger than memory (a contact sheet of
/// hundreds of photos) is encoded while it is made. Rows are rgb8 or gray8, or yuv420 planes handed to libjpeg
/// as raw data (4:2:0, neither colour conversion nor downsampling). The file appears at `path` only
/// when ``finish()`` succeeds (it is written to a temporary file beside it, then renamed); a writer dropped
/// unfinished removes its temporary file.
///
/// Memory: libjpeg's compressor state, one iMCU row of samples (16 rows × width × 3 bytes; 1.5 for yuv420)
/// and a 64 KiB file buffer, whatever the image height.
package final class JPEGStreamWriter: RowEncoding {
    /// The file being written.
    package let path: String
    /// The image size.
    package let size: PixelSize
    /// gray8, rgb8 or yuv420.
    package let format: PixelFormat
    /// Rows written so far.
    package private(set) var rowsWritten = 0

    private var writer: OpaquePointer?
    private let temporary: String

    /// Starts a `size` JPEG of `format` (gray8 or rgb8 rows, or yuv420 planes) at `quality`, 4:2:0 unless
    /// `chroma444` (which yuv420 planes cannot be).
    /// Fails with `.invalidArgument` for other formats or sizes, `.io` when the file cannot be created.
    package init(
        path: String, size: PixelSize, format: PixelFormat = .rgb8, quality: Int = 85,
        chroma444: Bool = false
    ) throws(ImageError) {
        guard format == .rgb8 || format == .gray8 || (format == .yuv420 && !chroma444) else {
            throw ImageError(
                .invalidArgument,
                "\(path): JPEG rows must be rgb8 or gray8, or yuv420 planes for a 4:2:0 JPEG, not \(format)")
        }
        guard size.width > 0, size.height > 0, size.width <= 65500, size.height <= 65500 else {
            throw ImageError(.invalidArgument, "\(path): a JPEG cannot be \(size) (1–65500 pixels per side)")
        }
        guard (1...100).contains(quality) else {
            throw ImageError(.invalidArgument, "\(path): JPEG quality must be 1–100, not \(quality)")
        }
        self.path = path
        self.size = size
        self.format = format
        temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        var message = [CChar](repeating: 0, count: 256)
        writer = sj_writer_open(
            temporary, Int32(size.width), Int32(size.height), format == .yuv420 ? 0 : Int32(format.bytesPerPixel),
            Int32(quality), chroma444 ? 1 : 0, &message, message.count)
        guard writer != nil else {
            unlink(temporary)
            throw ImageError(.io, "\(path): cannot start writing the JPEG", cause: String(cBuffer: message))
        }
    }

    deinit {
        if let writer {
            sj_writer_abort(writer)
            unlink(temporary)
        }
    }

    /// Appends `count` rows of ``format`` (rgb8 or gray8), `bytesPerRow` apart. Fails with `.invalidArgument` past the image
    /// height, `.encodingFailed` when libjpeg fails (the writer is then abandoned).
    package func write(rows: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(ImageError) {
        guard let writer else { throw ImageError(.invalidArgument, "\(path): the JPEG is already finished") }
        guard format != .yuv420 else {
            throw ImageError(
                .invalidArgument, "\(path): the JPEG was started with yuv420 planes; write them with write(luma:…)")
        }
        guard bytesPerRow >= size.width * format.bytesPerPixel else {
            throw ImageError(.invalidArgument, "\(path): rows of \(bytesPerRow) bytes are shorter than the image width")
        }
        var message = [CChar](repeating: 0, count: 256)
        let status = sj_writer_write(
            writer, rows.assumingMemoryBound(to: UInt8.self), bytesPerRow, Int32(count),
            &message, message.count)
        try check(status, message)
        rowsWritten += count
    }

    /// Throws for a failed write: `.invalidArgument` for a bad call (the writer stays usable), `.encodingFailed`
    /// when libjpeg failed — then the compressor is left mid-row, so the writer is abandoned (its temporary file
    /// removed) and later calls fail.
    private func check(_ status: Int32, _ message: [CChar]) throws(ImageError) {
        guard status != 0 else { return }
        if status == Int32(SJ_BAD_CALL.rawValue) {
            throw ImageError(
                .invalidArgument, "\(path): cannot write rows at row \(rowsWritten)", cause: String(cBuffer: message))
        }
        if let writer {
            sj_writer_abort(writer)
            self.writer = nil
            unlink(temporary)
        }
        throw ImageError(
            .encodingFailed, "\(path): cannot write rows at row \(rowsWritten)", cause: String(cBuffer: message))
    }

    /// Appends `count` rows of a yuv420 writer (see ``RowEncoding/write(luma:lumaStride:cb:cr:chromaStride:count:)``).
    /// Fails with `.invalidArgument` for other writers, past the image height or on an odd row, `.encodingFailed`
    /// when libjpeg fails (the writer is then abandoned).
    package func write(
        luma: UnsafePointer<UInt8>, lumaStride: Int, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>,
        chromaStride: Int, count: Int
    ) throws(ImageError) {
        guard let writer else { throw ImageError(.invalidArgument, "\(path): the JPEG is already finished") }
        guard format == .yuv420 else {
            throw ImageError(.invalidArgument, "\(path): the JPEG was started with \(format) rows, not yuv420 planes")
        }
        guard lumaStride >= size.width, chromaStride >= (size.width + 1) / 2 else {
            throw ImageError(.invalidArgument, "\(path): plane rows are shorter than the image width")
        }
        var message = [CChar](repeating: 0, count: 256)
        let status = sj_writer_write_yuv420(
            writer, luma, lumaStride, cb, cr, chromaStride, Int32(count), &message, message.count)
        try check(status, message)
        rowsWritten += count
    }

    /// Completes the JPEG and moves it to ``path``. Fails with `.invalidArgument` when rows are missing,
    /// `.io` when the file cannot be written.
    package func finish() throws(ImageError) {
        guard let writer else { throw ImageError(.invalidArgument, "\(path): the JPEG is already finished") }
        self.writer = nil
        var message = [CChar](repeating: 0, count: 256)
        let status = sj_writer_finish(writer, &message, message.count)
        guard status == 0 else {
            unlink(temporary)
            throw ImageError(
                status == Int32(SJ_BAD_CALL.rawValue) ? .invalidArgument : .io,
                "\(path): cannot finish the JPEG", cause: String(cBuffer: message))
        }
        guard rename(temporary, path) == 0 else {
            let cause = String(cString: strerror(errno))
            unlink(temporary)
            throw ImageError(.io, "\(path): cannot write", cause: cause)
        }
    }
}
