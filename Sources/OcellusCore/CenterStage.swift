/// behaviour §4 Center Stage: per camera, whether the app wants its outputs framed on the faces
/// in view (AVFoundation's `isCenterStageEnabled`), and what the framing of a streaming camera
/// reports (whether it frames now, and its window). The framing itself lives above the core
/// (OcellusVision's `CenterStageFraming`); this is the typed part every layer reads.
public final class CenterStageSettings: @unchecked Sendable {
    public struct State: Equatable, Sendable {
        public var isEnabled = false
        /// A session streams the camera and frames its outputs (or still zooms back out).
        public var isActive = false
        /// The window the outputs show, in the camera's picture; whole while not active.
        public var window = PictureRegion.whole
        public init() {}
    }

    private let lock = ConditionLock()
    private var enabled: Set<String> = []
    /// The window of each camera streamed with Center Stage's framing.
    private var windows: [String: FramingWindow] = [:]
    private var observers: [String: [ObjectIdentifier: (Bool) -> Void]] = [:]

    public init() {}

    public func state(of uniqueID: String) -> State {
        lock.withLock {
            var state = State()
            state.isEnabled = enabled.contains(uniqueID)
            if let window = windows[uniqueID], window.isEngaged { (state.isActive, state.window) = (true, window.current) }
            return state
        }
    }

    /// Turns framing on or off; the framings of the camera's running streams are told at once.
    public func setEnabled(_ on: Bool, for uniqueID: String) {
        let told = lock.withLock { () -> [(Bool) -> Void] in
            guard enabled.contains(uniqueID) != on else { return [] }
            if on { enabled.insert(uniqueID) } else { enabled.remove(uniqueID) }
            return Array(observers[uniqueID, default: [:]].values)
        }
        for observer in told { observer(on) }
    }

    /// The window a streaming camera's framing aims (nil once its stream stopped).
    public func setWindow(_ window: FramingWindow?, of uniqueID: String) {
        lock.withLock { windows[uniqueID] = window }
    }

    /// Calls `observer` (on the thread that changed it, outside any lock) when the camera's
    /// setting changes, until `stopObserving(by:)`.
    public func observe(_ uniqueID: String, by owner: AnyObject, _ observer: @escaping (Bool) -> Void) {
        lock.withLock { observers[uniqueID, default: [:]][ObjectIdentifier(owner)] = observer }
    }

    public func stopObserving(by owner: AnyObject) {
        lock.withLock {
            for key in observers.keys { observers[key]?[ObjectIdentifier(owner)] = nil }
        }
    }
}
