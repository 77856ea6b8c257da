import Testing
import ShrinkCore

@Suite struct OrientationTests {
    @Test(arguments: ImageOrientation.allCases)
    func storedRectIsTheInverseOfDisplayedPosition(_ o: ImageOrientation) {
        let stored = PixelSize(width: 7, height: 4)
        // Every displayed single-pixel rect maps back to the stored pixel that displays there.
        for y in 0..<stored.height {
            for x in 0..<stored.width {
                let d = o.displayedPosition(x: x, y: y, in: stored)
                let r = o.storedRect(
                    for: FractionalRect(x: Double(d.x), y: Double(d.y), width: 1, height: 1), storedSize: stored)
                #expect(r == FractionalRect(x: Double(x), y: Double(y), width: 1, height: 1))
            }
        }
    }

    @Test(arguments: ImageOrientation.allCases)
    func displayedPositionsAreAPermutation(_ o: ImageOrientation) {
        let stored = PixelSize(width: 5, height: 3)
        let displayed = o.displayedSize(of: stored)
        var seen = Set<Int>()
        for y in 0..<stored.height {
            for x in 0..<stored.width {
                let d = o.displayedPosition(x: x, y: y, in: stored)
                #expect((0..<displayed.width).contains(d.x) && (0..<displayed.height).contains(d.y))
                seen.insert(d.y * displayed.width + d.x)
            }
        }
        #expect(seen.count == stored.pixelCount)
    }

    @Test func knownCorners() {
        let s = PixelSize(width: 4, height: 2)
        // 6 = rotate 90° clockwise: the stored top-left lands top-right.
        #expect(ImageOrientation.right.displayedPosition(x: 0, y: 0, in: s) == (1, 0))
        // 8 = rotate 90° counter-clockwise: the stored top-left lands bottom-left.
        #expect(ImageOrientation.left.displayedPosition(x: 0, y: 0, in: s) == (0, 3))
        #expect(ImageOrientation.down.displayedPosition(x: 0, y: 0, in: s) == (3, 1))
    }

    @Test func invalidValuesMeanUp() {
        #expect(ImageOrientation(exifValue: 0) == .up)
        #expect(ImageOrientation(exifValue: 9) == .up)
        #expect(ImageOrientation(exifValue: 6) == .right)
        #expect(
            ImageOrientation.right.displayedSize(of: PixelSize(width: 10, height: 3)) == PixelSize(width: 3, height: 10)
        )
    }
}
