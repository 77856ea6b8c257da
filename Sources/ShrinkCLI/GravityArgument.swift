import ArgumentParser
import Shrink

/// `--gravity`: where a cover or fill keeps its window: `centre` (or `center`), `north`, `south`, `east`, `west`,
/// `north-east`, `north-west`, `south-east`, `south-west`, `attention` (libvips' attention strategy, what imgproxy's
/// `g:sm` asks for), or `X,Y`, a focus point as fractions of the width and height the window is centred on.
struct GravityArgument: ExpressibleByArgument, Sendable, Equatable {
    let gravity: Gravity

    init(gravity: Gravity) {
        self.gravity = gravity
    }

    init?(argument: String) {
        let named: [String: Gravity] = [
            "centre": .centre, "center": .centre, "north": .north, "south": .south, "east": .east, "west": .west,
            "north-east": .northEast, "north-west": .northWest, "south-east": .southEast, "south-west": .southWest,
            "attention": .attention,
        ]
        if let g = named[argument.lowercased()] {
            gravity = g
            return
        }
        let parts = argument.split(separator: ",")
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), (0...1).contains(x),
            (0...1).contains(y)
        else { return nil }
        gravity = .focus(x: x, y: y)
    }

    static let defaultValueDescription = "centre"
}
