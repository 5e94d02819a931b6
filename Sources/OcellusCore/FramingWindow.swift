import Synchronization

/// Center Stage's window on one camera stream (behaviour §4): where the framing controller aims
/// it, and where it is at each frame — moved toward the aim by a critically damped spring on the
/// frames' own timestamps, so that every output of a frame sees the same window and the motion
/// is smooth whatever the outputs' rates. The session makes one per stream and hands it to its
/// companions; while nobody engages it, outputs get the whole picture at the cost of one atomic load.
public final class FramingWindow: Sendable {
    /// The spring's angular frequency (per second): about 0.6 s to cover most of a move, without overshoot.
    static let stiffness = 4.5
    /// The most the window zooms whatever the outputs' sizes: a quarter of the picture's width.
    public static let smallestScale = 0.25

    private struct Axis {
        var position: Double
        var velocity = 0.0
        var aim: Double

        mutating func step(_ seconds: Double, stiffness: Double) {
            let acceleration = stiffness * stiffness * (aim - position) - 2 * stiffness * velocity
            velocity += acceleration * seconds
            position += velocity * seconds
        }
    }

    private struct State {
        // The window's centre and its share of the picture's width and height (the picture's
        // aspect ratio is kept, so outputs of that ratio are never stretched).
        var centerX = Axis(position: 0.5, aim: 0.5)
        var centerY = Axis(position: 0.5, aim: 0.5)
        var scale = Axis(position: 1, aim: 1)
        var minimumScale = 1.0
        var lastTimestamp: UInt64 = 0
        var region = PictureRegion.whole
        /// Aimed at faces (not released): the window frames whenever it has room to, and once
        /// released it lets the outputs go when it is back at the whole picture.
        var hasAim = false

        /// Keeps the aim inside the picture and no smaller than the minimum.
        mutating func clampAim() {
            scale.aim = min(1, max(minimumScale, scale.aim))
            centerX.aim = min(1 - scale.aim / 2, max(scale.aim / 2, centerX.aim))
            centerY.aim = min(1 - scale.aim / 2, max(scale.aim / 2, centerY.aim))
        }
    }

    private let engaged = Atomic<Bool>(false)
    private let state = Locked(State())

    public init() {}

    /// The smallest share of the picture the window may take: the session sets it from its
    /// outputs' sizes, so that no output is given a window with fewer pixels than it delivers
    /// (never zooming past the camera's own resolution). 1: the window cannot move, and is not
    /// engaged (outputs at the camera's full size would be converted for nothing).
    public var minimumScale: Double {
        get { state.withLock { $0.minimumScale } }
        set {
            let framing = state.withLock { state -> Bool in
                state.minimumScale = min(1, max(0.05, newValue))
                state.clampAim()
                return state.hasAim && state.minimumScale < 1
            }
            engaged.store(framing, ordering: .releasing)
        }
    }

    /// Whether the window frames the outputs now (Center Stage on, or still zooming back out).
    public var isEngaged: Bool { engaged.load(ordering: .acquiring) }

    /// The window as of the latest frame.
    public var current: PictureRegion { state.withLock { $0.region } }

    /// Aims the window at `region` (centre and size; clamped to the picture and the minimum
    /// scale), engaging it. nil aims at the whole picture and, once there, lets the outputs go.
    public func aim(at region: PictureRegion?) {
        if let region, ![region.x, region.y, region.width, region.height].allSatisfy(\.isFinite) { return } // no such window
        state.withLock { state in
            let target = region ?? .whole
            state.centerX.aim = target.centerX
            state.centerY.aim = target.centerY
            state.scale.aim = max(target.width, target.height)
            state.hasAim = region != nil
            state.clampAim()
            if region != nil && state.minimumScale < 1 { engaged.store(true, ordering: .releasing) }
        }
    }

    /// The window for the frame taken at `timestamp` (nanoseconds), or nil while it is not
    /// engaged. The first call for a timestamp moves it; later calls for the same frame get the same.
    public func region(at timestamp: UInt64) -> PictureRegion? {
        guard engaged.load(ordering: .acquiring) else { return nil }
        return state.withLock { state -> PictureRegion? in
            if state.lastTimestamp != 0 && timestamp > state.lastTimestamp {
                // A pause is not a jump: at most a fifth of a second a step.
                let seconds = min(0.2, Double(timestamp - state.lastTimestamp) / 1e9)
                for _ in 0..<4 { // four substeps keep the spring stable at low frame rates
                    state.centerX.step(seconds / 4, stiffness: Self.stiffness)
                    state.centerY.step(seconds / 4, stiffness: Self.stiffness)
                    state.scale.step(seconds / 4, stiffness: Self.stiffness)
                }
            }
            if timestamp > state.lastTimestamp { state.lastTimestamp = timestamp }
            let scale = min(1, max(state.minimumScale, state.scale.position))
            let x = min(1 - scale / 2, max(scale / 2, state.centerX.position))
            let y = min(1 - scale / 2, max(scale / 2, state.centerY.position))
            state.region = PictureRegion(x: x - scale / 2, y: y - scale / 2, width: scale, height: scale)
            if !state.hasAim && scale > 0.999 {
                engaged.store(false, ordering: .releasing)
                state.region = .whole
                return nil
            }
            return state.region
        }
    }
}
