import Foundation
import OcellusCore

/// The one stand-in backend of the Swift tests: named as such — no machine here has a camera
/// that PipeWire and raw V4L2 can both see, and Core's tests run no daemon. The test scripts it:
/// it reports the devices the test adds and removes, fails as a daemon that went would, and
/// opens `ScriptedStream`s and `ScriptedAudioStream`s that deliver what the test feeds them,
/// recording every stream it opened. The real backends run the same paths in the PipeWire,
/// vivid and gadget suites.
public final class ScriptedBackend: DeviceBackend, CameraStreamOpening, AudioStreamOpening, @unchecked Sendable {
    public let kind: BackendKind
    /// Weak, as in the real backends: the hub owns its backends.
    public private(set) weak var delegate: (any DeviceBackendDelegate)?
    private let lock = NSLock()
    private var streams: [ScriptedStream] = []
    private var audioStreams: [ScriptedAudioStream] = []
    private var failures: [OcellusError] = []
    private var audioFailures: [OcellusError] = []
    private var references: [ScriptedAudioStream] = []
    private var referenceFailures: [OcellusError] = []

    public let capabilities: BackendCapabilities

    /// Never refused for a format another app runs (both protocols it stands in for ask).
    public func takeFormatInUse(of device: Device) -> (format: VideoFormat, rate: FrameRate)? { nil }

    /// Stands in for `kind`, with what that backend states it can do.
    public init(_ kind: BackendKind = .v4l2) {
        self.kind = kind
        capabilities =
            kind == .pipewire
            ? BackendCapabilities(sharesCameras: true, streamsSound: true)
            : BackendCapabilities(streamsDepth: true, isKernelView: true)
    }

    public func start(delegate: any DeviceBackendDelegate, timeoutMilliseconds: UInt32) throws(OcellusError) { self.delegate = delegate }
    public func stop() {}

    // MARK: Discovery, as the test scripts it

    public func add(_ facts: DeviceFacts) { delegate?.backend(self, didAdd: facts) }
    public func remove(_ key: String) { delegate?.backend(self, didRemoveDeviceWithKey: key) }
    /// The connection went (a daemon exited): every device of this backend is gone.
    public func fail() { delegate?.backend(self, didFail: OcellusError(.backendUnavailable, "the stand-in backend went")) }

    // MARK: Streams

    /// The camera streams opened so far, oldest first.
    public var opened: [ScriptedStream] { lock.withLock { streams } }
    /// The microphone streams opened so far, oldest first.
    public var openedAudio: [ScriptedAudioStream] { lock.withLock { audioStreams } }

    /// The next camera opens fail with these errors, one each (a camera another client holds: `.busy`).
    public func failNextOpens(_ errors: OcellusError...) { lock.withLock { failures += errors } }
    /// The next microphone opens fail with these errors, one each.
    public func failNextAudioOpens(_ errors: OcellusError...) { lock.withLock { audioFailures += errors } }
    /// The playback references opened so far (their `device`: the microphone they were opened beside).
    public var playbackReferences: [ScriptedAudioStream] { lock.withLock { references } }
    /// The next playback reference opens fail with these errors, one each.
    public func failNextPlaybackReferences(_ errors: OcellusError...) { lock.withLock { referenceFailures += errors } }

    /// Runs inside `openAudioStream` before it returns: a stream whose first samples come while
    /// it is still being opened (PipeWire's connect runs the first process callback first).
    public var whileOpeningAudio: ((ScriptedAudioStream) -> Void)?

    public func openStream(
        for device: Device, format: VideoFormat, frameRate: FrameRate,
        handler: @escaping (CameraStreamEvent) -> Void
    ) throws(OcellusError) -> any CameraStream {
        if let failure = lock.withLock({ failures.isEmpty ? nil : failures.removeFirst() }) { throw failure }
        // A running stream states the one size and rate it runs at.
        let running = VideoFormat(pixelFormat: format.pixelFormat, width: format.width, height: format.height, frameRates: [frameRate])
        let stream = ScriptedStream(device: device, format: running, handler: handler)
        lock.withLock { streams.append(stream) }
        return stream
    }

    public func openAudioStream(
        for device: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream {
        if let failure = lock.withLock({ audioFailures.isEmpty ? nil : audioFailures.removeFirst() }) { throw failure }
        let stream = ScriptedAudioStream(device: device, format: format, handler: handler)
        whileOpeningAudio?(stream)
        lock.withLock { audioStreams.append(stream) }
        return stream
    }

    public func openPlaybackReference(
        beside microphone: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream {
        if let failure = lock.withLock({ referenceFailures.isEmpty ? nil : referenceFailures.removeFirst() }) { throw failure }
        let stream = ScriptedAudioStream(device: microphone, format: format, handler: handler)
        lock.withLock { references.append(stream) }
        return stream
    }
}

/// A camera stream that delivers the frames a test feeds it, on the feeding thread (as a
/// backend delivers on its stream thread), and records who stopped it.
/// As a real backend's stream, it calls its handler on no thread once `stop` has returned (a
/// real `stop` joins the stream's thread): a frame or failure fed after that is dropped, and
/// `stop` waits for one being delivered.
public final class ScriptedStream: CameraStream, @unchecked Sendable {
    public let device: Device
    public let format: VideoFormat
    private let handler: (CameraStreamEvent) -> Void
    private let lock = NSLock()
    private var stoppers: [pthread_t] = []
    /// Held while the handler runs; `stop` takes it to end deliveries.
    private let delivering = NSRecursiveLock()
    private var stopped = false

    init(device: Device, format: VideoFormat, handler: @escaping (CameraStreamEvent) -> Void) {
        (self.device, self.format, self.handler) = (device, format, handler)
    }

    /// Delivers `frame` (views valid during the call); `lender`, when the stream lends its buffer.
    public func feed(_ frame: CameraFrame, lender: (any CameraBufferLending)? = nil) {
        withUnsafePointer(to: frame) { frame in deliver(.frame(frame, lender: lender)) }
    }

    private func deliver(_ event: CameraStreamEvent) {
        delivering.withLock { if !stopped { handler(event) } }
    }

    /// A frame of the stream's format and size filled with `byte`, numbered `sequence`, stamped now.
    public func feed(sequence: UInt64, byte: UInt8 = 0x80, at time: UInt64 = monotonicNanoseconds()) {
        let plane = ScriptedFrames.planeBytes(format)
        let bytes = [UInt8](repeating: byte, count: plane.count)
        bytes.withUnsafeBytes { view in
            feed(
                CameraFrame(
                    pixelFormat: format.pixelFormat, width: format.width, height: format.height, sequence: sequence,
                    timestampNanoseconds: time, planes: FramePlane(bytes: view, stride: plane.stride)))
        }
    }

    /// The stream ends on its own (the camera went, the daemon went, a driver error).
    public func fail(_ error: OcellusError) { deliver(.failed(error)) }

    public func stop() {
        delivering.withLock { stopped = true }
        lock.withLock { stoppers.append(pthread_self()) }
    }
    /// The threads that called `stop`, in order.
    public var stops: [pthread_t] { lock.withLock { stoppers } }
}

/// A microphone stream that delivers the samples a test feeds it, on the feeding thread.
public final class ScriptedAudioStream: AudioStream, @unchecked Sendable {
    public let device: Device
    public let format: AudioFormat
    private let handler: (AudioStreamEvent) -> Void
    private let lock = NSLock()
    private var stopCount = 0

    init(device: Device, format: AudioFormat, handler: @escaping (AudioStreamEvent) -> Void) {
        (self.device, self.format, self.handler) = (device, format, handler)
    }

    /// `frames` frames of silence.
    public func feed(frames: Int) { feed(samples: [Float](repeating: 0, count: frames * Int(format.channels))) }

    /// Interleaved `samples`, captured at `timestamp` (now by default).
    public func feed(samples: [Float], timestamp: UInt64 = monotonicNanoseconds()) {
        samples.withUnsafeBufferPointer { view in
            handler(.samples(AudioBuffer(format: format, samples: view, timestampNanoseconds: timestamp)))
        }
    }

    public func fail(_ error: OcellusError) { handler(.failed(error)) }

    public func stop() { lock.withLock { stopCount += 1 } }
    public var stops: Int { lock.withLock { stopCount } }
}

/// Sizes of the scripted frames.
enum ScriptedFrames {
    /// One plane holding the whole frame: packed formats' rows, or a planar format's planes back to back.
    static func planeBytes(_ format: VideoFormat) -> (count: Int, stride: Int) {
        let width = Int(format.width), height = Int(format.height)
        switch format.pixelFormat {
        case .yuyv, .uyvy, .z16, .y16, .y12: return (width * 2 * height, width * 2)
        case .nv12, .i420: return (width * height * 3 / 2, width)
        default: return (width * 4 * height, width * 4)
        }
    }
}
