import ShrinkCore

extension ImageSource {
    /// Why this image's animation is decoded as its first frame only — more frames or frame pixels than ``limits``
    /// allow (``ImageLimits/maxAnimationFrames``, ``ImageLimits/maxAnimationPixels``) — or nil when it is not
    /// animated or within both limits. The still image's decode carries this warning too.
    public var animationLimitWarning: String? {
        guard info.frameCount > 1 else { return nil }
        return limits.animationRefusal(frames: info.frameCount, canvas: info.size)
    }

    /// The animation, frame by frame at `target` (``AnimationFrames``): nil when the image is a single frame, its
    /// codec decodes only the first frame, or it is over the animation limits (``animationLimitWarning`` says so).
    /// Frames are rgba8 unless `options.pixelFormat` asks for exactly another format; the orientation and colour
    /// policy apply to every frame as to the still image. Fails like the still image's decode would.
    public func animation(
        _ target: ThumbnailTarget, options: ThumbnailOptions = ThumbnailOptions(), monitor: DecodeMonitor? = nil
    ) throws(ImageError) -> AnimationFrames? {
        guard info.frameCount > 1, animationLimitWarning == nil else { return nil }
        do {
            var options = options
            if case .exactly = options.pixelFormat {} else { options.pixelFormat = .exactly(.rgba8) }
            let decode = DecodeOptions(strict: options.strict, memoryLimit: limits.maxWorkingBytes)
            guard let animation = try decoder.animation(options: decode, monitor: monitor) else { return nil }
            var info = self.info
            info.size = animation.canvasSize
            info.orientation = info.orientation.followed(by: options.rotation)
            let canvas = animation.canvasSize
            let plan = try ThumbnailPlan(
                info: info, target: target, options: options, prescales: [1], scaledSize: { _ in canvas })
            try limits.check(plan.outputSize, path: name, what: "output")
            let chosen = decodePlan(plan, options: options)
            return try AnimationFrames(
                source: self, chosen: chosen, decoder: animation, frameCount: self.info.frameCount, monitor: monitor)
        } catch {
            throw error.naming(name)
        }
    }
}
