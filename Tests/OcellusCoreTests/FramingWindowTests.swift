import Testing

@testable import OcellusCore

/// Center Stage's window on frame timestamps: idle costs nothing, a move is smooth and never
/// overshoots, the window stays inside the picture and no smaller than the outputs allow, and
/// a release zooms back out before letting the outputs go.
@Suite struct FramingWindowTests {
    static let frame: UInt64 = 33_333_333

    /// The windows of `count` frames at 30 fps from `start`.
    func run(_ window: FramingWindow, frames count: Int, from start: UInt64 = 1_000_000_000) -> [PictureRegion?] {
        (0..<count).map { window.region(at: start + UInt64($0) * Self.frame) }
    }

    @Test func anIdleWindowFramesNothing() {
        let window = FramingWindow()
        #expect(run(window, frames: 10).allSatisfy { $0 == nil } && !window.isEngaged)
    }

    @Test func aMoveIsSmoothWithoutOvershootAndArrivesWithinASecondAndAHalf() throws {
        let window = FramingWindow()
        window.minimumScale = 0.25
        window.aim(at: PictureRegion(x: 0.1, y: 0.2, width: 0.4, height: 0.4))
        let path = run(window, frames: 60).map { $0! }
        let scales = path.map(\.width), lefts = path.map(\.x)
        // Monotonic: a critically damped move never passes its aim.
        #expect(zip(scales, scales.dropFirst()).allSatisfy { $1 <= $0 + 1e-9 } && scales.allSatisfy { $0 >= 0.4 - 1e-6 })
        #expect(zip(lefts, lefts.dropFirst()).allSatisfy { $1 >= $0 - 1e-9 } && lefts.allSatisfy { $0 <= 0.1 + 1e-6 })
        // Smooth: no frame moves the window by more than a twentieth of the picture.
        #expect(zip(path, path.dropFirst()).allSatisfy { abs($1.x - $0.x) < 0.05 && abs($1.width - $0.width) < 0.05 })
        let last = try #require(path.last)
        #expect(abs(last.width - 0.4) < 0.01 && abs(last.x - 0.1) < 0.01 && abs(last.y - 0.2) < 0.01, "\(last)")
        #expect(window.current == last)
    }

    @Test func everyOutputOfAFrameSeesTheSameWindow() {
        let window = FramingWindow()
        window.minimumScale = 0.5
        window.aim(at: PictureRegion(x: 0, y: 0, width: 0.5, height: 0.5))
        _ = run(window, frames: 5)
        let first = window.region(at: 9_000_000_000), second = window.region(at: 9_000_000_000)
        #expect(first != nil && first == second)
        #expect(window.region(at: 8_000_000_000) == first, "an older frame does not move it back")
    }

    @Test func theWindowStaysInsideThePictureAndNoSmallerThanTheOutputsAllow() {
        let window = FramingWindow()
        window.minimumScale = 0.6 // e.g. a 768-wide output of a 1280-wide camera
        window.aim(at: PictureRegion(x: 0.9, y: -0.3, width: 0.1, height: 0.1))
        for region in run(window, frames: 90).compactMap({ $0 }) {
            #expect(region.width >= 0.6 - 1e-9 && region.height == region.width)
            #expect(region.x >= 0 && region.y >= 0 && region.x + region.width <= 1 + 1e-9 && region.y + region.height <= 1 + 1e-9)
        }
        #expect(abs(window.current.x - 0.4) < 0.01 && abs(window.current.y) < 0.01, "pushed into the top-right corner")
    }

    /// Outputs at the camera's full size leave no room: the window stays idle (no conversion for
    /// nothing) until a commit gives it room, then frames at once.
    @Test func withoutRoomTheWindowStaysIdleUntilItHasSome() {
        let window = FramingWindow()
        window.minimumScale = 1
        window.aim(at: PictureRegion(x: 0.3, y: 0.3, width: 0.3, height: 0.3))
        #expect(!window.isEngaged && run(window, frames: 10).allSatisfy { $0 == nil })
        window.minimumScale = 0.5
        #expect(window.isEngaged && window.region(at: 5_000_000_000) != nil)
        window.minimumScale = 1
        #expect(!window.isEngaged)
    }

    @Test func aReleaseZoomsBackOutThenLetsTheOutputsGo() throws {
        let window = FramingWindow()
        window.minimumScale = 0.25
        window.aim(at: PictureRegion(x: 0.3, y: 0.3, width: 0.3, height: 0.3))
        _ = run(window, frames: 60)
        window.aim(at: nil)
        let back = run(window, frames: 120, from: 3_000_000_000)
        let framed = back.prefix { $0 != nil }.map { $0! }
        #expect(framed.count > 5, "it zooms out over frames, not at once")
        #expect(zip(framed, framed.dropFirst()).allSatisfy { $1.width >= $0.width - 1e-9 })
        #expect(back.last! == nil && !window.isEngaged && window.current == .whole)
    }
}
