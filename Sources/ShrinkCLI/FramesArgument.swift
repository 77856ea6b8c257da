import ArgumentParser

/// `--frames`: what becomes of an animation — kept (`all`, when the output format holds animations: WebP) or its
/// first frame only (`first`).
enum FramesArgument: String, ExpressibleByArgument, CaseIterable {
    case all
    case first
}
