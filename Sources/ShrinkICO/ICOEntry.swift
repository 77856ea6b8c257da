/// One image of an icon or cursor file, as its directory lists it.
struct ICOEntry {
    /// The size the directory gives (0 stands for 256); the image's own header decides.
    let listedWidth: Int, listedHeight: Int
    /// Bits per pixel the directory gives (a cursor's hotspot instead; 0 when unsaid).
    let listedBitCount: Int
    /// Where the image's bytes are in the file (empty when they are not inside it).
    let range: Range<Int>
    /// The image is a PNG (else a BMP without its file header).
    let isPNG: Bool
    /// The entry's bytes lie inside the file (a cut file lists entries it no longer holds).
    let isInside: Bool

    /// How Pillow ranks entries to pick the image: listed area, then bits per pixel.
    var rank: (Int, Int) { (listedWidth * listedHeight, listedBitCount) }
}
