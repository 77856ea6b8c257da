// The facade re-exports the types users meet in its API, so `import Shrink` is enough.
@_exported import ShrinkCore
@_exported import struct ShrinkJPEG.JPEGEncoder
@_exported import struct ShrinkPNG.PNGEncoder
