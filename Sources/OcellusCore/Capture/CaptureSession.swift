import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Frames of a capture session for one consumer (behaviour §4): the camera's format
/// (zero-copy) or a pinned pixel format and size (converted), at a capped rate.
///
/// Frames are never queued in Ocellus: each is handed over on the stream thread
/// while the camera's buffer is held, so the queue is bounded by the backend's few
/// buffers. A frame that arrives too old (more than three frame intervals, as when
/// a handler was slow) is dropped as late; gaps in the sequence are counted as
/// out of buffers when deliveries were further apart than a frame interval (this
/// output held the stream up), else as discontinuities at the source.
public final class VideoDataOutput: @unchecked Sendable {
    public enum DropReason: Int32, Sendable, CaseIterable {
        case late = 0, outOfBuffers = 1, discontinuity = 2, corrupt = 3
    }

    /// nil: whatever the camera runs with.
    public var pixelFormat: FourCC?
    public var width: UInt32?
    public var height: UInt32?
    /// Frames closer together than this rate allows are skipped for this output.
    public var maximumFrameRate: FrameRate?
    /// Clockwise degrees the output's pixels are turned (behaviour §3 connection angle). Costly
    /// (every frame is converted): rotating the display layer by the coordinator's preview
    /// angle is free. Takes effect at the next commit or start.
    public private(set) var videoRotationAngle = 0
    /// Whether the output's pixels are flipped about the vertical axis (after rotation).
    /// nil, the default, delivers the camera's pixels unflipped, keeping the zero-copy
    /// path: the behaviour §4 mirroring defaults (front and external cameras mirror) are for
    /// the preview, which flips for free (`RotationCoordinator.mirrorsByDefault`).
    public var isVideoMirrored: Bool?

    /// Pins the size (0x0: the camera's); both or neither.
    public func pinSize(_ width: UInt32, _ height: UInt32) throws(OcellusError) {
        guard (width == 0) == (height == 0) else { throw OcellusError(.invalidArgument, "give both width and height, or neither") }
        (self.width, self.height) = width == 0 ? (nil, nil) : (width, height)
    }

    /// Right angles can be applied to every pixel format but MJPEG passthrough (compressed).
    public func isVideoRotationAngleSupported(_ degrees: Int) -> Bool {
        degrees % 90 == 0 && (degrees % 360 == 0 || pixelFormat != .mjpeg)
    }

    public func setVideoRotationAngle(_ degrees: Int) throws(OcellusError) {
        guard isVideoRotationAngleSupported(degrees) else {
            throw OcellusError(.invalidArgument, degrees % 90 != 0
                ? "rotation must be a multiple of 90 degrees, not \(degrees)"
                : "an MJPEG output cannot be rotated (it is the camera's compressed data)")
        }
        videoRotationAngle = ((degrees % 360) + 360) % 360
    }
    /// Called on the session's stream thread with views valid during the call.
    /// Replacing it waits for a call in flight, except from inside the handler (`HandlerSlot`).
    public var frameHandler: ((CameraFrame) -> Void)? {
        get { handler.current }
        set { handler.replace(with: newValue) }
    }

    /// True on the thread running this output's handler.
    public var isDeliveringThread: Bool { handler.isCallingThread }

    private let handler = HandlerSlot<CameraFrame>()
    /// The newest frame, for callers that pull (`LatestFrame`); off until first used.
    public let latest = LatestFrame()
    /// The thread that last delivered a frame (pthread_t bits): a pull from there would wait for itself.
    private let deliveringThread = Atomic<UInt>(0)

    /// True on the thread that delivers this output's frames (its stream thread).
    public var isStreamThread: Bool { deliveringThread.load(ordering: .relaxed) == UInt(pthread_self()) }
    /// Counters other threads read; the stream thread is their only writer.
    private let delivered = Atomic<UInt64>(0)
    private let lateDrops = Atomic<UInt64>(0), bufferDrops = Atomic<UInt64>(0)
    private let discontinuityDrops = Atomic<UInt64>(0), corruptDrops = Atomic<UInt64>(0)
    // Touched only by the stream thread, in `deliver`.
    private var lastDelivery: UInt64 = 0
    private var lastSequence: UInt64?
    private var lastArrival: UInt64 = 0
    /// The stream's frame interval, set by the session (for lateness).
    var frameInterval: UInt64 = 33_333_333
    /// Set by the session when the stream's format or size is not the output's.
    var converter: (any FrameConverting)?

    public init(pixelFormat: FourCC? = nil, width: UInt32? = nil, height: UInt32? = nil) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
    }

    public var deliveredFrames: UInt64 { delivered.load(ordering: .relaxed) }

    /// Frames dropped for `reason` so far.
    public func droppedFrames(_ reason: DropReason) -> UInt64 {
        switch reason {
        case .late: lateDrops.load(ordering: .relaxed)
        case .outOfBuffers: bufferDrops.load(ordering: .relaxed)
        case .discontinuity: discontinuityDrops.load(ordering: .relaxed)
        case .corrupt: corruptDrops.load(ordering: .relaxed)
        }
    }

    private func count(_ reason: DropReason, _ amount: UInt64 = 1) {
        switch reason {
        case .late: lateDrops.wrappingAdd(amount, ordering: .relaxed)
        case .outOfBuffers: bufferDrops.wrappingAdd(amount, ordering: .relaxed)
        case .discontinuity: discontinuityDrops.wrappingAdd(amount, ordering: .relaxed)
        case .corrupt: corruptDrops.wrappingAdd(amount, ordering: .relaxed)
        }
    }

    /// Called on the stream thread only.
    func deliver(_ frame: CameraFrame) {
        let arrival = monotonicNanoseconds()
        // Frames missing after a gap between deliveries longer than a frame interval were
        // lost while this output held the stream up; otherwise the source skipped them.
        if let last = lastSequence, frame.sequence > last + 1 {
            let heldUp = arrival - lastArrival > frameInterval + frameInterval / 2
            count(heldUp ? .outOfBuffers : .discontinuity, frame.sequence - last - 1)
        }
        (lastSequence, lastArrival) = (frame.sequence, arrival)
        if arrival > frame.timestampNanoseconds && arrival - frame.timestampNanoseconds > 3 * frameInterval
            || converter?.isCatchingUp(before: frame) == true {
            count(.late)
            converter?.skip(frame, late: true)
            return
        }
        // Thinned only when the stream runs faster than the cap (a stream at the cap is never
        // thinned by jitter), on a schedule a quarter interval lenient.
        if let limit = maximumFrameRate, limit.numerator > 0 {
            let interval = UInt64(1e9 * Double(limit.denominator) / Double(limit.numerator))
            if frameInterval < interval - interval / 10 {
                guard lastDelivery == 0 || frame.timestampNanoseconds + interval / 4 >= lastDelivery + interval else {
                    converter?.skip(frame, late: false)
                    return
                }
                // The next slot, or a fresh start after a long pause.
                let resync = lastDelivery == 0 || frame.timestampNanoseconds >= lastDelivery + 2 * interval
                lastDelivery = resync ? frame.timestampNanoseconds : lastDelivery + interval
            }
        }
        let ready: CameraFrame
        if let converter {
            guard let converted = converter.convert(frame) else {
                count(.corrupt)
                return
            }
            ready = converted
        } else {
            ready = frame
        }
        deliveringThread.store(UInt(pthread_self()), ordering: .relaxed)
        if latest.isEnabled { latest.store(ready) }
        handler.call(ready)
        delivered.wrappingAdd(1, ordering: .relaxed)
    }
}

/// behaviour §4 capture session: an input camera, video data outputs, and one camera
/// stream feeding them. Changes made between `beginConfiguration` and
/// `commitConfiguration` apply together; a commit that fails leaves the previous
/// configuration (and a running stream) as it was and says why.
public final class CaptureSession: @unchecked Sendable {
    public enum Event: Sendable {
        case started
        case stopped
        /// The stream ended on its own (camera disconnected, daemon gone, driver error); the session stopped.
        case runtimeError(OcellusError)
        /// The camera is in use by another client; the session keeps trying.
        case interrupted(OcellusError)
        /// The camera became free and the session started (`started` follows).
        case interruptionEnded
        /// The `microphone` device's new input could not be opened; the session runs without
        /// sound until the route changes again.
        case audioInterrupted(OcellusError)
        /// Automatic switching made this camera the input (behaviour §4).
        case inputSwitched(Device)
        /// Automatic switching wants this camera but waits for the recording to end.
        case switchDeferred(Device)
        /// Automatic switching could not move to this camera; the session kept its input.
        case switchFailed(Device, OcellusError)
        /// A recording's encoder cannot keep up: it records fewer frames, as the error says.
        case recordingDegraded(OcellusError)
    }

    /// behaviour §4 presets: what the stream aims for when no output pins a size.
    public enum Preset: Int32, Sendable, CaseIterable {
        case high = 0, medium, low, photo, vga640x480, hd1280x720, hd1920x1080, uhd3840x2160, inputPriority

        /// The exact size the preset needs, if any.
        public var size: (width: UInt32, height: UInt32)? {
            switch self {
            case .vga640x480: (640, 480)
            case .hd1280x720: (1280, 720)
            case .hd1920x1080: (1920, 1080)
            case .uhd3840x2160: (3840, 2160)
            default: nil
            }
        }
    }

    /// Whether a camera has what `preset` needs (the fixed sizes need that size).
    public static func device(_ device: Device, supports preset: Preset) -> Bool {
        guard device.type.isCamera, !device.formats.isEmpty else { return false }
        guard let size = preset.size else { return true }
        return device.formats.contains { $0.width == size.width && $0.height == size.height }
    }

    struct Configuration {
        var input: Device?
        var outputs: [VideoDataOutput] = []
        var preset = Preset.high
        var audioInput: Device?
        var audioOutputs: [AudioDataOutput] = []
    }

    /// Session events, on a library thread of their own.
    public let events = EventThread<Event>()
    private let opener: any CameraStreamOpening
    private let conversion: (any FrameConversion)?
    private let audioOpener: (any AudioStreamOpening)?
    /// Serialises opening and closing the microphone stream (commits, route changes, stops).
    private let audioLock = ConditionLock()
    private var audioStream: (any AudioStream)?
    private var audioStreamInput: Device?
    /// The input the stream hears: the input itself, or where the `microphone` device routed.
    private var audioStreamSource: Device?
    /// Set while the audio input is the `microphone` device: its route changes move the stream.
    private var routeObserver: (route: MicrophoneRoute, id: UInt64)?
    private let lock = ConditionLock()
    private var committed = Configuration() {
        didSet { commits.add(1, ordering: .releasing) }
    }
    /// Counts commits, so the stream thread re-reads the outputs only after one
    /// instead of taking the lock for every frame.
    private let commits = Atomic<UInt64>(0)
    /// The stream thread's copy of the committed outputs, and the commit it is from.
    private var streamOutputs: [VideoDataOutput] = []
    private var streamOutputsCommit = UInt64.max
    private var pending: Configuration?
    private var stream: (any CameraStream)?
    private var running = false
    private var streamThread: pthread_t?
    /// While interrupted, a thread retries the start until the camera is free or the app stops.
    private let retry = RetryState()
    /// Notices a camera that stops sending frames without going away.
    private let watchdog = StallWatchdog()
    /// The outputs told they stream (their pulled frames can come), so that they can be told when not.
    private var pulling: [VideoDataOutput] = []
    // Automatic switching (behaviour §4): the hub followed, recordings in progress, and whether the
    // session stopped because its camera went (a switch then starts it again).
    private var switching: (hub: DeviceHub, observer: UInt64)?
    private var recordings = 0
    private var stoppedByLostInput = false
    /// Counts the streams opened: a failure reported by a stream the session already replaced
    /// (the input switched while the old camera's unplug was on its way) is not the session's.
    private var streamGeneration: UInt64 = 0
    /// Serialises switch decisions (hub events, recordings ending).
    private let switchLock = ConditionLock()

    /// Without `conversion`, outputs receive the camera's own formats only; without
    /// `audio`, a microphone input is refused.
    public init(opener: any CameraStreamOpening, conversion: (any FrameConversion)? = nil,
                audio: (any AudioStreamOpening)? = nil) {
        self.opener = opener
        self.conversion = conversion
        self.audioOpener = audio
    }

    /// Told which camera the session started streaming from (behaviour §2: the user
    /// preferred camera falls back to the camera most recently streamed).
    public var onStreamingStarted: ((Device) -> Void)?

    deinit {
        setAutomaticallySwitchesCamera(following: nil)
        try? stopRunning()
    }

    public var isRunning: Bool { lock.withLock { running } }
    public var input: Device? { lock.withLock { (pending ?? committed).input } }
    public var outputs: [VideoDataOutput] { lock.withLock { (pending ?? committed).outputs } }
    /// The camera format the running stream uses.
    public var activeFormat: VideoFormat? { lock.withLock { stream?.format } }

    // MARK: Configuration

    public func beginConfiguration() {
        lock.withLock { if pending == nil { pending = committed } }
    }

    public func commitConfiguration() throws(OcellusError) {
        guard let proposed = lock.withLock({ () -> Configuration? in defer { pending = nil }; return pending }) else {
            throw OcellusError(.wrongState, "commitConfiguration without beginConfiguration")
        }
        try apply(proposed)
    }

    public func canAddInput(_ device: Device) -> Bool {
        device.type.isCamera && device.isConnected && !device.formats.isEmpty
    }

    public func addInput(_ device: Device) throws(OcellusError) {
        guard canAddInput(device) else {
            throw OcellusError(.invalidArgument, "\(device.uniqueID) cannot be a session input (\(device.isConnected ? "no video formats" : "disconnected"))")
        }
        try change { $0.input = device }
    }

    public func removeInput() throws(OcellusError) { try change { $0.input = nil } }

    // MARK: Automatic switching (behaviour §4)

    /// Whether the session follows `hub`'s system preferred camera.
    public var automaticallySwitchesCamera: Bool { lock.withLock { switching != nil } }

    /// Opt-in: the session's input follows the system preferred camera of `hub` (nil: stop
    /// following). A switch never happens while a movie output records; it waits, and the
    /// session checks again when the recording ends. When the session's camera is unplugged
    /// while following, the session switches to the next preferred camera and starts again.
    public func setAutomaticallySwitchesCamera(following hub: DeviceHub?) {
        let old: (hub: DeviceHub, observer: UInt64)? = lock.withLock {
            guard switching?.hub !== hub else { return nil }
            defer { switching = nil }
            return switching
        }
        if let old { old.hub.events.removeObserver(old.observer) }
        guard let hub, !automaticallySwitchesCamera else { return }
        let observer = hub.events.addObserver { [weak self] event in
            if case .systemPreferredChanged = event { self?.reconsiderInput() }
        }
        lock.withLock { switching = (hub, observer) }
        reconsiderInput()
    }

    /// True while a movie output of this session records.
    public var isRecording: Bool { lock.withLock { recordings > 0 } }

    /// A movie output started recording this session's frames: no automatic switch until it ends.
    public func recordingStarted() { lock.withLock { recordings += 1 } }

    /// The recording ended; a switch that waited for it happens now (on a thread of its own,
    /// so that the caller is not held up by restarting the camera).
    public func recordingEnded() {
        let follows = lock.withLock { () -> Bool in
            recordings = max(0, recordings - 1)
            return recordings == 0 && switching != nil
        }
        if follows { pthread_detach(startThread { [weak self] in self?.reconsiderInput() }) }
    }

    /// Applies `AutomaticSwitching` to the system preferred camera of the moment.
    private func reconsiderInput() {
        switchLock.withLock {
            guard let hub = lock.withLock({ switching?.hub }) else { return }
            let (input, recording, resume) = lock.withLock { ((pending ?? committed).input, recordings > 0, stoppedByLostInput) }
            guard let target = hub.systemPreferredCamera else { return }
            // A disconnected input (the camera went) is no input: its replugged twin is a new device.
            let current = input.flatMap { $0.isConnected ? $0.uniqueID : nil }
            switch AutomaticSwitching.decide(currentInput: current, systemPreferred: target.uniqueID, isRecording: recording) {
            case .keep:
                return
            case .deferUntilRecordingEnds:
                events.post(.switchDeferred(target))
            case .switchTo:
                do throws(OcellusError) {
                    try addInput(target)
                } catch {
                    events.post(.switchFailed(target, error))
                    return
                }
                events.post(.inputSwitched(target))
                guard resume && !isRunning else { return }
                lock.withLock { stoppedByLostInput = false }
                // The new camera will not start (busy: startRunning keeps retrying and reports it).
                do throws(OcellusError) { try startRunning() } catch where error.code != .busy {
                    events.post(.runtimeError(error))
                } catch {}
            }
        }
    }

    // MARK: Audio (behaviour §4: a microphone input and audio data outputs)

    public var audioInput: Device? { lock.withLock { (pending ?? committed).audioInput } }
    public var audioOutputs: [AudioDataOutput] { lock.withLock { (pending ?? committed).audioOutputs } }

    public func canAddAudioInput(_ device: Device) -> Bool {
        audioOpener != nil && device.type == .microphone && device.isConnected && device.backend == .pipewire
    }

    /// The microphone the session's audio outputs hear (a PipeWire source).
    public func addAudioInput(_ device: Device) throws(OcellusError) {
        guard canAddAudioInput(device) else {
            throw OcellusError(.invalidArgument, audioOpener == nil ? "this session has no audio support"
                : device.type != .microphone ? "\(device.uniqueID) is not a microphone"
                : !device.isConnected ? "\(device.uniqueID) is disconnected" : "\(device.uniqueID) is not a PipeWire source")
        }
        try change { $0.audioInput = device }
    }

    public func removeAudioInput() throws(OcellusError) { try change { $0.audioInput = nil } }

    public func addAudioOutput(_ output: AudioDataOutput) throws(OcellusError) {
        try change { if !$0.audioOutputs.contains(where: { $0 === output }) { $0.audioOutputs.append(output) } }
    }

    public func removeAudioOutput(_ output: AudioDataOutput) throws(OcellusError) {
        try change { $0.audioOutputs.removeAll { $0 === output } }
    }

    /// Opens, keeps or closes the microphone stream to match `configuration` (session running).
    private func updateAudio(_ configuration: Configuration) throws(OcellusError) {
        let wanted = configuration.audioOutputs.isEmpty ? nil : configuration.audioInput   // no listener, no stream
        follow(wanted?.route)
        try audioLock.withLock { () throws(OcellusError) in
            let source = wanted.map { $0.route?.current ?? $0 }
            let (current, currentInput, currentSource) = lock.withLock { (audioStream, audioStreamInput, audioStreamSource) }
            if current != nil && wanted === currentInput && source === currentSource { return }
            stopAudioLocked()
            guard let microphone = wanted, let audioOpener else { return }
            guard let source else { throw OcellusError(.notFound, "no microphone is connected") }
            let followsRoute = microphone.route != nil
            let opened = try audioOpener.openAudioStream(for: source, format: AudioFormat()) { [unowned(unsafe) self] event in
                switch event {
                case .samples(let buffer):
                    for output in self.lock.withLock({ self.committed.audioOutputs }) { output.deliver(buffer) }
                case .failed(let error):
                    // The `microphone` device moves on with its route (the hub reroutes once the
                    // input is gone). A chosen input that went stops the session as its camera
                    // would, from another thread (this one is the stream's own, which stopping joins).
                    guard !followsRoute else { return }
                    self.events.post(.runtimeError(OcellusError(error.code, "microphone \(microphone.uniqueID): \(error.message)")))
                    pthread_detach(startThread { [weak session = self] in try? session?.stopRunning() })
                }
            }
            lock.withLock { (audioStream, audioStreamInput, audioStreamSource) = (opened, microphone, source) }
        }
    }

    /// Starts or stops following `route`'s changes (nil: the input is not the `microphone` device).
    private func follow(_ route: MicrophoneRoute?) {
        let stale: (route: MicrophoneRoute, id: UInt64)? = lock.withLock {
            guard routeObserver?.route !== route else { return nil }
            defer { routeObserver = nil }
            return routeObserver
        }
        if let stale { stale.route.changes.removeObserver(stale.id) }   // waits for a move in progress
        guard let route else { return }
        let id = route.changes.addObserver { [weak self] _ in self?.moveWithRoute() }
        let lost = lock.withLock { () -> Bool in
            guard routeObserver == nil else { return true }
            routeObserver = (route, id)
            return false
        }
        if lost { route.changes.removeObserver(id) }
    }

    /// On the route's thread: the running session's microphone stream moves to the new input
    /// (or closes while none is connected). Recordings keep going; the gap is filled with silence.
    private func moveWithRoute() {
        let (isRunning, configuration) = lock.withLock { (running, committed) }
        guard isRunning else { return }
        do throws(OcellusError) {
            try updateAudio(configuration)
        } catch {
            // No stream now; the next route change tries again.
            events.post(.audioInterrupted(error))
        }
    }

    private func stopAudio() { audioLock.withLock { stopAudioLocked() } }

    private func stopAudioLocked() {
        let current = lock.withLock { () -> (any AudioStream)? in
            defer { (audioStream, audioStreamInput, audioStreamSource) = (nil, nil, nil) }
            return audioStream
        }
        current?.stop()
    }

    public var preset: Preset { lock.withLock { (pending ?? committed).preset } }

    public func setPreset(_ preset: Preset) throws(OcellusError) {
        if let input = self.input, !Self.device(input, supports: preset) {
            throw OcellusError(.invalidArgument, "\(input.uniqueID) does not support the \(preset) preset")
        }
        try change { $0.preset = preset }
    }

    /// Whether the output could join: its pinned format must be one the input offers.
    public func canAddOutput(_ output: VideoDataOutput) -> Bool {
        var proposed = lock.withLock { pending ?? committed }
        proposed.outputs.append(output)
        return (try? chooseFormat(for: proposed)) != nil
    }

    public func addOutput(_ output: VideoDataOutput) throws(OcellusError) {
        try change { $0.outputs.append(output) }
    }

    public func removeOutput(_ output: VideoDataOutput) throws(OcellusError) {
        try change { $0.outputs.removeAll { $0 === output } }
    }

    /// Inside begin/commit the change waits for the commit; outside it applies at once.
    private func change(_ body: (inout Configuration) -> Void) throws(OcellusError) {
        let immediate: Configuration? = lock.withLock {
            if pending != nil {
                body(&pending!)
                return nil
            }
            var proposed = committed
            body(&proposed)
            return proposed
        }
        if let immediate { try apply(immediate) }
    }

    /// The camera format that serves every output at least cost: fewest outputs
    /// needing conversion, raw before MJPEG (no decoding), then the smallest size
    /// covering every pinned size — or, with none pinned, the largest at ≥ 30 fps —
    /// and the rate every output asks for.
    func chooseFormat(for configuration: Configuration) throws(OcellusError) -> (VideoFormat, FrameRate)? {
        guard let input = configuration.input else { return nil }
        let outputs = configuration.outputs
        // An output without a cap wants every frame the camera has.
        let wantedRate = outputs.contains { $0.maximumFrameRate == nil } ? nil : outputs.compactMap(\.maximumFrameRate).max()
        func size(_ output: VideoDataOutput) -> (UInt32, UInt32)? {
            output.width.flatMap { width in output.height.map { (width, $0) } }
        }
        func serves(_ format: VideoFormat, _ output: VideoDataOutput) -> Bool {
            if let wanted = output.pixelFormat, wanted != format.pixelFormat,
               conversion?.canConvert(from: format.pixelFormat, to: wanted) != true { return false }
            guard let (width, height) = size(output), width != format.width || height != format.height else { return true }
            // Scaling keeps the aspect ratio: "aspect must match the active format"; compressed
            // MJPEG cannot be scaled (an output taking the camera's format then needs that size).
            return conversion != nil && (output.pixelFormat ?? format.pixelFormat) != .mjpeg
                && width <= format.width && height <= format.height
                && UInt64(width) * UInt64(format.height) == UInt64(height) * UInt64(format.width)
        }
        func conversions(_ format: VideoFormat) -> Int {
            outputs.filter { output in
                (output.pixelFormat.map { $0 != format.pixelFormat } ?? false)
                    || (size(output).map { $0 != (format.width, format.height) } ?? false)
            }.count
        }
        /// A rate the camera offers: the wanted one within a range, else the lowest listed rate at
        /// or above it (outputs thin the rest), else the top rate.
        func streamRate(_ format: VideoFormat) -> FrameRate {
            let top = format.maxFrameRate ?? FrameRate(30)
            guard let wanted = wantedRate, wanted < top else { return top }
            if format.frameRatesAreRange { return max(wanted, format.frameRates.last ?? wanted) }
            return format.frameRates.filter { $0 >= wanted }.min() ?? top
        }
        // A format whose sizes are a range stands for the sizes outputs pin within it and the
        // common sizes it holds; then every candidate has one size, as discrete formats do.
        let pinned = outputs.compactMap(size)
        let concrete = input.formats.flatMap { format -> [VideoFormat] in
            guard let range = format.sizeRange else { return [format] }
            let sizes = pinned.filter { range.contains(width: $0.0, height: $0.1) } + range.commonSizes
            return sizes.isEmpty ? [format] : sizes.map { format.sized(width: $0.0, height: $0.1) }
        }
        // A rate cap is a maximum: a camera slower than the cap still serves the output.
        let served = concrete.filter { format in outputs.allSatisfy { serves(format, $0) } }
        // Formats that would not fit the USB bus are out (MJPEG then wins where raw would not fit).
        let candidates = served.filter { (HardwareCost.usbLoad(of: input, format: $0, rate: streamRate($0)) ?? 0) <= 1.0 }
        if candidates.isEmpty, let cheapest = served.min(by: {
            HardwareCost.bytesPerSecond($0, rate: streamRate($0)) < HardwareCost.bytesPerSecond($1, rate: streamRate($1))
        }), let load = HardwareCost.usbLoad(of: input, format: cheapest, rate: streamRate(cheapest)) {
            let needed = HardwareCost.bytesPerSecond(cheapest, rate: streamRate(cheapest)) / 1e6
            throw OcellusError(.noResources,
                "not enough USB bandwidth: \(cheapest.pixelFormat) \(cheapest.width)x\(cheapest.height) at \(streamRate(cheapest).framesPerSecond) fps needs about \(Int(needed.rounded())) MB/s, \(Int((load * 100).rounded()))% of what \(input.uniqueID)'s USB port can carry; lower the size or rate")
        }
        let pinsSize = outputs.contains { size($0) != nil }
        func area(_ format: VideoFormat) -> UInt64 { UInt64(format.width) * UInt64(format.height) }
        func fast(_ format: VideoFormat) -> Bool { (format.maxFrameRate ?? FrameRate(0)) >= FrameRate(30) }
        // Without a pinned size the preset decides: a fixed size, the largest (photo),
        // the largest at ≥ 30 fps (high, input priority), about VGA (medium), the smallest (low).
        let preset = configuration.preset
        let presetSized = pinsSize ? candidates : candidates.filter { format in
            preset.size.map { $0 == (format.width, format.height) } ?? true
        }
        func presetRank(_ format: VideoFormat) -> Int64 {
            switch preset {
            case .photo: -Int64(area(format))
            case .medium: abs(Int64(area(format)) - 640 * 480)
            case .low: Int64(area(format))
            default: (fast(format) ? 0 : 1 << 40) - Int64(area(format))
            }
        }
        let best = presetSized.min { a, b in
            if conversions(a) != conversions(b) { return conversions(a) < conversions(b) }
            if (a.pixelFormat == .mjpeg) != (b.pixelFormat == .mjpeg) { return b.pixelFormat == .mjpeg }
            if pinsSize && area(a) != area(b) { return area(a) < area(b) }
            if !pinsSize && presetRank(a) != presetRank(b) { return presetRank(a) < presetRank(b) }
            return (a.maxFrameRate ?? FrameRate(0)) > (b.maxFrameRate ?? FrameRate(0))
        }
        guard let chosen = best, chosen.maxFrameRate != nil else {
            let wants = outputs.map { output in
                "\(output.pixelFormat?.name ?? "any format") at \(size(output).map { "\($0.0)x\($0.1)" } ?? "any size")"
            }
            throw OcellusError(.invalidArgument,
                "\(input.uniqueID) offers no format that serves every output (\(wants.joined(separator: "; "))"
                + (wantedRate.map { " at \($0.framesPerSecond) fps" } ?? "") + ")"
                + (conversion == nil ? "; this session converts nothing" : "; a size must keep a format's aspect ratio"))
        }
        return (chosen, streamRate(chosen))
    }

    /// Gives each output a converter when the stream's format or size is not what it
    /// asked for, or its pixels must be turned or mirrored.
    private func prepareConverters(_ outputs: [VideoDataOutput], for format: VideoFormat, input: Device?) {
        let rate = format.maxFrameRate ?? FrameRate(30)
        for output in outputs {
            output.frameInterval = UInt64(1e9 * Double(rate.denominator) / Double(max(1, rate.numerator)))
            let target = output.pixelFormat ?? format.pixelFormat
            let (width, height) = (output.width ?? format.width, output.height ?? format.height)
            let rotation = output.videoRotationAngle
            let mirrored = output.isVideoMirrored ?? false
            let same = target == format.pixelFormat && width == format.width && height == format.height && rotation == 0 && !mirrored
            let quarterTurn = rotation == 90 || rotation == 270
            output.converter = same ? nil : conversion?.makeConverter(
                to: target, width: quarterTurn ? height : width, height: quarterTurn ? width : height,
                rotation: rotation, mirrored: mirrored)
        }
    }

    private func apply(_ proposed: Configuration) throws(OcellusError) {
        defer { updatePulling() }
        let choice = try chooseFormat(for: proposed)
        let (wasRunning, previous, oldStream) = lock.withLock { (running, committed, stream) }
        guard wasRunning else {
            lock.withLock { committed = proposed }
            return
        }
        let sameStream = choice.map { $0.0 } == oldStream?.format && proposed.input === previous.input
        let sameAudio = proposed.audioInput === previous.audioInput && proposed.audioOutputs.isEmpty == previous.audioOutputs.isEmpty
        if !sameStream || !sameAudio { try refuseOnStreamThread("a change that restarts the session's streams") }
        if sameStream, let format = choice?.0 {
            prepareConverters(proposed.outputs, for: format, input: proposed.input)
            lock.withLock { committed = proposed }
            do { try updateAudio(proposed) } catch {
                lock.withLock { committed = previous }
                try? updateAudio(previous)
                throw error
            }
            return
        }
        oldStream?.stop()   // a V4L2 camera serves one stream at a time
        lock.withLock { committed = proposed }
        do {
            try startStream(proposed, choice)
            try updateAudio(proposed)
        } catch {
            // Put the previous configuration back as it ran.
            lock.withLock { committed = previous }
            lock.withLock { stream }?.stop()
            try? startStream(previous, try? chooseFormat(for: previous))
            try? updateAudio(previous)
            throw error
        }
    }

    /// Tells outputs whether frames can come to their pull slots: the committed outputs of a
    /// running session can; outputs removed, or a session stopped, wake their readers.
    private func updatePulling() {
        let (now, before): ([VideoDataOutput], [VideoDataOutput]) = lock.withLock {
            let current = running ? committed.outputs : []
            defer { pulling = current }
            return (current, pulling)
        }
        for output in before where !now.contains(where: { $0 === output }) { output.latest.setStreaming(false) }
        for output in now { output.latest.setStreaming(true) }
    }

    // MARK: Running

    /// Starts the camera stream. Blocking; callable from any thread but a frame handler.
    public func startRunning() throws(OcellusError) {
        try refuseOnStreamThread("startRunning")
        lock.withLock { stoppedByLostInput = false }
        let configuration = lock.withLock { committed }
        guard !isRunning else { return }
        guard configuration.input != nil else { throw OcellusError(.wrongState, "the session has no input camera") }
        do throws(OcellusError) {
            try startStream(configuration, try chooseFormat(for: configuration))
        } catch {
            if error.code == .busy {
                events.post(.interrupted(error))
                retryWhileInterrupted()
            }
            throw error
        }
        do throws(OcellusError) { try updateAudio(configuration) } catch {
            try? stopRunning()   // a session without its microphone does not run
            throw error
        }
        events.post(.started)
    }

    /// Retries every 250 ms until the camera is free (→ interruptionEnded, started),
    /// another error (→ runtimeError), `stopRunning`, or the session's end. The
    /// thread holds the session only weakly, between attempts.
    private func retryWhileInterrupted() {
        guard retry.begin() else { return }
        let thread = startThread { [weak self, retry] in
            defer { retry.finish() }
            while retry.waitForNextAttempt() {
                guard let session = self else { return }
                guard session.attemptStart() else { return }
            }
        }
        pthread_detach(thread)
    }

    /// One retry; returns whether to try again.
    private func attemptStart() -> Bool {
        let configuration = lock.withLock { committed }
        do throws(OcellusError) {
            try startStream(configuration, try chooseFormat(for: configuration))
            try updateAudio(configuration)
        } catch {
            if error.code == .busy { return true }
            events.post(.runtimeError(error))
            return false
        }
        events.post(.interruptionEnded)
        events.post(.started)
        return false
    }

    /// The retry thread's state, shared so that it can outlive the session.
    final class RetryState: @unchecked Sendable {
        private let lock = ConditionLock()
        private var running = false
        private var cancelled = false

        func begin() -> Bool {
            lock.withLock {
                guard !running else { return false }
                (running, cancelled) = (true, false)
                return true
            }
        }

        /// Waits 250 ms; false once cancelled.
        func waitForNextAttempt() -> Bool {
            lock.withLock {
                if !cancelled { lock.wait(untilMonotonicNanoseconds: monotonicNanoseconds() + 250_000_000) }
                return !cancelled
            }
        }

        func finish() { lock.withLock { running = false; lock.broadcast() } }

        /// Stops the retries and waits for an attempt in progress.
        func cancel() {
            lock.withLock {
                cancelled = true
                lock.broadcast()
                while running { lock.wait() }
            }
        }
    }

    /// Stops the stream; returns after the last frame handler call. Not from a frame handler.
    public func stopRunning() throws(OcellusError) {
        try refuseOnStreamThread("stopRunning")
        retry.cancel()
        let (current, wasRunning): ((any CameraStream)?, Bool) = lock.withLock {
            defer { (stream, running) = (nil, false) }
            return (stream, running)
        }
        // A stream that failed is stopped here too, on this thread: its last release
        // must not fall to its own thread, which cannot join itself.
        current?.stop()
        watchdog.disarm()
        follow(nil)
        stopAudio()
        lock.withLock { (streamOutputs, streamOutputsCommit) = ([], .max) }   // the stream thread is gone
        updatePulling()
        if wasRunning { events.post(.stopped) }
    }

    /// Calls that wait for the camera or microphone stream to end cannot run on that stream's
    /// own thread (a frame or PCM handler): they are refused there instead of deadlocking.
    private func refuseOnStreamThread(_ name: String) throws(OcellusError) {
        let (thread, audioOutputs) = lock.withLock { (streamThread, committed.audioOutputs) }
        let onStream = thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        if onStream { throw OcellusError(.wrongState, "\(name) cannot be called from a frame handler") }
        if audioOutputs.contains(where: \.isDeliveringThread) {
            throw OcellusError(.wrongState, "\(name) cannot be called from an audio handler")
        }
    }

    private func startStream(_ configuration: Configuration, _ choice: (VideoFormat, FrameRate)?) throws(OcellusError) {
        guard let input = configuration.input, let (format, rate) = choice else {
            lock.withLock { (stream, running) = (nil, false) }
            return
        }
        prepareConverters(configuration.outputs, for: format, input: input)
        let generation = lock.withLock { () -> UInt64 in
            (streamThread, streamOutputsCommit) = (nil, .max)   // the first frame records both
            streamGeneration &+= 1
            return streamGeneration
        }
        // Unowned: the session outlives its stream (deinit and stop join the stream thread
        // before the session's memory goes), and a weak load per frame costs a side-table trip.
        let opened = try opener.openStream(for: input, format: format, frameRate: rate) { [unowned(unsafe) self] event in
            switch event {
            case .frame(let frame):
                self.watchdog.frameArrived()
                // The committed outputs of the moment: a commit may change them while the stream runs.
                if self.commits.load(ordering: .acquiring) != self.streamOutputsCommit {
                    self.lock.withLock {
                        self.streamThread = pthread_self()
                        (self.streamOutputs, self.streamOutputsCommit) = (self.committed.outputs, self.commits.load(ordering: .relaxed))
                    }
                }
                for output in self.streamOutputs { output.deliver(frame) }
            case .failed(let error):
                let current = self.lock.withLock { () -> Bool in
                    guard generation == self.streamGeneration else { return false }
                    (self.running, self.streamThread) = (false, nil)
                    self.stoppedByLostInput = error.code == .disconnected && self.switching != nil
                    return true
                }
                guard current else { return }
                self.updatePulling()
                self.events.post(.runtimeError(error))
                self.events.post(.stopped)
                self.stopAudio()   // the audio thread waits at most for the lock, which is free here
            }
        }
        lock.withLock { (stream, running) = (opened, true) }
        updatePulling()
        watchdog.arm(frameInterval: UInt64(1e9 * Double(rate.denominator) / Double(max(1, rate.numerator)))) { [weak self] change in
            self?.stallChanged(change, camera: input)
        }
        onStreamingStarted?(input)
    }

    /// A stall is an interruption (ended when frames come back); one that lasts is a runtime
    /// error, and the session stops (from a thread of its own: stopping joins the watchdog's).
    private func stallChanged(_ change: StallWatchdog.Change, camera: Device) {
        guard isRunning else { return }
        switch change {
        case .stalled(let silent):
            events.post(.interrupted(OcellusError(.timeout,
                "\(camera.uniqueID) sent no frame for \(silent / 1_000_000) ms (the camera stalled); waiting for it to recover")))
        case .resumed:
            events.post(.interruptionEnded)
        case .gaveUp(let silent):
            events.post(.runtimeError(OcellusError(.timeout,
                "\(camera.uniqueID) sent no frame for \(silent / 1_000_000_000) s (the camera stalled); the session stopped")))
            pthread_detach(startThread { [weak self] in try? self?.stopRunning() })
        }
    }
}
