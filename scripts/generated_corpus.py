"""A corpus made on this machine, for the checks to run on when the real one (../shared/corpus) is absent, as in a
user's clone, and for the gallery's browser check always.

`build()` writes, once, into .build/generated-corpus/ (made again when this file, Pillow, pillow-heif or libvips
change): images that Pillow, pillow-heif and a hand-written PNG writer (16-bit colour, Adam7, which Pillow does not
write) make from seeded synthetic photos, in the real corpus's layout and with a MANIFEST.tsv of its columns:
  jpeg/         4:2:0, 4:2:2, 4:4:4, gray, progressive, CMYK, restart markers, odd and tiny sizes, quality 30 to 100
  orientation/  the same photo as JPEG and PNG (eXIf) under EXIF orientations 1 to 8, stored so that it shows upright
  png/          every colour type and bit depth (1 to 16), palette and key transparency, Adam7, an ICC profile
  webp/         lossy, lossless, alpha, animation, an ICC profile, an EXIF orientation
  gif/          palette, transparency, interlacing, animation with disposal
  tiff/         Pillow's TIFF writer: LZW, Deflate, PackBits and JPEG; gray, RGBA, 16-bit, two pages
  bmp/, ico/    Pillow's BMP writer (24-bit, palettes, 1-bit, 32-bit with alpha) and ICO writer (PNG and BMP entries)
  jxl/          pillow-jxl-plugin's JPEG XL writer (libjxl): lossy, lossless, alpha, gray
  heic/         pillow-heif's HEVC: opaque, alpha, odd size
  avif/         Pillow's AVIF: 4:2:0, 4:4:4, alpha, odd size
  colour/       JPEG, PNG and WebP tagged with Ghostscript's Adobe RGB (a98) and ROMM RGB profiles (libgs-common)
  corrupt/      every format cut in half, flipped scan and zlib bytes, garbage, an empty file, a PNG bomb header
As in the real corpus, the `pillow`, `vips` and `expected` columns are what the two reference decoders do with each
file, run here (Pillow: open, load, exif_transpose; libvips: vipsheader, then `vips avg` with fail_on=error): nothing
about a file is written down by hand but what it was made to test."""
import csv, fcntl, hashlib, io, os, re, shutil, struct, subprocess, zlib
import numpy as np
from PIL import Image, ImageCms, ImageDraw, ImageOps, features
import pillow_heif
import pillow_jxl  # noqa: F401 (registers JPEG XL with Pillow)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRECTORY = os.path.join(ROOT, ".build", "generated-corpus")
ICC = "/usr/share/color/icc/ghostscript"
COLUMNS = ["path", "source", "version", "license", "tests", "expected", "format", "features", "pillow", "vips", "bytes", "sha256"]
pillow_heif.register_heif_opener()


# -- pictures -------------------------------------------------------------------------------------------------------

def photo(w, h, seed=0, alpha=False):
    """A photo-like RGB(A) picture: smooth light, coloured shapes with soft edges, fine texture. The same seed gives
    the same pixels everywhere (numpy's PCG64)."""
    rng = np.random.default_rng(seed)
    s = max(w, h)
    y, x = np.mgrid[0:h, 0:w].astype(np.float64) / s
    base = np.stack([0.5 + 0.35 * np.sin(2 * np.pi * (x * (1.1 + i * 0.3) + y * (0.7 - i * 0.2)) + rng.uniform(0, 6))
                     for i in range(3)], axis=-1)
    img = Image.fromarray(np.clip(base * 255, 0, 255).astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(img)
    for _ in range(12):
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.03, 0.2) * s
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        box = [cx - r, cy - r * rng.uniform(0.4, 1.2), cx + r, cy + r * rng.uniform(0.4, 1.2)]
        (draw.ellipse if rng.uniform() < 0.6 else draw.rectangle)(box, fill=colour)
    pixels = np.asarray(img, dtype=np.float64)
    pixels += rng.normal(0, 4, pixels.shape)                                # sensor-like grain
    rgb = np.clip(pixels, 0, 255).astype(np.uint8)
    if not alpha:
        return Image.fromarray(rgb, "RGB")
    a = np.clip(255 * (1.2 - 1.6 * np.hypot(x - w / s / 2, y - h / s / 2)), 0, 255).astype(np.uint8)
    return Image.fromarray(np.dstack([rgb, a]), "RGBA")


INVERSE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
           5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90, 7: Image.Transpose.TRANSVERSE,
           8: Image.Transpose.ROTATE_270}


def stored(shown, orientation):
    """The pixels a camera stores for `shown` under EXIF `orientation`: exif_transpose of the result gives `shown`."""
    return shown.transpose(INVERSE[orientation]) if orientation in INVERSE else shown


def exif(orientation):
    e = Image.Exif()
    e[0x0112] = orientation
    return e.tobytes()


def png_bytes(array, colour_type, depth, interlace=False, header_size=None):
    """A PNG written here: colour types 0, 2, 4, 6 at 8 or 16 bits, optionally Adam7 (Pillow writes neither 16-bit
    colour nor interlacing). `array` holds the samples as uint8 or uint16, H×W×channels; `header_size` (W, H) makes
    IHDR claim another size than the data has."""
    h, w = array.shape[:2]
    samples = array.reshape(h, w, -1).astype(">u2" if depth == 16 else "u1")

    def scanlines(a):
        return b"".join(b"\x00" + row.tobytes() for row in a) if a.size else b""

    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        raw = b"".join(scanlines(samples[y0::dy, x0::dx]) for x0, y0, dx, dy in passes)
    else:
        raw = scanlines(samples)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", *(header_size or (w, h)), depth, colour_type, 0, 0, 1 if interlace else 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def separated(image):
    """`image` (sRGB) as press ink: CMYK through Ghostscript's SWOP profile, the fallback Shrink reads it with."""
    return ImageCms.profileToProfile(image, ImageCms.createProfile("sRGB"), os.path.join(ICC, "default_cmyk.icc"),
                                     outputMode="CMYK")


def encoded(image, fmt, **options):
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def frames(w, h, n, seed):
    return [photo(w, h, seed + i) for i in range(n)]


def files():
    """(path, bytes, what it tests), every file of the generated corpus."""
    out = []
    add = lambda path, data, tests: out.append((path, data, tests))
    icc = {name: open(os.path.join(ICC, f"{name}.icc"), "rb").read() for name in ("a98", "rommrgb")
           if os.path.isfile(os.path.join(ICC, f"{name}.icc"))}

    # JPEG: the layouts the decoder and its DCT scaling take.
    big = photo(1600, 1200, 1)
    add("jpeg/photo-420-q85.jpg", encoded(big, "JPEG", quality=85, subsampling=2), "4:2:0 baseline, 1600x1200")
    add("jpeg/photo-422.jpg", encoded(photo(800, 600, 2), "JPEG", quality=90, subsampling=1), "4:2:2 baseline")
    add("jpeg/photo-444-q95.jpg", encoded(photo(640, 480, 3), "JPEG", quality=95, subsampling=0), "4:4:4 baseline")
    add("jpeg/gray.jpg", encoded(photo(700, 500, 4).convert("L"), "JPEG", quality=88), "grayscale")
    add("jpeg/progressive-420.jpg", encoded(big, "JPEG", quality=85, subsampling=2, progressive=True),
        "progressive 4:2:0, 1600x1200")
    add("jpeg/progressive-444.jpg", encoded(photo(500, 400, 5), "JPEG", quality=90, subsampling=0, progressive=True),
        "progressive 4:4:4")
    add("jpeg/progressive-gray.jpg", encoded(photo(640, 360, 6).convert("L"), "JPEG", quality=85, progressive=True),
        "progressive grayscale")
    add("jpeg/progressive-odd-333x517.jpg", encoded(photo(333, 517, 7), "JPEG", quality=80, progressive=True),
        "progressive, odd size")
    add("jpeg/cmyk.jpg", encoded(separated(photo(600, 400, 8)), "JPEG", quality=90),
        "CMYK (Adobe marker), untagged: ink separated through Ghostscript's SWOP profile")
    add("jpeg/restarts.jpg", encoded(photo(800, 533, 9), "JPEG", quality=85, restart_marker_blocks=4), "restart markers")
    add("jpeg/odd-333x517.jpg", encoded(photo(333, 517, 10), "JPEG", quality=85), "odd size, 4:2:0")
    add("jpeg/wide-2400x300.jpg", encoded(photo(2400, 300, 11), "JPEG", quality=85), "wide strip")
    add("jpeg/tall-250x1800.jpg", encoded(photo(250, 1800, 12), "JPEG", quality=85), "tall strip")
    add("jpeg/q30.jpg", encoded(photo(640, 480, 13), "JPEG", quality=30), "quality 30")
    add("jpeg/q100.jpg", encoded(photo(640, 480, 14), "JPEG", quality=100, subsampling=0), "quality 100")
    add("jpeg/tiny-1x1.jpg", encoded(photo(1, 1, 15), "JPEG"), "one pixel")
    add("jpeg/small-7x5.jpg", encoded(photo(7, 5, 16), "JPEG"), "smaller than one MCU")
    add("jpeg/exif-thumbnail.jpg", encoded(photo(1200, 900, 17), "JPEG", quality=85, exif=exif(1)), "EXIF, orientation 1")

    # EXIF orientation 1-8 on JPEG and PNG: stored turned, shown upright.
    shown = photo(600, 400, 20)
    for n in range(1, 9):
        add(f"orientation/jpeg-{n}.jpg", encoded(stored(shown, n), "JPEG", quality=90, exif=exif(n)),
            f"EXIF orientation {n}")
    for n in (2, 5, 6, 8):
        add(f"orientation/png-{n}.png", encoded(stored(shown.resize((300, 200)), n), "PNG", exif=exif(n)),
            f"eXIf orientation {n}")

    # PNG: every colour type and depth.
    rgb = photo(320, 240, 30)
    rgba = photo(320, 240, 31, alpha=True)
    add("png/rgb8.png", encoded(rgb, "PNG"), "colour type 2, 8-bit")
    add("png/rgba8.png", encoded(rgba, "PNG"), "colour type 6, 8-bit, soft alpha")
    add("png/gray8.png", encoded(rgb.convert("L"), "PNG"), "colour type 0, 8-bit")
    add("png/gray-alpha8.png", encoded(rgba.convert("LA"), "PNG"), "colour type 4, 8-bit")
    add("png/bilevel.png", encoded(rgb.convert("1"), "PNG"), "colour type 0, 1-bit")
    for bits in (1, 2, 4, 8):
        palette = rgb.quantize(1 << bits)
        add(f"png/palette{bits}.png", encoded(palette, "PNG", bits=bits), f"colour type 3, {bits}-bit")
    keyed = rgb.quantize(16)
    add("png/palette-trns.png", encoded(keyed, "PNG", transparency=3), "palette with a transparent entry (tRNS)")
    add("png/rgb-key-trns.png", encoded(rgb.quantize(8).convert("RGB"), "PNG",
                                        transparency=rgb.quantize(8).convert("RGB").getpixel((0, 0))),
        "RGB colour key (tRNS)")
    add("png/gray-key-trns.png", encoded(rgb.convert("L"), "PNG", transparency=rgb.convert("L").getpixel((0, 0))),
        "gray colour key (tRNS)")
    wide = (np.asarray(rgba, dtype=np.uint32) * 257 + np.arange(320, dtype=np.uint32)[None, :, None] % 7).astype(np.uint16)
    add("png/gray16.png", png_bytes(wide[..., 0], 0, 16), "colour type 0, 16-bit")
    add("png/rgb16.png", png_bytes(wide[..., :3], 2, 16), "colour type 2, 16-bit (written here)")
    add("png/rgba16.png", png_bytes(wide, 6, 16), "colour type 6, 16-bit (written here)")
    add("png/rgb8-adam7.png", png_bytes(np.asarray(rgb), 2, 8, interlace=True), "Adam7, colour type 2 (written here)")
    add("png/rgba16-adam7.png", png_bytes(wide, 6, 16, interlace=True), "Adam7, colour type 6, 16-bit (written here)")
    add("png/odd-adam7-5x3.png", png_bytes(np.asarray(photo(5, 3, 32)), 2, 8, interlace=True),
        "Adam7 smaller than one block (empty passes)")
    add("png/large-rgba-1500x1000.png", encoded(photo(1500, 1000, 33, alpha=True), "PNG"), "1.5 MP RGBA")

    # WebP.
    add("webp/lossy.webp", encoded(photo(800, 600, 40), "WEBP", quality=80), "VP8 lossy")
    add("webp/lossless.webp", encoded(photo(400, 300, 41), "WEBP", lossless=True), "VP8L lossless")
    add("webp/lossy-alpha.webp", encoded(photo(500, 400, 42, alpha=True), "WEBP", quality=80), "VP8X lossy + alpha")
    add("webp/lossless-alpha.webp", encoded(photo(300, 300, 43, alpha=True), "WEBP", lossless=True), "VP8L + alpha")
    add("webp/odd-333x517.webp", encoded(photo(333, 517, 44), "WEBP", quality=75), "odd size")
    add("webp/exif-orientation-6.webp", encoded(stored(photo(400, 300, 45), 6), "WEBP", quality=85, exif=exif(6)),
        "EXIF orientation 6")
    anim = frames(240, 160, 3, 46)
    add("webp/animated.webp", encoded(anim[0], "WEBP", save_all=True, append_images=anim[1:], duration=100, loop=0),
        "animation, 3 frames (first frame)")

    # GIF.
    add("gif/palette.gif", encoded(photo(400, 300, 50).quantize(256), "GIF"), "256-colour palette")
    add("gif/transparent.gif", encoded(photo(300, 200, 51).quantize(64), "GIF", transparency=5), "transparent index")
    add("gif/interlaced.gif", encoded(photo(320, 240, 52).quantize(128), "GIF", interlace=True), "interlaced")
    add("gif/two-colour.gif", encoded(photo(200, 150, 53).convert("1").convert("P"), "GIF"), "two colours")
    moving = [f.quantize(64) for f in frames(200, 120, 4, 54)]
    add("gif/animated.gif", encoded(moving[0], "GIF", save_all=True, append_images=moving[1:], duration=80, loop=0,
                                    disposal=2), "animation, 4 frames, disposal 2 (first frame)")

    # HEIC through pillow-heif (libheif's x265).
    add("heic/photo.heic", encoded(photo(640, 480, 60), "HEIF", quality=80), "HEVC 4:2:0")
    add("heic/alpha.heic", encoded(photo(400, 300, 61, alpha=True), "HEIF", quality=80), "HEVC with an alpha image")
    add("heic/odd-451x301.heic", encoded(photo(451, 301, 62), "HEIF", quality=70), "odd size")

    # AVIF through Pillow's own plugin.
    if features.check("avif"):
        add("avif/photo-420.avif", encoded(photo(640, 480, 70), "AVIF", quality=70), "AV1 4:2:0")
        add("avif/photo-444.avif", encoded(photo(400, 300, 71), "AVIF", quality=80, subsampling="4:4:4"), "AV1 4:4:4")
        add("avif/alpha.avif", encoded(photo(400, 300, 72, alpha=True), "AVIF", quality=70), "AV1 with alpha")
        add("avif/odd-333x517.avif", encoded(photo(333, 517, 73), "AVIF", quality=60), "odd size")

    # BMP and ICO through Pillow's writers (uncompressed BMP rows; icons with PNG entries and with BMP ones).
    add("bmp/rgb24.bmp", encoded(photo(320, 200, 75), "BMP"), "24-bit, bottom-up")
    add("bmp/palette8.bmp", encoded(photo(300, 180, 76).quantize(256), "BMP"), "8-bit palette")
    add("bmp/gray8.bmp", encoded(photo(200, 150, 77).convert("L"), "BMP"), "8-bit gray palette")
    add("bmp/bilevel.bmp", encoded(photo(200, 130, 78).convert("1"), "BMP"), "1-bit")
    add("bmp/rgba32.bmp", encoded(photo(160, 120, 79, alpha=True), "BMP"), "32-bit with alpha masks")
    add("ico/png-entries.ico", encoded(photo(256, 256, 85, alpha=True), "ICO", sizes=[(16, 16), (32, 32), (256, 256)]),
        "PNG entries 16, 32 and 256")
    add("ico/bmp-entries.ico", encoded(photo(64, 64, 86, alpha=True), "ICO", sizes=[(16, 16), (48, 48), (64, 64)],
                                       bitmap_format="bmp"), "BMP entries 16, 48 and 64 with AND masks")

    # TIFF through Pillow's libtiff writer: compressions, gray, alpha, 16-bit, two pages.
    add("tiff/rgb-lzw.tif", encoded(photo(400, 300, 87), "TIFF", compression="tiff_lzw"), "RGB, LZW strips")
    add("tiff/gray-deflate.tif", encoded(photo(300, 200, 88).convert("L"), "TIFF", compression="tiff_adobe_deflate"),
        "gray, Deflate")
    add("tiff/rgba-packbits.tif", encoded(photo(240, 160, 89, alpha=True), "TIFF", compression="packbits"),
        "RGBA, PackBits")
    add("tiff/rgb-jpeg.tif", encoded(photo(320, 240, 90), "TIFF", compression="jpeg", quality=90), "RGB, JPEG")
    add("tiff/gray16.tif", encoded(Image.fromarray((np.asarray(photo(200, 150, 91).convert("L"), np.uint16) * 257)),
                                                   "TIFF"), "16-bit gray")
    add("tiff/two-pages.tif", encoded(photo(200, 120, 92), "TIFF", save_all=True,
                                      append_images=[photo(100, 60, 93)]), "two pages (the first shown)")

    # JPEG XL through pillow-jxl-plugin's libjxl: lossy (XYB), lossless, alpha, gray.
    add("jxl/lossy.jxl", encoded(photo(400, 300, 94), "JXL", quality=85), "lossy (XYB), VarDCT")
    add("jxl/lossless.jxl", encoded(photo(240, 160, 95), "JXL", lossless=True), "lossless (modular)")
    add("jxl/alpha.jxl", encoded(photo(200, 150, 96, alpha=True), "JXL", quality=90), "lossy with alpha")
    add("jxl/gray.jxl", encoded(photo(200, 130, 97).convert("L"), "JXL", quality=90), "gray")

    # ICC-tagged images: an sRGB scene stored in a wider space, as a camera set to Adobe RGB stores it, converted
    # back to sRGB by the colour policy.
    for name, profile in icc.items():
        tagged = ImageCms.profileToProfile(photo(480, 320, 80 + len(name)), ImageCms.createProfile("sRGB"),
                                           ImageCms.ImageCmsProfile(io.BytesIO(profile)), outputMode="RGB")
        add(f"colour/{name}.jpg", encoded(tagged, "JPEG", quality=92, icc_profile=profile), f"JPEG tagged {name}.icc")
        add(f"colour/{name}.png", encoded(tagged, "PNG", icc_profile=profile), f"PNG tagged {name}.icc (iCCP)")
        add(f"colour/{name}.webp", encoded(tagged, "WEBP", quality=90, icc_profile=profile), f"WebP tagged {name}.icc")

    # Damage: cut, flipped, garbage, a bomb's header.
    whole = {path: data for path, data, _ in out if not path.startswith(("colour/", "orientation/"))}
    for path in ("jpeg/photo-420-q85.jpg", "jpeg/progressive-420.jpg", "png/rgba8.png", "png/rgb8-adam7.png",
                 "webp/lossy.webp", "gif/palette.gif", "heic/photo.heic", "avif/photo-420.avif", "bmp/rgb24.bmp",
                 "ico/bmp-entries.ico", "jxl/lossy.jxl"):
        if path in whole:
            data = whole[path]
            add("corrupt/cut-" + path.replace("/", "-"), data[: len(data) // 2], f"{path} cut in half")
    jpeg = bytearray(whole["jpeg/photo-420-q85.jpg"])
    for i in range(len(jpeg) // 3, len(jpeg) // 3 + 64, 8):
        jpeg[i] ^= 0x5A
    add("corrupt/flipped-scan.jpg", bytes(jpeg), "bytes flipped in the entropy-coded scan")
    png = bytearray(whole["png/rgb8.png"])
    png[len(png) // 2] ^= 0xFF
    add("corrupt/flipped-idat.png", bytes(png), "a byte flipped in the zlib stream (bad CRC)")
    add("corrupt/empty.jpg", b"", "an empty file")
    add("corrupt/garbage.png", np.random.default_rng(90).integers(0, 256, 4096, dtype=np.uint8).tobytes(), "random bytes")
    add("corrupt/text.jpg", b"this is not an image\n" * 20, "text under an image name")
    add("corrupt/bomb-60000x60000.png", png_bytes(np.zeros((1, 1), np.uint8), 0, 8, header_size=(60000, 60000)),
        "a 3.6 GP header over one pixel of data")
    return out


# -- what the references do ------------------------------------------------------------------------------------------

FORMATS = {"JPEG": "jpeg", "PNG": "png", "WEBP": "webp", "GIF": "gif", "HEIF": "heif", "AVIF": "avif"}


def sniffed(data):
    if data[:3] == b"\xff\xd8\xff": return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n": return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP": return "webp"
    if data[:4] == b"GIF8": return "gif"
    if data[4:8] == b"ftyp": return "avif" if data[8:12] in (b"avif", b"avis") else "heif"
    if data[:2] == b"BM": return "bmp"
    if data[:4] in (b"II*\0", b"MM\0*"): return "tiff"
    if data[:4] in (b"\0\0\1\0", b"\0\0\2\0"): return "ico"
    if data[:2] == b"\xff\x0a" or data[:12] == b"\0\0\0\x0cJXL \r\n\x87\n": return "jxl"
    return "unknown"


def pillow(path):
    """(result text, stored size, displayed size, orientation, mode, bit depth); sizes None when it fails."""
    try:
        with Image.open(path) as im:
            im.load()
            orientation = im.getexif().get(0x0112, 1)
            mode, size = im.mode, im.size
            shown = ImageOps.exif_transpose(im).size
            bits = 16 if mode.startswith("I;16") or im.info.get("bitdepth") == 16 else None
        text = f"decodes {size[0]}x{size[1]} {mode}" + (f" display {shown[0]}x{shown[1]}" if shown != size else "")
        return text, size, shown, orientation, mode, bits
    except Image.DecompressionBombError as e:
        limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
        try:
            with Image.open(path) as im:                    # the header's size, as the real MANIFEST gives it
                probe = im.size
        finally:
            Image.MAX_IMAGE_PIXELS = limit
        return f"DecompressionBombError: {e}", None, probe, 1, None, None
    except Exception as e:
        return f"{type(e).__name__}: {e}".replace("\n", " ").replace("\t", " "), None, None, 1, None, None


def vips(path):
    """(result text, size) from libvips: vipsheader, then a sequential `vips avg` that fails on any error."""
    env = dict(os.environ, VIPS_CONCURRENCY="1")
    header = subprocess.run(["vipsheader", path], capture_output=True, text=True, env=env)
    if header.returncode != 0:
        return "fails: " + " ".join(header.stderr.split())[:200], None
    avg = subprocess.run(["vips", "avg", f"{path}[fail_on=error,access=sequential]"], capture_output=True, text=True,
                         env=env)
    if avg.returncode != 0:
        return "fails: " + " ".join(avg.stderr.split())[:200], None
    m = re.search(r": (\d+)x(\d+) ", header.stdout)
    size = (int(m.group(1)), int(m.group(2))) if m else None
    return (f"decodes {size[0]}x{size[1]}" if size else "decodes"), size


def expected(p, v):
    """The MANIFEST's `expected` wording (see the corpus README) from the two references' results."""
    text, size, shown, orientation, _, _ = p
    vtext, vsize = v
    if text.startswith("DecompressionBombError"):
        return f"header says {shown[0]}x{shown[1]}, beyond the default pixel limit"
    if size and vsize:
        if size != vsize:
            return f"decodes {size[0]}x{size[1]} (pillow) / {vsize[0]}x{vsize[1]} (vips): references disagree on size"
        if orientation in range(2, 9):
            return f"decodes {size[0]}x{size[1]}; displayed {shown[0]}x{shown[1]} after EXIF orientation {orientation}"
        return f"decodes {size[0]}x{size[1]}"
    if not size and not vsize:
        return "must be rejected with an error"
    only = "pillow" if size else "vips"
    w, h = size or vsize
    return f"either decodes {w}x{h} or is rejected with an error (references disagree: only {only} decodes)"


def describe(path, data, tests):
    p, v = pillow(path), vips(path)
    fmt = sniffed(data)
    found = []
    if fmt == "png" and data[12:16] == b"IHDR":                # as the real MANIFEST words it: "rgba 16-bit adam7"
        kind = {0: "gray", 2: "rgb", 3: "palette", 4: "gray-alpha", 6: "rgba"}.get(data[25], "?")
        found += [kind, f"{data[24]}-bit"] + (["adam7"] if data[28] == 1 else [])
    if any(marker in data for marker in (b"ICC_PROFILE", b"iCCP", b"ICCP")):
        found.append("icc")
    if p[3] in range(2, 9):
        found.append(f"orientation={p[3]}")
    return {"path": os.path.relpath(path, DIRECTORY), "source": "generated: scripts/generated_corpus.py",
            "version": stamp()[:12], "license": "generated here (no third-party content)", "tests": tests,
            "expected": expected(p, v), "format": fmt, "features": " ".join(found), "pillow": p[0], "vips": v[0],
            "bytes": str(len(data)), "sha256": hashlib.sha256(data).hexdigest()}


def stamp():
    """What the generated files depend on: this file, Pillow, pillow-heif and libvips."""
    vips_version = subprocess.run(["vips", "--version"], capture_output=True, text=True).stdout.strip()
    import PIL
    text = open(__file__, "rb").read() + PIL.__version__.encode() + pillow_heif.__version__.encode() + vips_version.encode()
    return hashlib.sha256(text).hexdigest()


def build():
    """The generated corpus's directory, made now unless it is current (a lock keeps two checks from making it at
    once)."""
    os.makedirs(os.path.dirname(DIRECTORY), exist_ok=True)
    with open(DIRECTORY + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        want = stamp()
        marker = os.path.join(DIRECTORY, "STAMP")
        if os.path.isfile(marker) and open(marker).read() == want:
            return DIRECTORY
        shutil.rmtree(DIRECTORY, ignore_errors=True)
        os.makedirs(DIRECTORY)
        rows = []
        for path, data, tests in files():
            full = os.path.join(DIRECTORY, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(data)
            rows.append(describe(full, data, tests))
        with open(os.path.join(DIRECTORY, "MANIFEST.tsv"), "w", newline="") as f:
            writer = csv.DictWriter(f, COLUMNS, delimiter="\t", lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        with open(marker, "w") as f:
            f.write(want)
        return DIRECTORY


if __name__ == "__main__":
    directory = build()
    with open(os.path.join(directory, "MANIFEST.tsv")) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            print(f"{row['path']:42} {row['expected']}")
