import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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
        var depthOutputs: [DepthDataOutput] = []
    }

    /// Where a session's depth outputs get their maps: the picture stream itself (a depth-only
    /// camera, whose picture is its depth), or a depth stream of their own beside it.
    enum DepthSource: Equatable {
        case pictureStream
        case ownStream(VideoFormat, FrameRate)
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
    /// Whether the picture stream feeds several outputs: each then delivers on a thread of its
    /// own, so that one slow handler holds up no other output (`FrameHandOff`).
    private var streamIsolates = false
    private var pending: Configuration?
    private var stream: (any CameraStream)?
    /// The depth stream beside the picture stream, and where depth comes from while running.
    private var depthStream: (any CameraStream)?
    private var depthSource: DepthSource?
    /// The depth stream thread's copy of the committed depth outputs (as `streamOutputs`).
    private var depthThreadOutputs: [DepthDataOutput] = []
    private var depthThreadOutputsCommit = UInt64.max
    private var depthStreamThread: pthread_t?
    private var streamDepthOutputs: [DepthDataOutput] = []
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
    public var depthOutputs: [DepthDataOutput] { lock.withLock { (pending ?? committed).depthOutputs } }
    /// The depth format the running session's depth outputs get (nil without depth outputs).
    public var activeDepthFormat: VideoFormat? {
        lock.withLock {
            switch depthSource {
            case .pictureStream: stream?.format
            case .ownStream: depthStream?.format
            case nil: nil
            }
        }
    }

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

    /// Whether the depth output could join: the input must be a depth camera with a depth
    /// format that serves it beside the picture the other outputs need.
    public func canAddDepthOutput(_ output: DepthDataOutput) -> Bool {
        var proposed = lock.withLock { pending ?? committed }
        proposed.depthOutputs.append(output)
        return (try? chooseStreams(for: proposed)) != nil
    }

    public func addDepthOutput(_ output: DepthDataOutput) throws(OcellusError) {
        try change { if !$0.depthOutputs.contains(where: { $0 === output }) { $0.depthOutputs.append(output) } }
    }

    public func removeDepthOutput(_ output: DepthDataOutput) throws(OcellusError) {
        try change { $0.depthOutputs.removeAll { $0 === output } }
    }

    /// The picture stream's format and rate, and where depth comes from.
    func chooseStreams(for configuration: Configuration) throws(OcellusError) -> (picture: (VideoFormat, FrameRate)?, depth: DepthSource?) {
        let picture = try chooseFormat(for: configuration)
        guard let input = configuration.input, !configuration.depthOutputs.isEmpty, let (format, rate) = picture else {
            return (picture, nil)
        }
        return (picture, try chooseDepth(for: configuration.depthOutputs, input: input, beside: format, rate: rate))
    }

    /// The depth format beside `picture`: one every depth output takes (depth is never scaled),
    /// the picture's aspect ratio before others, then the size nearest the picture's, then one
    /// that runs at the picture's rate (so that every frame can have its map), then the fastest.
    func chooseDepth(for outputs: [DepthDataOutput], input: Device, beside picture: VideoFormat,
                     rate: FrameRate) throws(OcellusError) -> DepthSource {
        guard !input.depthFormats.isEmpty else {
            throw OcellusError(.invalidArgument, "\(input.uniqueID) is not a depth camera (it offers no depth format)")
        }
        if input.depthSharesPictureStream {
            guard outputs.allSatisfy({ $0.isServed(by: picture) }) else {
                throw OcellusError(.invalidArgument, "\(input.uniqueID) runs \(picture.pixelFormat.name) \(picture.width)x\(picture.height) for the session's outputs, which no depth output takes")
            }
            return .pictureStream
        }
        let pinned = outputs.compactMap { output in output.width.flatMap { width in output.height.map { (width, $0) } } }
        let concrete = input.depthFormats(beside: picture).flatMap { format -> [VideoFormat] in
            guard let range = format.sizeRange else { return [format] }
            let sizes = pinned.filter { range.contains(width: $0.0, height: $0.1) } + range.commonSizes
            return sizes.isEmpty ? [format] : sizes.map { format.sized(width: $0.0, height: $0.1) }
        }
        let candidates = concrete.filter { format in format.maxFrameRate != nil && outputs.allSatisfy { $0.isServed(by: format) } }
        func sameAspect(_ format: VideoFormat) -> Bool {
            UInt64(format.width) * UInt64(picture.height) == UInt64(format.height) * UInt64(picture.width)
        }
        func distance(_ format: VideoFormat) -> UInt64 {
            let (a, b) = (UInt64(format.width) * UInt64(format.height), UInt64(picture.width) * UInt64(picture.height))
            return a > b ? a - b : b - a
        }
        func runs(_ format: VideoFormat, at wanted: FrameRate) -> Bool {
            format.frameRatesAreRange ? format.frameRates.last! <= wanted && wanted <= format.frameRates.first!
                : format.frameRates.contains(wanted)
        }
        let best = candidates.min { a, b in
            if sameAspect(a) != sameAspect(b) { return sameAspect(a) }
            if distance(a) != distance(b) { return distance(a) < distance(b) }
            if runs(a, at: rate) != runs(b, at: rate) { return runs(a, at: rate) }
            return a.maxFrameRate! > b.maxFrameRate!
        }
        guard let chosen = best else {
            let wants = outputs.map { output in
                "\(output.pixelFormat?.name ?? "any depth format") at \(output.width.map { "\($0)x\(output.height!)" } ?? "any size")"
            }
            throw OcellusError(.invalidArgument,
                "\(input.uniqueID) offers no depth format that serves every depth output (\(wants.joined(separator: "; "))); depth is not scaled")
        }
        return .ownStream(chosen, runs(chosen, at: rate) ? rate : chosen.maxFrameRate!)
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
        // A depth-only camera's picture stream carries its depth: the depth outputs must take it too.
        let depthOutputs = input.depthSharesPictureStream ? configuration.depthOutputs : []
        let served = concrete.filter { format in
            outputs.allSatisfy { serves(format, $0) } && depthOutputs.allSatisfy { $0.isServed(by: format) }
        }
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
            // A name nobody makes (NV21, a typo of four letters) says so, not that sizes disagree.
            let sent = Set(input.formats.map(\.pixelFormat))
            if let wanted = outputs.compactMap(\.pixelFormat).first(where: { wanted in
                !sent.contains(wanted) && !sent.contains { conversion?.canConvert(from: $0, to: wanted) == true }
            }) {
                throw OcellusError(.invalidArgument,
                    "\(input.uniqueID) cannot give \(wanted.name): it sends \(sent.map(\.name).sorted().joined(separator: ", ")), "
                    + "and \(wanted.name) is not a format Ocellus converts those to (it knows \(PixelFormatNames.everyday.joined(separator: ", ")))")
            }
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
    /// asked for, or its pixels must be turned or mirrored, and the stream's frame interval: the
    /// rate it streams at, not the format's fastest (an output capped at the stream's rate was
    /// taken to run slower than the stream, and thinned frames that came early).
    private func prepareConverters(_ outputs: [VideoDataOutput], for format: VideoFormat, rate: FrameRate, input: Device?) {
        for output in outputs {
            output.frameInterval = UInt64(1e9 * Double(rate.denominator) / Double(max(1, rate.numerator)))
            let target = output.pixelFormat ?? format.pixelFormat
            let (width, height) = (output.width ?? format.width, output.height ?? format.height)
            let rotation = output.videoRotationAngle
            let mirrored = output.isVideoMirrored ?? false
            // Cameras send YUV in video range: full range asked of the same format is a conversion.
            let same = target == format.pixelFormat && width == format.width && height == format.height && rotation == 0 && !mirrored
                && !(output.yuvFullRange && target.isYUV)
            let quarterTurn = rotation == 90 || rotation == 270
            output.converter = same ? nil : conversion?.makeConverter(
                to: target, width: quarterTurn ? height : width, height: quarterTurn ? width : height,
                rotation: rotation, mirrored: mirrored, yuvFullRange: output.yuvFullRange)
        }
    }

    private func apply(_ proposed: Configuration) throws(OcellusError) {
        defer { updatePulling() }
        let choice = try chooseStreams(for: proposed)
        let (wasRunning, previous, oldStream, oldDepth) = lock.withLock { (running, committed, stream, depthSource) }
        guard wasRunning else {
            lock.withLock { committed = proposed }
            return
        }
        // A running stream states the one rate it runs at; the choice names the camera's format with all its rates.
        let sameStream = choice.picture.map { chosen, rate in
            oldStream.map { $0.format.pixelFormat == chosen.pixelFormat && $0.format.width == chosen.width
                && $0.format.height == chosen.height && $0.format.maxFrameRate == rate } ?? false
        } ?? (oldStream == nil) && proposed.input === previous.input && choice.depth == oldDepth
        let sameAudio = proposed.audioInput === previous.audioInput && proposed.audioOutputs.isEmpty == previous.audioOutputs.isEmpty
        if !sameStream || !sameAudio { try refuseOnStreamThread("a change that restarts the session's streams") }
        if sameStream, let format = choice.picture?.0 {
            prepareConverters(proposed.outputs, for: format, rate: choice.picture!.1, input: proposed.input)
            prepareDepthOutputs(proposed.depthOutputs, rate: Self.rate(of: choice.depth, picture: choice.picture!.1))
            // From inside an audio handler with the audio unchanged there is nothing to do, and
            // the stream changes' lock may be held by a thread waiting for this very stream to
            // open (its first samples can come before that returns).
            let keepsAudio = sameAudio && isAudioHandlerThread
            lock.withLock { committed = proposed }
            if keepsAudio { return }
            do { try updateAudio(proposed) } catch {
                lock.withLock { committed = previous }
                try? updateAudio(previous)
                throw error
            }
            return
        }
        stopCameraStreams()   // a V4L2 camera serves one stream at a time
        lock.withLock { committed = proposed }
        do {
            try startStream(proposed, choice)
            try updateAudio(proposed)
        } catch {
            // Put the previous configuration back as it ran.
            lock.withLock { committed = previous }
            stopCameraStreams()
            if let previousChoice = try? chooseStreams(for: previous) { try? startStream(previous, previousChoice) }
            try? updateAudio(previous)
            throw error
        }
    }

    /// Tells outputs whether frames can come to their pull slots: the committed outputs of a
    /// running session can; outputs removed, or a session stopped, wake their readers (told
    /// `stoppedBy`, the error, when the session stopped on its own).
    private func updatePulling(stoppedBy error: OcellusError? = nil) {
        let (now, before): ([VideoDataOutput], [VideoDataOutput]) = lock.withLock {
            let current = running ? committed.outputs : []
            defer { pulling = current }
            return (current, pulling)
        }
        for output in before where !now.contains(where: { $0 === output }) { output.latest.setStreaming(false, stoppedBy: error) }
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
            try startStream(configuration, try chooseStreams(for: configuration))
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
            try startStream(configuration, try chooseStreams(for: configuration))
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
        let wasRunning = lock.withLock { running }
        // A stream that failed is stopped here too, on this thread: its last release
        // must not fall to its own thread, which cannot join itself.
        stopCameraStreams()
        watchdog.disarm()
        follow(nil)
        stopAudio()
        lock.withLock {   // the stream threads are gone
            (streamOutputs, streamDepthOutputs, streamOutputsCommit) = ([], [], .max)
            (depthThreadOutputs, depthThreadOutputsCommit) = ([], .max)
        }
        updatePulling()
        if wasRunning { events.post(.stopped) }
    }

    /// Calls that wait for the camera or microphone stream to end cannot run on that stream's
    /// own thread (a frame or PCM handler): they are refused there instead of deadlocking.
    private func refuseOnStreamThread(_ name: String) throws(OcellusError) {
        let (threads, outputs, depthOutputs) = lock.withLock { ([streamThread, depthStreamThread], committed.outputs, committed.depthOutputs) }
        let onStream = threads.contains { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
            || outputs.contains(where: \.isDeliveringThread) || depthOutputs.contains(where: \.isDeliveringThread)
        if onStream { throw OcellusError(.wrongState, "\(name) cannot be called from a frame handler") }
        if isAudioHandlerThread {
            throw OcellusError(.wrongState, "\(name) cannot be called from an audio handler")
        }
    }

    /// True inside one of the session's audio handlers.
    private var isAudioHandlerThread: Bool {
        lock.withLock { committed.audioOutputs }.contains(where: \.isDeliveringThread)
    }

    /// Stops the picture and depth streams (not from their own threads or an output's handler),
    /// forgets them, and returns after the outputs' last handler calls.
    private func stopCameraStreams() {
        let (picture, depth) = lock.withLock { () -> ((any CameraStream)?, (any CameraStream)?) in
            defer { (stream, depthStream, depthSource, running) = (nil, nil, nil, false) }
            return (stream, depthStream)
        }
        picture?.stop()
        depth?.stop()
        // Outputs delivering on threads of their own may still be in a handler call.
        let outputs = lock.withLock { (streamOutputs + committed.outputs, streamDepthOutputs + depthThreadOutputs + committed.depthOutputs) }
        for output in outputs.0 { output.waitForDelivery() }
        for output in outputs.1 { output.waitForDelivery() }
    }

    /// Sets each depth output's frame interval (for lateness and pairing) from the rate depth runs at.
    private func prepareDepthOutputs(_ outputs: [DepthDataOutput], rate: FrameRate?) {
        let rate = rate ?? FrameRate(30)
        for output in outputs {
            output.accounting.frameInterval = UInt64(1e9 * Double(rate.denominator) / Double(max(1, rate.numerator)))
        }
    }

    private static func rate(of source: DepthSource?, picture: FrameRate) -> FrameRate? {
        switch source {
        case .pictureStream: picture
        case .ownStream(_, let rate): rate
        case nil: nil
        }
    }

    /// A stream's end on its own: the session stops running (once, for the newest streams) and says
    /// why. The stream that failed is stopped by `stopRunning` on the caller's thread (a stream cannot
    /// join its own thread); the other camera stream, if any, stops now on a thread of its own, so that
    /// a stopped session delivers nothing.
    private func streamFailed(_ error: OcellusError, generation: UInt64, isDepth: Bool) {
        let stopped = lock.withLock { () -> (any CameraStream)?? in
            guard generation == streamGeneration, running else { return nil }
            (running, streamThread, depthStreamThread) = (false, nil, nil)
            stoppedByLostInput = error.code == .disconnected && switching != nil
            let other = isDepth ? stream : depthStream
            if isDepth { stream = nil } else { depthStream = nil }
            return .some(other)
        }
        guard let stopped else { return }
        let reported = isDepth ? OcellusError(error.code, "depth stream: \(error.message)") : error
        updatePulling(stoppedBy: reported)
        events.post(.runtimeError(reported))   // not STOPPED too: that means stopped as asked
        stopAudio()   // the audio thread waits at most for the lock, which is free here
        if let other = stopped { pthread_detach(startThread { other.stop() }) }
    }

    private func startStream(_ configuration: Configuration,
                             _ choice: (picture: (VideoFormat, FrameRate)?, depth: DepthSource?)) throws(OcellusError) {
        guard let input = configuration.input, let (format, rate) = choice.picture else {
            lock.withLock { (stream, depthStream, depthSource, running) = (nil, nil, nil, false) }
            return
        }
        prepareConverters(configuration.outputs, for: format, rate: rate, input: input)
        prepareDepthOutputs(configuration.depthOutputs, rate: Self.rate(of: choice.depth, picture: rate))
        let generation = lock.withLock { () -> UInt64 in
            (streamThread, depthStreamThread, streamOutputsCommit, depthThreadOutputsCommit) = (nil, nil, .max, .max)   // the first frame records both
            streamGeneration &+= 1
            return streamGeneration
        }
        // Unowned: the session outlives its stream (deinit and stop join the stream thread
        // before the session's memory goes), and a weak load per frame costs a side-table trip.
        let opened = try opener.openStream(for: input, format: format, frameRate: rate) { [unowned(unsafe) self] event in
            switch event {
            case .frame(let frame, let lender):
                let arrival = monotonicNanoseconds()
                self.watchdog.frameArrived(at: arrival)
                // The committed outputs of the moment: a commit may change them while the stream runs.
                if self.commits.load(ordering: .acquiring) != self.streamOutputsCommit {
                    self.lock.withLock {
                        self.streamThread = pthread_self()
                        (self.streamOutputs, self.streamOutputsCommit) = (self.committed.outputs, self.commits.load(ordering: .relaxed))
                        self.streamDepthOutputs = self.depthSource == .pictureStream ? self.committed.depthOutputs : []
                        self.streamIsolates = self.streamOutputs.count + self.streamDepthOutputs.count > 1
                    }
                }
                // In place: only this thread changes these arrays, so the loops take no references.
                let isolated = self.streamIsolates
                self.streamOutputs.withUnsafeBufferPointer { outputs in
                    for index in outputs.indices { outputs[index].deliver(frame, arrival: arrival, isolated: isolated, lender: lender) }
                }
                self.streamDepthOutputs.withUnsafeBufferPointer { outputs in
                    for index in outputs.indices { outputs[index].deliver(frame, arrival: arrival, isolated: isolated, lender: lender) }
                }
                self.watchdog.deliveryFinished()
            case .failed(let error):
                self.streamFailed(error, generation: generation, isDepth: false)
            }
        }
        var depth: (any CameraStream)?
        if case .ownStream(let depthFormat, let depthRate) = choice.depth {
            do throws(OcellusError) {
                depth = try opener.openStream(for: input, format: depthFormat, frameRate: depthRate) { [unowned(unsafe) self] event in
                    switch event {
                    case .frame(let frame, let lender):
                        if self.commits.load(ordering: .acquiring) != self.depthThreadOutputsCommit {
                            self.lock.withLock {
                                self.depthStreamThread = pthread_self()
                                (self.depthThreadOutputs, self.depthThreadOutputsCommit) = (self.committed.depthOutputs, self.commits.load(ordering: .relaxed))
                            }
                        }
                        let arrival = monotonicNanoseconds()
                        let isolated = self.depthThreadOutputs.count > 1
                        self.depthThreadOutputs.withUnsafeBufferPointer { outputs in
                            for index in outputs.indices { outputs[index].deliver(frame, arrival: arrival, isolated: isolated, lender: lender) }
                        }
                    case .failed(let error):
                        self.streamFailed(error, generation: generation, isDepth: true)
                    }
                }
            } catch {
                opened.stop()
                throw error
            }
        }
        lock.withLock { (stream, depthStream, depthSource, running) = (opened, depth, choice.depth, true) }
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
            let error = OcellusError(.timeout,
                "\(camera.uniqueID) sent no frame for \(silent / 1_000_000_000) s (the camera stalled); the session stopped")
            for output in lock.withLock({ pulling }) { output.latest.setStreaming(false, stoppedBy: error) }
            events.post(.runtimeError(error))
            pthread_detach(startThread { [weak self] in try? self?.stopRunning() })
        }
    }
}
