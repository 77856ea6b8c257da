// The facade re-exports the core types users meet in its API, so `import Shrink` is enough (codec encoders
// are re-exported beside their registration, in Codecs.swift).
@_exported import ShrinkCore
@_exported import ShrinkColor
