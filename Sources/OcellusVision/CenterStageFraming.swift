import OcellusCore
import Synchronization
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
    private let faceModel: () -> MetadataOutput?
    private let output = VideoDataOutput()
    private let forwarding = Atomic<Bool>(false)
    private let lock = ConditionLock()
    // Under `lock`:
    private var analysis: MetadataOutput?
    private var stream: CompanionStream?
    private var policy = FramingPolicy()
    private var lastAim: UInt64 = 0

    /// The face detector is loaded the first time a camera is framed.
    public init(settings: CenterStageSettings) {
        self.settings = settings
        faceModel = { try? MetadataOutput(objectTypes: .faces) }
        output.frameViewHandler = { [unowned(unsafe) self] frame in
            guard self.forwarding.load(ordering: .relaxed), let analysis = self.lock.withLock({ self.analysis }) else { return }
            analysis.take(frame)
        }
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
        forwarding.store(false, ordering: .relaxed)
        let (analysis, stream) = lock.withLock { (self.analysis, self.stream) }
        analysis?.waitUntilIdle()
        guard let stream else { return }
        lock.withLock { self.stream = nil }
        settings.setWindow(nil, of: stream.camera.uniqueID)
    }

    /// The app turned Center Stage on or off while the camera streams.
    private func follow(_ enabled: Bool) {
        guard let stream = lock.withLock({ stream }) else { return }
        if enabled {
            stream.setOutput(beginFraming())
        } else {
            forwarding.store(false, ordering: .relaxed)
            stream.setOutput(nil)
            stream.framing.aim(at: nil)   // the outputs' own frames move it back out
            lock.withLock { policy = FramingPolicy() }
        }
    }

    /// The output to feed, with the analysis ready (nil without a face detector: nothing to frame by).
    private func beginFraming() -> VideoDataOutput? {
        let detecting = lock.withLock { () -> MetadataOutput? in
            if analysis == nil, let made = faceModel() {
                made.analysisObserver = { [unowned(unsafe) self] _, objects in self.observe(objects) }
                made.analysisWidth = Self.analysisWidth
                analysis = made
            }
            return analysis
        }
        guard let detecting else { return nil }
        try? detecting.setMaximumAnalysisRate(Self.followingRate)
        lock.withLock { lastAim = monotonicNanoseconds() }
        output.waitForHandedOffWork = { detecting.waitUntilIdle() }
        forwarding.store(true, ordering: .relaxed)
        return output
    }

    // MARK: The analysis thread

    private func observe(_ objects: [MetadataObject]) {
        let faces = objects.compactMap { object -> PictureRegion? in
            if case .face = object.kind { return object.bounds }
            return nil
        }
        let now = monotonicNanoseconds()
        lock.withLock {
            guard let stream, forwarding.load(ordering: .relaxed) else { return }
            if policy.update(faces: faces, at: now) {
                stream.framing.aim(at: policy.aim)
                lastAim = now
            }
            try? analysis?.setMaximumAnalysisRate(now < lastAim + Self.holdTime ? Self.followingRate : Self.holdingRate)
        }
    }
}
