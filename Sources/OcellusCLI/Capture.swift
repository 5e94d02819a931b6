// `ocellus stream`, `ocellus snap` and `ocellus record`: capture sessions from the command line.
import OcellusCore
import OcellusMedia
import OcellusSensors
import OcellusSystem
#if canImport(Glibc)
import Glibc
#endif

/// A session on one camera with the CLI's signal handling: SIGINT/SIGTERM/SIGUSR1 end the wait.
final class CLICapture {
    let hub: DeviceHub
    let device: Device
    let session: CaptureSession
    private var signals: sigset_t
    private let state = ConditionLock()
    private var failure: String?

    init(_ options: GlobalOptions, uniqueID: String?) {
        signals = blockTerminationSignals()
        hub = openHub(options)
        device = connectedDevice(hub, uniqueID)
        session = CaptureSession.system(pipewireRemote: options.remote, appID: options.appID)
        // A runtime error, or a camera that stalled, ends the command with its message.
        _ = session.events.addObserver { [weak self] event in
            guard let self else { return }
            switch event {
            case .runtimeError(let error), .interrupted(let error) where error.code == .timeout:
                self.state.withLock { if self.failure == nil { self.failure = error.message } }
                CLICapture.finish()
            case .recordingDegraded(let error), .audioInterrupted(let error):
                fputs("ocellus: warning: \(error.message)\n", stderr)
            default: return
            }
        }
    }

    /// Ends `wait` from any thread.
    static func finish() { kill(getpid(), SIGUSR1) }

    func start(_ configure: (CaptureSession) throws(OcellusError) -> Void) {
        do throws(OcellusError) {
            try session.addInput(device)
            try configure(session)
            try session.startRunning()
        } catch {
            fail(error.message)
        }
    }

    /// Waits for a termination signal, `finish()`, or `seconds`; `tick` runs about once a second.
    func wait(seconds: Double?, tick: (() -> Void)? = nil) {
        let deadline = seconds.map { monotonicNanoseconds() + UInt64($0 * 1e9) }
        while true {
            let now = monotonicNanoseconds()
            if let deadline, now >= deadline { return }
            let slice = min(deadline.map { $0 - now } ?? 1_000_000_000, 1_000_000_000)
            var timeout = timespec(tv_sec: Int(slice / 1_000_000_000), tv_nsec: Int(slice % 1_000_000_000))
            if sigtimedwait(&signals, nil, &timeout) > 0 { return }
            tick?()
        }
    }

    /// The runtime error that ended the session early, if one did.
    var runtimeFailure: String? { state.withLock { failure } }

    func fail(_ message: String) -> Never {
        try? session.stopRunning()
        hub.close()
        OcellusCLI.fail(message)
    }

    func close() {
        try? session.stopRunning()
        hub.close()
    }
}

/// Frames counted on the stream thread: arrival times and capture-to-callback latencies,
/// the latencies in a fixed histogram (0.1 ms buckets up to 2 s, then one overflow bucket)
/// so that a frame costs a few instructions and no memory, however long the stream runs.
final class StreamStatistics: @unchecked Sendable {
    private let lock = ConditionLock()
    private let limit: Int
    private static let bucketNanoseconds: UInt64 = 100_000, buckets = 20_000
    private var histogram = [UInt32](repeating: 0, count: StreamStatistics.buckets + 1)
    private var counted = 0
    private var first: UInt64 = 0, last: UInt64 = 0

    init(limit: Int) { self.limit = limit }

    /// The frame's number (1-based), or nil once `limit` frames were counted.
    func record(_ frame: CameraFrame) -> Int? {
        let arrival = monotonicNanoseconds()
        let latency = arrival > frame.timestampNanoseconds ? arrival - frame.timestampNanoseconds : 0
        return lock.withLock {
            guard limit == 0 || counted < limit else { return nil }
            histogram[Int(min(UInt64(Self.buckets), latency / Self.bucketNanoseconds))] &+= 1
            counted += 1
            if counted == 1 { first = arrival }
            last = arrival
            return counted
        }
    }

    var count: Int { lock.withLock { counted } }

    /// Frames per second between the first and the last frame.
    var framesPerSecond: Double {
        lock.withLock { counted > 1 && last > first ? Double(counted - 1) * 1e9 / Double(last - first) : 0 }
    }

    /// Latency quantile in milliseconds (0.5 median, 0.99 p99), to the bucket's middle (±0.05 ms).
    func latency(_ quantile: Double) -> Double {
        lock.withLock {
            guard counted > 0 else { return 0 }
            let rank = min(counted - 1, Int((Double(counted) * quantile).rounded(.down)))
            var seen = 0
            for (bucket, frames) in histogram.enumerated() {
                seen += Int(frames)
                if seen > rank { return (Double(bucket) + 0.5) * Double(Self.bucketNanoseconds) / 1e6 }
            }
            return Double(Self.buckets) * Double(Self.bucketNanoseconds) / 1e6
        }
    }
}

struct StreamOptions {
    var format: String?
    var size: (width: UInt32, height: UInt32)?
    var rate: (numerator: UInt32, denominator: UInt32)?
    var frames = 0
    var seconds: Double?
    var json = false
    /// One JSON line per frame, then the summary object.
    var frameEvents = false
    /// Raw frames (rows without padding) or the camera's JPEGs, to this file or `-` (stdout).
    var output: String?
}

/// Frames into a file or pipe, as ffmpeg and ffplay read them (`-f rawvideo` with the pixel
/// format and size, or `-f mjpeg`): each plane's rows without stride padding, or the
/// compressed frame as it came. Runs on the stream thread; nothing is allocated per frame.
final class FrameFileWriter: @unchecked Sendable {
    private let fd: Int32
    private(set) var closedByReader = false

    init(path: String) throws(OcellusError) {
        if path == "-" {
            fd = 1
            messageStream = stderr   // stdout carries the frames now
        } else {
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw OcellusError(.io, "cannot write \(path): \(String(cString: strerror(errno)))") }
        }
        signal(SIGPIPE, SIG_IGN)   // a reader that quits (ffplay closed) is an EPIPE, not a kill
    }

    /// Bytes of one row of plane `index` of a `format` frame `width` pixels wide; nil: compressed.
    static func rowBytes(_ format: FourCC, width: Int, plane index: Int) -> Int? {
        switch format {
        case .yuyv, .uyvy: width * 2
        case .nv12: width
        case .i420: index == 0 ? width : (width + 1) / 2
        case .bgra, .rgba, .bgrx: width * 4
        case .bgr24, .rgb24: width * 3
        case .grey: width
        default: nil
        }
    }

    /// False once the reader went away.
    func write(_ frame: CameraFrame) -> Bool {
        guard !closedByReader else { return false }
        for index in 0..<frame.planeCount {
            guard let plane = frame.plane(index), let base = plane.bytes.baseAddress else { continue }
            guard let row = Self.rowBytes(frame.pixelFormat, width: Int(frame.width), plane: index), plane.stride > row else {
                if !writeAll(base, plane.bytes.count) { return false }
                continue
            }
            for offset in stride(from: 0, to: plane.bytes.count - row + 1, by: plane.stride) where !writeAll(base + offset, row) {
                return false
            }
        }
        return true
    }

    private func writeAll(_ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        var written = 0
        while written < count {
            let result = Glibc.write(fd, bytes + written, count - written)
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                closedByReader = true
                return false
            }
            written += result
        }
        return true
    }
}

func stream(_ options: GlobalOptions, uniqueID: String?, _ settings: StreamOptions) -> Never {
    let capture = CLICapture(options, uniqueID: uniqueID)
    let output = VideoDataOutput(pixelFormat: settings.format.flatMap(PixelFormatNames.code),
                                 width: settings.size?.width, height: settings.size?.height)
    output.maximumFrameRate = settings.rate.map { FrameRate($0.numerator, $0.denominator) }
    let statistics = StreamStatistics(limit: settings.frames)
    let (limit, frameEvents) = (settings.frames, settings.frameEvents)
    let file: FrameFileWriter?
    do throws(OcellusError) { file = try settings.output.map { (path) throws(OcellusError) in try FrameFileWriter(path: path) } } catch {
        capture.fail(error.message)
    }
    output.frameHandler = { frame in
        // Exactly `frames` frames are reported, even if a few more arrive before the stream stops.
        guard let count = statistics.record(frame) else { return }
        if let file, !file.write(frame) { CLICapture.finish() }   // the reader went away: stop
        if frameEvents {
            let bytes = (0..<frame.planeCount).reduce(0) { $0 + (frame.plane($1)?.bytes.count ?? 0) }
            emit(JSON.object([("event", .string("frame")), ("sequence", .int(Int64(frame.sequence))),
                              ("timestamp_ns", .int(Int64(frame.timestampNanoseconds))),
                              ("bytes", .int(Int64(bytes))), ("corrupt", .bool(frame.isCorrupt))]).text)
        }
        if limit > 0 && count == limit { CLICapture.finish() }
    }
    capture.start { session throws(OcellusError) in try session.addOutput(output) }
    let active = capture.session.activeFormat
    let (pixelFormat, width, height) = ((output.pixelFormat ?? active?.pixelFormat)?.name ?? "",
                                        output.width ?? active?.width ?? 0, output.height ?? active?.height ?? 0)
    let live = !settings.json && !settings.frameEvents
    if live, let active {
        emit("streaming \(active.pixelFormat) \(active.width)x\(active.height) at \(JSON.number((active.maxFrameRate ?? FrameRate(0)).framesPerSecond).text) fps from \(capture.device.name)")
    }
    func dropped() -> UInt64 { VideoDataOutput.DropReason.allCases.reduce(UInt64(0)) { $0 + output.droppedFrames($1) } }
    capture.wait(seconds: settings.seconds, tick: live ? {
        emit("\(statistics.count) frames, \(JSON.number(statistics.framesPerSecond).text) fps, \(dropped()) dropped, latency median \(JSON.number(statistics.latency(0.5)).text) ms")
    } : nil)
    let problem = capture.runtimeFailure
    capture.close()
    if settings.json || settings.frameEvents {
        emit(JSON.object([("frames", .int(Int64(statistics.count))), ("dropped", .int(Int64(dropped()))),
                          ("fps", .number(statistics.framesPerSecond)), ("pixel_format", .string(pixelFormat)),
                          ("width", .int(Int64(width))), ("height", .int(Int64(height))),
                          ("latency_ms", .object([("median", .number(statistics.latency(0.5))),
                                                  ("p99", .number(statistics.latency(0.99)))]))]).text)
    } else {
        emit("\(statistics.count) frames, \(dropped()) dropped, \(JSON.number(statistics.framesPerSecond).text) fps, latency median \(JSON.number(statistics.latency(0.5)).text) ms, p99 \(JSON.number(statistics.latency(0.99)).text) ms")
    }
    if let problem { fail(problem) }
    exit(0)
}

/// Where the host's orientation comes from for a still or a movie: `--host-orientation`,
/// else iio-sensor-proxy (on `--sensor-bus`, else the system bus) at this moment.
struct HostOrientationSource {
    /// Clockwise degrees given on the command line.
    var degrees: Int?
    var sensorBus: String?

    /// H in clockwise degrees; the natural orientation when no sensor proxy answers (SPEC §3).
    func current() -> Int {
        if let degrees { return degrees }
        guard let sensor = try? SensorProxyOrientation(busAddress: sensorBus) else { return 0 }
        defer { sensor.stop() }
        return sensor.orientation
    }
}

/// The capture angle (SPEC §3) for `device` with the host at `host` degrees and the camera's
/// kept mounting correction: what a photo or movie records.
func captureAngle(_ device: Device, stateDirectory: String, host: Int) -> Int {
    guard let coordinator = try? RotationCoordinator(
        device: device, mountingCorrection: MountingCorrections(directory: stateDirectory).correction(for: device.uniqueID),
        previewMirrored: false), (try? coordinator.setHostOrientation(host)) != nil else { return 0 }
    return coordinator.angles.capture
}

func snap(_ options: GlobalOptions, uniqueID: String?, path: String, size: (width: UInt32, height: UInt32)?,
          rotatePixels: Bool, host: HostOrientationSource, json: Bool) -> Never {
    let capture = CLICapture(options, uniqueID: uniqueID)
    let hostDegrees = host.current()
    let photoOutput = PhotoOutput()
    photoOutput.videoOutput.width = size?.width
    photoOutput.videoOutput.height = size?.height
    photoOutput.videoRotationAngle = captureAngle(capture.device, stateDirectory: capture.hub.stateDirectory, host: hostDegrees)
    capture.start { session throws(OcellusError) in
        if size == nil { try session.setPreset(.photo) }
        try photoOutput.attach(to: session)
    }
    let done = ConditionLock()
    var result: Result<Photo, OcellusError>?
    var settings = PhotoSettings()
    settings.appliesRotationToPixels = rotatePixels
    do throws(OcellusError) {
        try photoOutput.capturePhoto(settings) { outcome in
            let written = outcome.flatMap { photo -> Result<Photo, OcellusError> in
                Result { () throws(OcellusError) -> Photo in try photo.write(toFile: path); return photo }
            }
            done.withLock { result = written; done.broadcast() }
            CLICapture.finish()
        }
    } catch {
        capture.fail(error.message)
    }
    capture.wait(seconds: 15)
    photoOutput.close()   // answers the request if the session ended first
    let outcome = done.withLock { result }
    capture.close()
    switch outcome {
    case .success(let photo)?:
        if json {
            emit(JSON.object([("path", .string(path)), ("bytes", .int(Int64(photo.jpeg.count))),
                              ("width", .int(Int64(photo.width))), ("height", .int(Int64(photo.height))),
                              ("duration", .number(0)), ("orientation", .int(Int64(photo.orientation)))]).text)
        } else {
            emit("\(path): \(photo.width)x\(photo.height) JPEG, \(photo.jpeg.count) bytes, EXIF orientation \(photo.orientation)")
        }
        exit(0)
    case .failure(let error)?: fail(error.message)
    case nil: fail("no photo within 15 s: \(capture.runtimeFailure ?? "the camera sent no usable frame")")
    }
}

func record(_ options: GlobalOptions, uniqueID: String?, path: String, seconds: Double?, size: (width: UInt32, height: UInt32)?,
            audio: String??, host: HostOrientationSource, json: Bool) -> Never {
    let capture = CLICapture(options, uniqueID: uniqueID)
    let hostDegrees = host.current()
    let movie = MovieFileOutput()
    movie.videoOutput.width = size?.width
    movie.videoOutput.height = size?.height
    try? movie.setVideoRotationAngle(captureAngle(capture.device, stateDirectory: capture.hub.stateDirectory, host: hostDegrees))
    var microphone: Device?
    if let audio {
        // "microphone" is the device that follows the default input (SPEC §5).
        let microphones = capture.hub.devices().filter { $0.type == .microphone } + [capture.hub.defaultMicrophone].compactMap { $0 }
        microphone = audio.map { id in microphones.first { $0.uniqueID == id } }
            ?? capture.hub.associatedMicrophone(of: capture.device) ?? capture.hub.defaultMicrophone
        if microphone == nil { capture.fail(audio.map { "no connected microphone has the unique ID \($0)" } ?? "no microphone to record from") }
    }
    capture.start { session throws(OcellusError) in
        if let microphone { try session.addAudioInput(microphone) }
        try movie.attach(to: session)
    }
    let done = ConditionLock()
    var result: RecordingResult?
    do throws(OcellusError) {
        try movie.startRecording(to: path) { finished in
            done.withLock { result = finished; done.broadcast() }
            CLICapture.finish()
        }
    } catch {
        capture.fail(error.message)
    }
    if !json { emit("recording \(path) from \(capture.device.name); stop with Ctrl-C") }
    capture.wait(seconds: seconds)
    movie.close()   // finishes the file and waits for it
    capture.close()
    guard let finished = done.withLock({ result }) else { fail("the recording did not finish") }
    let summary = finished.summary
    if json {
        emit(JSON.object([("path", .string(summary.path)), ("bytes", .int(summary.bytes)),
                          ("width", .int(Int64(summary.width))), ("height", .int(Int64(summary.height))),
                          ("duration", .number(summary.duration)), ("orientation", .int(Int64(summary.rotation))),
                          ("frames", .int(Int64(summary.frames))), ("dropped", .int(Int64(summary.droppedFrames)))]).text)
    } else {
        let sound = summary.audioDuration > 0 ? ", AAC \(JSON.number(summary.audioDuration).text) s" : ""
        emit("\(summary.path): \(summary.videoCodec) \(summary.width)x\(summary.height), \(JSON.number(summary.duration).text) s, \(summary.frames) frames (\(summary.droppedFrames) dropped)\(sound), \(summary.bytes) bytes, rotation \(summary.rotation)°")
    }
    if let error = finished.error { fail("\(error.message) (the file holds what was recorded until then)") }
    if let problem = capture.runtimeFailure { fail("\(problem) (the file holds what was recorded until then)") }
    exit(0)
}
