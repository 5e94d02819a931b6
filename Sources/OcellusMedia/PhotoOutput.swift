import OcellusCapture
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// A captured still (behaviour §4 photo output).
public struct Photo: Sendable {
    public let jpeg: [UInt8]
    public let width: UInt32
    public let height: UInt32
    /// The EXIF Orientation written into the photo.
    public let orientation: UInt16
    public let sequence: UInt64
    /// CLOCK_MONOTONIC nanoseconds of the frame's capture.
    public let timestampNanoseconds: UInt64
}

public struct PhotoSettings: Sendable {
    /// Turn the pixels by the output's rotation instead of writing it as the EXIF Orientation
    /// (MJPEG cameras are then decoded and re-encoded).
    public var appliesRotationToPixels = false
    /// libjpeg-turbo quality for encoded photos (1–100); a camera's own JPEG keeps its quality.
    public var quality: Int32 = 92
    public init() {}
}

/// Stills from a capture session: each request takes the next good frame the
/// session delivers and becomes a JPEG with EXIF on the output's own thread, so
/// the stream and other outputs never wait for encoding. Requests made back to
/// back get successive frames, all delivered, in order.
public final class PhotoOutput: @unchecked Sendable {
    public typealias Completion = @Sendable (Result<Photo, OcellusError>) -> Void

    /// What the session streams into: the camera's own format at the session's size.
    public let videoOutput = VideoDataOutput()
    private let lock = ConditionLock()
    private var requests: [(PhotoSettings, Completion)] = []
    private var rotation = 0
    private var mirrored = false
    private let membership = SessionMembership()
    private var camera: Device?
    private let work = EventThread<() -> Void>()

    public init() {
        _ = work.addObserver { job in job() }
        videoOutput.convertsFramesItself = true // a framed photo is cropped from the camera's frame, not scaled
        videoOutput.frameHandler = { [unowned(unsafe) self] frame in self.take(frame) }
    }

    deinit {
        videoOutput.frameHandler = nil
        work.stop()
    }

    /// Clockwise degrees from the camera's pixels to upright: the rotation coordinator's
    /// capture angle. Written as the EXIF Orientation (or applied to the pixels on request).
    public var videoRotationAngle: Int {
        get { lock.withLock { rotation } }
        set { lock.withLock { rotation = ((newValue % 360) + 360) % 360 } }
    }

    public func setVideoRotationAngle(_ degrees: Int) throws(OcellusError) {
        guard degrees % 90 == 0 else { throw OcellusError(.invalidArgument, "rotation must be a multiple of 90 degrees, not \(degrees)") }
        videoRotationAngle = degrees
    }

    /// Whether photos are flipped about the vertical axis (after rotation).
    public var isVideoMirrored: Bool {
        get { lock.withLock { mirrored } }
        set { lock.withLock { mirrored = newValue } }
    }

    /// Joins `session`: its frames feed this output from the next commit.
    public func attach(to session: CaptureSession) throws(OcellusError) {
        try membership.attach(videoOutput, to: session, what: "photo output") { [weak self] error in
            self?.failAll(error.map { "no photo: \($0.message)" } ?? "the session stopped before a frame arrived for the photo")
        }
    }

    public func detach() throws(OcellusError) {
        if try membership.detach(videoOutput) { failAll("the photo output left its session") }
    }

    /// Leaves the session and answers every request still open (with an error if it
    /// has no frame yet) before returning. Not from a completion handler.
    public func close() {
        try? detach()
        videoOutput.frameHandler = nil
        failAll("the photo output was closed")
        guard !work.isEventThread else { return }
        let drained = ConditionLock()
        var finished = false
        work.post {
            drained.withLock {
                finished = true; drained.broadcast()
            }
        }
        drained.withLock { while !finished { drained.wait() } }
    }

    /// Requests a photo from the next frame; `completion` runs on the output's thread
    /// with the photo or the reason there is none. The session must be running.
    public func capturePhoto(_ settings: PhotoSettings = PhotoSettings(), completion: @escaping Completion) throws(OcellusError) {
        guard (1...100).contains(settings.quality) else {
            throw OcellusError(.invalidArgument, "photo quality must be 1–100, not \(settings.quality)")
        }
        guard let session = membership.runningSession(delivering: videoOutput) else {
            throw OcellusError(.wrongState, "capture a photo while its session runs (add the photo output and start the session)")
        }
        lock.withLock {
            camera = session.input
            requests.append((settings, completion))
        }
    }

    /// Requests not yet given a frame.
    public var pendingRequests: Int { lock.withLock { requests.count } }

    /// On the stream thread: copies the frame for the oldest request (only while one waits).
    private func take(_ frame: CameraFrame) {
        guard lock.withLock({ !requests.isEmpty }) else { return }
        // A camera JPEG that does not decode whole is skipped: the request waits for the next frame; from an H.264
        // camera it waits for an IDR picture, the only kind that decodes on its own.
        if frame.isCorrupt || (frame.pixelFormat == .h264 && !H264.isKeyFrame(frame.plane(0)!.bytes)) { return }
        if frame.pixelFormat == .mjpeg && !JPEGPhoto.decodesWhole(frame.plane(0)!.bytes, width: frame.width, height: frame.height) {
            videoOutput.countUndecodable()
            return
        }
        guard
            let (settings, completion, rotation, mirrored, camera) = lock.withLock({ () -> (PhotoSettings, Completion, Int, Bool, Device?)? in
                guard !requests.isEmpty else { return nil }
                let (settings, completion) = requests.removeFirst()
                return (settings, completion, self.rotation, self.mirrored, self.camera)
            })
        else { return }
        let copy = RetainedFrame(copying: frame)
        let captureTime = Self.wallClock(ofMonotonic: frame.timestampNanoseconds)
        work.post {
            let metadata = PhotoMetadata(
                orientation: PhotoMetadata.orientation(rotation: rotation, mirrored: mirrored),
                make: camera?.details.vendorName,
                model: camera?.details.productName ?? camera?.name, captureTime: captureTime)
            let turn = settings.appliesRotationToPixels
            completion(
                Result { () throws(OcellusError) -> Photo in
                    let made = try JPEGPhoto.make(
                        from: copy.frame, metadata: metadata, rotation: turn ? rotation : 0,
                        mirrored: turn && mirrored, quality: settings.quality)
                    return Photo(
                        jpeg: made.bytes, width: made.width, height: made.height, orientation: turn ? 1 : metadata.orientation,
                        sequence: copy.frame.sequence, timestampNanoseconds: copy.frame.timestampNanoseconds)
                })
        }
    }

    private func failAll(_ message: String) {
        let failed = lock.withLock { () -> [Completion] in
            defer { requests.removeAll() }
            return requests.map(\.1)
        }
        for completion in failed { work.post { completion(.failure(OcellusError(.wrongState, message))) } }
    }

    /// The realtime clock's seconds for a CLOCK_MONOTONIC capture time.
    static func wallClock(ofMonotonic nanoseconds: UInt64) -> time_t {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let age = Int64(monotonicNanoseconds()) - Int64(nanoseconds)
        return now.tv_sec - time_t(max(0, age) / 1_000_000_000)
    }
}

extension Photo {
    /// Writes the JPEG to `path` whole or not at all.
    public func write(toFile path: String) throws(OcellusError) {
        try jpeg.withUnsafeBytes { bytes in Result { () throws(OcellusError) in try writeFileAtomically(bytes, to: path, mode: 0o644) } }.get()
    }
}
