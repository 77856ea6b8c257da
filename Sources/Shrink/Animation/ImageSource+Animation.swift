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
            info.orientation = info.orientation.followed(by: rotation(under: options))
            let canvas = animation.canvasSize
            let plan = try ThumbnailPlan(
                info: info, target: target, options: options, prescales: [1], scaledSize: { _ in canvas })
            try limits.check(plan.outputSize, path: name, what: "output")
            try options.finishing.validate()
            let chosen = decodePlan(plan, options: options)
            try limits.check(chosen.finishedSize, path: name, what: "finished output")
            try limits.check(resultSize: chosen.finishedSize, path: name)
            return try AnimationFrames(
                source: self, chosen: chosen, decoder: animation, monitor: monitor)
        } catch {
            throw error.naming(name)
        }
    }
}

extension ImageSource {
    /// Bytes an animation's frame-by-frame encode holds beyond one still decode at `output` size: the codec's canvas
    /// at its worst (8 bytes a pixel: WebP's two RGBA canvases; a GIF's 1-byte canvas widened to RGBA with a restored
    /// rectangle beside it) and an animation encoder's canvases at the output size (4 of 4 bytes a pixel), plus the
    /// file it builds, bounded by a byte a pixel of every frame.
    package func predictedAnimationBytes(output: PixelSize) -> Int {
        let (canvas, frame) = (info.size.pixelCount, output.pixelCount)
        return canvas * 8 + frame * 16 + frame * max(1, info.frameCount)
    }
}
