import OcellusCapture
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// behaviour §4 Center Stage for the camera a session streams: a session companion that finds
/// the faces in the whole picture (its own faces-only analysis: 10 frames a second while the
/// faces move, 4 once the aim has held for a second) and aims the
/// stream's `FramingWindow` at them (`FramingPolicy`); the session's outputs then show the window.
/// It joins a stream only while the app has Center Stage on for the camera, and follows the
/// setting while the stream runs: turned off, the window zooms back out to the whole picture.
public final class CenterStageFraming: SessionCompanion, @unchecked Sendable {
    static let followingRate = 10.0
    static let holdingRate = 4.0
    /// How long an aim must hold before the analysis slows down.
    static let holdTime: UInt64 = 1_000_000_000
    /// Wide pictures hold smaller faces: a person a metre or two from a 16:9 camera.
    static let analysisWidth = 640

    private let settings: CenterStageSettings
    private var faces: CompanionFaces!
    private let lock = ConditionLock()
    // Under `lock`:
    private var stream: CompanionStream?
    private var policy = FramingPolicy()
    private var lastAim: UInt64 = 0

    /// The face detector is loaded the first time a camera is framed.
    public init(settings: CenterStageSettings) {
        self.settings = settings
        faces = CompanionFaces(width: Self.analysisWidth) { [unowned(unsafe) self] _, objects in self.observe(objects) }
    }

    deinit { cameraStreamStopped() }

    public func cameraStreamWillStart(_ started: CompanionStream) -> VideoDataOutput? {
        cameraStreamStopped()
        let camera = started.camera.uniqueID
        lock.withLock { (stream, policy) = (started, FramingPolicy()) }
        settings.setWindow(started.framing, of: camera)
        settings.observe(camera, by: self) { [weak self] enabled in self?.follow(enabled) }
        return settings.state(of: camera).isEnabled ? beginFraming() : nil
    }

    public func cameraStreamStopped() {
        settings.stopObserving(by: self)
        faces.stop()
        guard let stream = lock.withLock({ self.stream }) else { return }
        lock.withLock { self.stream = nil }
        settings.setWindow(nil, of: stream.camera.uniqueID)
    }

    /// The app turned Center Stage on or off while the camera streams.
    private func follow(_ enabled: Bool) {
        guard let stream = lock.withLock({ stream }) else { return }
        if enabled {
            stream.setOutput(beginFraming())
        } else {
            faces.stop()
            stream.setOutput(nil)
            stream.framing.aim(at: nil) // the outputs' own frames move it back out
            lock.withLock { policy = FramingPolicy() }
        }
    }

    /// The output to feed, with the analysis ready (nil without a face detector: nothing to frame by).
    private func beginFraming() -> VideoDataOutput? {
        lock.withLock { lastAim = monotonicNanoseconds() }
        return faces.start(rate: Self.followingRate)
    }

    // MARK: The analysis thread

    private func observe(_ objects: [MetadataObject]) {
        let seen = objects.compactMap { object -> PictureRegion? in
            if case .face = object.kind { return object.bounds }
            return nil
        }
        let now = monotonicNanoseconds()
        lock.withLock {
            guard let stream, faces.isForwarding else { return }
            if policy.update(faces: seen, at: now) {
                stream.framing.aim(at: policy.aim)
                lastAim = now
            }
            faces.setRate(now < lastAim + Self.holdTime ? Self.followingRate : Self.holdingRate)
        }
    }
}
