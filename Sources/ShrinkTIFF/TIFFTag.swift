/// The TIFF tags Shrink reads (TIFF 6.0 and libtiff's numbers).
enum TIFFTag {
    static let newSubfileType: UInt32 = 254
    static let imageWidth: UInt32 = 256
    static let imageLength: UInt32 = 257
    static let bitsPerSample: UInt32 = 258
    static let compression: UInt32 = 259
    static let photometric: UInt32 = 262
    static let fillOrder: UInt32 = 266
    static let orientation: UInt32 = 274
    static let samplesPerPixel: UInt32 = 277
    static let rowsPerStrip: UInt32 = 278
    static let planarConfig: UInt32 = 284
    static let predictor: UInt32 = 317
    static let tileWidth: UInt32 = 322
    static let tileLength: UInt32 = 323
    static let sampleFormat: UInt32 = 339
    static let inkSet: UInt32 = 332
}
