import OcellusCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// behaviour §4 capture session: an input camera, video data outputs, and one camera
/// stream feeding them. Changes made between `beginConfiguration` and
/// `commitConfiguration` apply together; a commit that fails leaves the previous
/// configuration (and a running stream) as it was and says why.
public final class CaptureSession: @unchecked Sendable {
    /// Session events, on a library thread of their own.
    public let events = EventThread<Event>()
    private let opener: any CameraStreamOpening
    private let formats: FormatChoice
    /// The microphone stream while the session runs.
    private let audio: SessionAudio
    private let lock = ConditionLock()
    private var committed = SessionConfiguration() {
        didSet {
            commits.count.add(1, ordering: .releasing)
            audio.setOutputs(committed.audioOutputs)
        }
    }
    /// Counts commits, so that stream threads re-read their outputs only after one instead of
    /// taking the lock for every frame.
    private let commits = SessionStream.Commits()
    private var pending: SessionConfiguration?
    /// The picture stream and, beside it, the depth stream; where depth comes from while running.
    private var picture: SessionStream?
    private var depth: SessionStream?
    private var depthSource: DepthSource?
    private var running = false
    /// While interrupted, a thread retries the start until the camera is free or the app stops.
    private let retry = InterruptionRetry()
    /// Notices a camera that stops sending frames without going away.
    private let watchdog = StallWatchdog()
    /// The outputs told they stream (their pulled frames can come), so that they can be told when not.
    private var pulling: [VideoDataOutput] = []
    /// Automatic switching (behaviour §4), and the recordings that hold it off.
    private let switching = InputSwitching()
    /// Work above the core on the streamed camera (face-driven exposure and focus, Center Stage).
    private let companions: SessionCompanions

    /// Without `conversion`, outputs receive the camera's own formats only; without
    /// `audio`, a microphone input is refused; without `voiceEngines`, microphone modes that
    /// process fall back to standard, saying so; without `bus`, a camera's USB cost is counted
    /// as if nothing else used its bus.
    public convenience init(
        opener: any CameraStreamOpening, conversion: (any FrameConversion)? = nil,
        audio: (any AudioStreamOpening)? = nil, voiceEngines: (any VoiceEngineLoading)? = nil,
        bus: (any USBBusReading)? = nil
    ) {
        self.init(opener: opener, conversion: conversion, audio: audio, voiceEngines: voiceEngines, bus: bus, branch: nil)
    }

    /// One camera of a multi-camera session (`MultiCamSession`'s `makeBranch`): its input is
    /// `branch.camera` for good, its buses are counted as that session plans them, and that
    /// session starts and stops it.
    public convenience init(
        branch: MultiCamBranch, opener: any CameraStreamOpening, conversion: (any FrameConversion)? = nil,
        audio: (any AudioStreamOpening)? = nil, voiceEngines: (any VoiceEngineLoading)? = nil
    ) {
        self.init(opener: opener, conversion: conversion, audio: audio, voiceEngines: voiceEngines, bus: branch.bus, branch: branch)
    }

    private init(
        opener: any CameraStreamOpening, conversion: (any FrameConversion)?, audio: (any AudioStreamOpening)?,
        voiceEngines: (any VoiceEngineLoading)?, bus: (any USBBusReading)?, branch: MultiCamBranch?
    ) {
        self.opener = opener
        self.branch = branch
        committed.input = branch?.camera
        companions = SessionCompanions { [commits] in commits.count.add(1, ordering: .releasing) }
        formats = FormatChoice(conversion: conversion, bus: bus)
        self.audio = SessionAudio(opener: audio, engines: voiceEngines, events: events)
        switching.session = self
        self.audio.onInputLost = { [weak self] in pthread_detach(startThread { try? self?.stop() }) }
    }

    /// Told which camera the session started streaming from (behaviour §2: the user
    /// preferred camera falls back to the camera most recently streamed).
    public var onStreamingStarted: ((Device) -> Void)?

    deinit {
        setAutomaticallySwitchesCamera(following: nil)
        try? stop()
    }

    /// What the session is a branch of, when it is one camera of a `MultiCamSession` (fixed when made).
    private let branch: MultiCamBranch?
    public var isMultiCamBranch: Bool { branch != nil }

    /// `what` the app asked, in words any binding's user reads ("starting it"), never a method name.
    private func refuseOnBranch(_ what: String, because owned: String = "starts and stops it") throws(OcellusError) {
        if isMultiCamBranch {
            throw OcellusError(.wrongState, "\(what) is refused: this session is one camera of a multi-camera session, which \(owned)")
        }
    }

    public var isRunning: Bool { lock.withLock { running } }

    /// Adds work on the camera this session streams, from its next start (`SessionCompanion`).
    public func addCompanion(_ companion: any SessionCompanion) {
        companions.add(companion)
    }
    public var input: Device? { lock.withLock { (pending ?? committed).input } }
    public var outputs: [VideoDataOutput] { lock.withLock { (pending ?? committed).outputs } }
    /// The camera format the running stream uses.
    public var activeFormat: VideoFormat? { lock.withLock { picture?.format } }
    public var depthOutputs: [DepthDataOutput] { lock.withLock { (pending ?? committed).depthOutputs } }
    /// The depth format the running session's depth outputs get (nil without depth outputs).
    public var activeDepthFormat: VideoFormat? {
        lock.withLock {
            switch depthSource {
            case .pictureStream: picture?.format
            case .ownStream: depth?.format
            case nil: nil
            }
        }
    }

    // MARK: SessionConfiguration

    public func beginConfiguration() {
        lock.withLock { if pending == nil { pending = committed } }
    }

    public func commitConfiguration() throws(OcellusError) {
        guard
            let proposed = lock.withLock({ () -> SessionConfiguration? in
                defer { pending = nil }; return pending
            })
        else {
            throw OcellusError(.wrongState, "commitConfiguration without beginConfiguration")
        }
        try apply(proposed)
        branch?.configurationChanged()
    }

    public func canAddInput(_ device: Device) -> Bool {
        device.type.isCamera && device.isConnected && !device.formats.isEmpty
    }

    public func addInput(_ device: Device) throws(OcellusError) {
        try refuseOnBranch("setting its input", because: "sets its camera")
        guard canAddInput(device) else {
            throw OcellusError(.invalidArgument, "\(device.uniqueID) cannot be a session input (\(device.isConnected ? "no video formats" : "disconnected"))")
        }
        try change { $0.input = device }
    }

    public func removeInput() throws(OcellusError) {
        try refuseOnBranch("removing its input", because: "sets its camera")
        try change { $0.input = nil }
    }

    // MARK: Automatic switching (behaviour §4)

    /// Whether the session follows `hub`'s system preferred camera.
    public var automaticallySwitchesCamera: Bool { switching.isFollowing }

    /// Opt-in: the session's input follows the system preferred camera of `hub` (nil: stop
    /// following). A switch never happens while a movie output records; it waits, and the
    /// session checks again when the recording ends. When the session's camera is unplugged
    /// while following, the session switches to the next preferred camera and starts again.
    public func setAutomaticallySwitchesCamera(following hub: DeviceHub?) {
        if !isMultiCamBranch { switching.follow(hub) } // a single-camera feature
    }

    /// True while a movie output of this session records.
    public var isRecording: Bool { switching.isRecording }

    /// A movie output started recording this session's frames: no automatic switch until it ends.
    public func recordingStarted() { switching.recordingStarted() }

    /// The recording ended; a switch that waited for it happens now.
    public func recordingEnded() { switching.recordingEnded() }

    // MARK: Audio (behaviour §4: a microphone input and audio data outputs)

    public var audioInput: Device? { lock.withLock { (pending ?? committed).audioInput } }
    public var audioOutputs: [AudioDataOutput] { lock.withLock { (pending ?? committed).audioOutputs } }

    public func canAddAudioInput(_ device: Device) -> Bool {
        audio.canOpen && device.type == .microphone && device.isConnected && device.capabilities.streamsSound
    }

    /// The microphone the session's audio outputs hear (a PipeWire source).
    public func addAudioInput(_ device: Device) throws(OcellusError) {
        guard canAddAudioInput(device) else {
            throw OcellusError(
                .invalidArgument,
                !audio.canOpen
                    ? "this session has no audio support"
                    : device.type != .microphone
                        ? "\(device.uniqueID) is not a microphone"
                        : !device.isConnected ? "\(device.uniqueID) is disconnected" : "\(device.uniqueID) is not a microphone its backend can open")
        }
        try change { $0.audioInput = device }
    }

    public func removeAudioInput() throws(OcellusError) { try change { $0.audioInput = nil } }

    /// behaviour §4 microphone modes: the sound the audio outputs and recordings get. Applies at
    /// once, running or not (a running stream switches at its next 10 ms frame, without a gap);
    /// `microphoneMode.active` says what really runs and `.microphoneModeChanged` tells when it
    /// changes. Kept across input changes and restarts. Refused inside an audio handler (a
    /// stream closing waits for those while it holds the mode).
    public func setPreferredMicrophoneMode(_ mode: MicrophoneMode) throws(OcellusError) {
        if audio.isHandlerThread {
            throw OcellusError(.wrongState, "the microphone mode cannot be changed from an audio handler")
        }
        audio.setPreferredMode(mode)
    }

    public var microphoneMode: MicrophoneModeState { audio.microphoneMode }

    /// The format the session's sound comes in (the running stream's, or the one it will open in);
    /// nil without a microphone input.
    public var audioFormat: AudioFormat? { audio.deliveredFormat(for: audioInput) }

    /// The rate and channel count sound is delivered in (nil for either: the microphone's own,
    /// as its system reports it). By default 48 kHz stereo, what Ocellus always delivered.
    /// Applies when the microphone stream next opens (a start, an input change). Voice isolation
    /// runs at 48 kHz: with the microphone's own rate, a stream wanting it opens at 48 kHz.
    public func setAudioFormat(sampleRate: UInt32?, channels: UInt32?) throws(OcellusError) {
        if let sampleRate, !(8_000...384_000).contains(sampleRate) {
            throw OcellusError(.invalidArgument, "\(sampleRate) Hz is not a sample rate Ocellus delivers (8000 to 384000)")
        }
        if let channels, !(1...64).contains(channels) {
            throw OcellusError(.invalidArgument, "\(channels) channels is not a channel count Ocellus delivers (1 to 64)")
        }
        audio.setRequestedFormat(sampleRate: sampleRate, channels: channels)
    }

    public func addAudioOutput(_ output: AudioDataOutput) throws(OcellusError) {
        try change { if !$0.audioOutputs.contains(where: { $0 === output }) { $0.audioOutputs.append(output) } }
    }

    public func removeAudioOutput(_ output: AudioDataOutput) throws(OcellusError) {
        try change { $0.audioOutputs.removeAll { $0 === output } }
    }

    public var preset: Preset { lock.withLock { (pending ?? committed).preset } }

    public var busFit: BusFit { lock.withLock { (pending ?? committed).busFit } }

    /// Like other changes, batched inside a configuration; a running stream changes format only
    /// when the new choice differs.
    public func setBusFit(_ fit: BusFit) throws(OcellusError) { try change { $0.busFit = fit } }

    public func setPreset(_ preset: Preset) throws(OcellusError) {
        if let input = self.input, !Self.device(input, supports: preset) {
            throw OcellusError(.invalidArgument, "\(input.uniqueID) does not support the \(preset) preset")
        }
        try change { $0.preset = preset }
    }

    /// The share of its USB bus the camera's stream takes (behaviour §4 hardware cost) with the
    /// configuration as it stands (committed or not), beside what the bus carries now: the format
    /// the session would choose, or when none fits, the one it would choose on an idle bus (then
    /// `fits` is false and committing is refused). nil off USB, without an input, or when no
    /// format serves the outputs (then committing says why).
    /// What the configuration as it stands (committed or not) would run if committed now, against
    /// what it asks (libcamera's `validate()`); nil without an input. Throws what committing would.
    /// A camera another app streams in another format shows only when the stream opens
    /// (`.formatFallback` with `.busy`).
    public func checkConfiguration() throws(OcellusError) -> ConfigurationCheck? {
        try formats.check(lock.withLock { pending ?? committed })
    }

    public var hardwareCost: HardwareCost.BusShare? {
        let configuration = lock.withLock { pending ?? committed }
        guard let input = configuration.input,
            let (format, rate) = (try? formats.picture(for: configuration)) ?? (try? formats.picture(for: configuration, ignoringBus: true))
        else { return nil }
        return formats.share(of: input, format: format, rate: rate)
    }

    /// Whether the output could join: its pinned format must be one the input offers.
    public func canAddOutput(_ output: VideoDataOutput) -> Bool {
        var proposed = lock.withLock { pending ?? committed }
        proposed.outputs.append(output)
        return (try? formats.picture(for: proposed)) != nil
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
        return (try? formats.streams(for: proposed)) != nil
    }

    public func addDepthOutput(_ output: DepthDataOutput) throws(OcellusError) {
        try change { if !$0.depthOutputs.contains(where: { $0 === output }) { $0.depthOutputs.append(output) } }
    }

    public func removeDepthOutput(_ output: DepthDataOutput) throws(OcellusError) {
        try change { $0.depthOutputs.removeAll { $0 === output } }
    }

    /// Inside begin/commit the change waits for the commit; outside it applies at once.
    private func change(_ body: (inout SessionConfiguration) -> Void) throws(OcellusError) {
        let immediate: SessionConfiguration? = lock.withLock {
            if pending != nil {
                body(&pending!)
                return nil
            }
            var proposed = committed
            body(&proposed)
            return proposed
        }
        guard let immediate else { return }
        try apply(immediate)
        branch?.configurationChanged()
    }

    /// Gives each output a converter when the stream's format or size is not what it
    /// asked for, or its pixels must be turned or mirrored, and the stream's frame interval: the
    /// rate it streams at, not the format's fastest (an output capped at the stream's rate was
    /// taken to run slower than the stream, and thinned frames that came early).
    private func prepareConverters(_ outputs: [VideoDataOutput], for format: VideoFormat, rate: FrameRate, input: Device?) {
        let framing = companions.framing
        var minimumScale = 0.0
        for output in outputs {
            output.frameInterval = rate.interval
            let target = output.pixelFormat ?? format.pixelFormat
            let (width, height) = (output.width ?? format.width, output.height ?? format.height)
            let rotation = output.videoRotationAngle
            let mirrored = output.isVideoMirrored ?? false
            // Cameras send YUV in video range: full range asked of the same format is a conversion.
            let same =
                target == format.pixelFormat && width == format.width && height == format.height && rotation == 0 && !mirrored
                && !(output.yuvFullRange && target.isYUV)
            let quarterTurn = rotation == 90 || rotation == 270
            let converter = formats.conversion.map { conversion in
                {
                    conversion.makeConverter(
                        to: target, width: quarterTurn ? height : width, height: quarterTurn ? width : height,
                        rotation: rotation, mirrored: mirrored, yuvFullRange: output.yuvFullRange)
                }
            }
            // Center Stage: an output given the camera's pixels as they are gets a converter too,
            // used only while the window frames (none for compressed data, which cannot be cropped,
            // nor for outputs that convert frames themselves and read the window from the frame).
            let framable =
                !target.isCompressed && !output.convertsFramesItself
                && formats.conversion?.canConvert(from: format.pixelFormat, to: target) == true
            output.publish(
                DeliveryPlan(
                    converter: same ? nil : converter?(), framedConverter: same && framable ? converter?() : nil,
                    framing: framing))
            // A framed output's size bounds the zoom: never fewer of the camera's pixels than it delivers.
            if framable {
                minimumScale = max(minimumScale, Double(width) / Double(max(1, format.width)), Double(height) / Double(max(1, format.height)))
            }
        }
        framing.minimumScale = max(FramingWindow.smallestScale, minimumScale)
    }

    private func apply(_ proposed: SessionConfiguration) throws(OcellusError) {
        defer { updatePulling() }
        let choice = try formats.streams(for: proposed)
        let (wasRunning, previous, oldFormat, oldDepth) = lock.withLock { (running, committed, picture?.format, depthSource) }
        guard wasRunning else {
            lock.withLock { committed = proposed }
            return
        }
        // A running stream states the one rate it runs at; the choice names the camera's format with all its rates.
        let sameStream =
            choice.picture.map { chosen, rate in
                oldFormat.map {
                    $0.pixelFormat == chosen.pixelFormat && $0.width == chosen.width
                        && $0.height == chosen.height && $0.maxFrameRate == rate
                } ?? false
            } ?? (oldFormat == nil) && proposed.input === previous.input && choice.depth == oldDepth
        let sameAudio = proposed.audioInput === previous.audioInput && proposed.audioOutputs.isEmpty == previous.audioOutputs.isEmpty
        if !sameStream || !sameAudio { try refuseOnStreamThread("a change that restarts the session's streams") }
        if sameStream, let format = choice.picture?.0 {
            prepareConverters(proposed.outputs, for: format, rate: choice.picture!.rate, input: proposed.input)
            prepareDepthOutputs(proposed.depthOutputs, rate: choice.depthRate)
            // From inside an audio handler with the audio unchanged there is nothing to do, and
            // the stream changes' lock may be held by a thread waiting for this very stream to
            // open (its first samples can come before that returns).
            let keepsAudio = sameAudio && audio.isHandlerThread
            lock.withLock { committed = proposed }
            if keepsAudio { return }
            do { try audio.update(proposed) } catch {
                lock.withLock { committed = previous }
                try? audio.update(previous)
                throw error
            }
            return
        }
        stopCameraStreams() // a V4L2 camera serves one stream at a time
        lock.withLock { committed = proposed }
        do {
            try openStreams(proposed)
            try audio.update(proposed)
        } catch {
            // Put the previous configuration back as it ran.
            lock.withLock { committed = previous }
            stopCameraStreams()
            try? openStreams(previous)
            try? audio.update(previous)
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
        try refuseOnBranch("starting it")
        try start()
    }

    func start() throws(OcellusError) {
        try refuseOnStreamThread("starting the session")
        switching.forgetLoss()
        let configuration = lock.withLock { committed }
        guard !isRunning else { return }
        // A microphone alone runs too (an audio-only session, as AVFoundation's).
        guard configuration.input != nil || configuration.audioInput != nil else {
            throw OcellusError(.wrongState, "the session has no input camera or microphone")
        }
        do throws(OcellusError) {
            try openStreams(configuration)
        } catch {
            if error.code == .busy {
                events.post(.interrupted(error))
                retry.start { [weak self] in self?.attemptStart() ?? false }
            }
            throw error
        }
        do throws(OcellusError) { try audio.update(configuration) } catch {
            try? stop() // a session without its microphone does not run
            throw error
        }
        events.post(.started)
    }

    /// One retry; returns whether to try again.
    private func attemptStart() -> Bool {
        let configuration = lock.withLock { committed }
        do throws(OcellusError) {
            try openStreams(configuration)
            try audio.update(configuration)
        } catch {
            if error.code == .busy { return true }
            events.post(.runtimeError(error))
            return false
        }
        events.post(.interruptionEnded)
        events.post(.started)
        return false
    }

    /// Stops the stream; returns after the last frame handler call. Not from a frame handler.
    public func stopRunning() throws(OcellusError) {
        try refuseOnBranch("stopping it")
        try stop()
    }

    func stop() throws(OcellusError) {
        try refuseOnStreamThread("stopping the session")
        retry.cancel()
        let wasRunning = lock.withLock { running }
        // A stream that failed is stopped here too, on this thread: its last release
        // must not fall to its own thread, which cannot join itself.
        stopCameraStreams()
        watchdog.disarm()
        audio.stop()
        updatePulling()
        if wasRunning { events.post(.stopped) }
    }

    /// Calls that wait for the camera or microphone stream to end cannot run on that stream's
    /// own thread (a frame or PCM handler): they are refused there instead of deadlocking, saying
    /// what to do in words any binding's user reads (`what`: "stopping the session").
    private func refuseOnStreamThread(_ what: String) throws(OcellusError) {
        let (streams, outputs) = lock.withLock { ([picture, depth], committed.frameOutputs) }
        let onStream = streams.contains { $0?.isStreamThread == true } || outputs.contains(where: \.isDeliveringThread)
        let callback = onStream ? "frame" : audio.isHandlerThread ? "audio" : nil
        if let callback {
            throw OcellusError(
                .wrongState,
                "\(what) waits for the session's \(callback) callbacks to return, so it cannot be done inside one: "
                    + "do it from another thread (the app's main loop, say)")
        }
    }

    /// Stops the picture and depth streams (not from their own threads or an output's handler),
    /// forgets them, and returns after the outputs' last handler calls.
    private func stopCameraStreams() {
        let streams = lock.withLock { () -> [SessionStream?] in
            defer { (picture, depth, depthSource, running) = (nil, nil, nil, false) }
            return [picture, depth]
        }
        for stream in streams { stream?.stop() }
        // Outputs delivering on threads of their own may still be in a handler call.
        for output in lock.withLock({ committed.frameOutputs }) { output.waitForDelivery() }
        companions.streamStopped()
    }

    /// Sets each depth output's frame interval (for lateness and pairing) from the rate depth runs at.
    private func prepareDepthOutputs(_ outputs: [DepthDataOutput], rate: FrameRate?) {
        let rate = rate ?? FrameRate(30)
        for output in outputs {
            output.frameInterval = rate.interval
        }
    }

    /// A stream's end on its own: the session stops running (once, for its current streams) and
    /// says why. The stream that failed is stopped by `stopRunning` on the caller's thread (a
    /// stream cannot join its own thread); the other camera stream, if any, stops now on a thread
    /// of its own, so that a stopped session delivers nothing. A failure from a stream the session
    /// already replaced (the input switched while the old camera's unplug was on its way) is not
    /// the session's.
    private func streamFailed(_ error: OcellusError, from failed: SessionStream) {
        let stopped = lock.withLock { () -> (other: SessionStream?, isDepth: Bool)? in
            guard running, failed === picture || failed === depth else { return nil }
            running = false
            switching.streamEnded()
            let isDepth = failed === depth
            defer { if isDepth { picture = nil } else { depth = nil } }
            return (isDepth ? picture : depth, isDepth)
        }
        guard let stopped else { return }
        let reported = stopped.isDepth ? OcellusError(error.code, "depth stream: \(error.message)") : error
        // A stream can end with its own error just before its camera's removal arrives (PipeWire's
        // session manager: "no node available"): the app is told what happened — the camera was
        // disconnected — once the removal comes, within a short grace. Not on the stream's thread,
        // which may be the one that brings the removal.
        if reported.code != .disconnected, let input = lock.withLock({ committed.input }), input.isConnected {
            pthread_detach(
                startThread { [weak self] in
                    let deadline = monotonicNanoseconds() + Self.removalGrace
                    while input.isConnected && monotonicNanoseconds() < deadline { usleep(5_000) }
                    let confirmed =
                        input.isConnected
                        ? reported
                        : OcellusError(.disconnected, "\(input.uniqueID) was disconnected (\(reported.message))")
                    self?.reportStreamEnd(confirmed, other: stopped.other)
                })
        } else {
            reportStreamEnd(reported, other: stopped.other)
        }
    }

    /// How long a stream's own error waits for its camera's removal before it is reported as it is.
    static let removalGrace: UInt64 = 300_000_000

    /// The rest of a stream's end on its own: readers and the app are told, the sound and the
    /// other camera stream stop, and the companions are told (off the stream's thread: a
    /// companion waits for its own work, which may wait for a frame).
    private func reportStreamEnd(_ reported: OcellusError, other: SessionStream?) {
        if let other { pthread_detach(startThread { other.stop() }) }
        // Started again meanwhile (the app did not wait for the report): the new run is not this end's.
        if !isRunning {
            updatePulling(stoppedBy: reported)
            audio.stop() // the audio thread waits at most for the lock, which is free here
            if companions.hasOutputs { pthread_detach(startThread { [companions] in companions.streamStopped() }) }
        }
        events.post(.runtimeError(reported)) // not STOPPED too: that means stopped as asked
    }

    /// Opens the streams `configuration` needs. With fitting on, a format the kernel refuses for
    /// want of bandwidth (ENOSPC at stream-on: the estimate was low, or another process took the
    /// bus meanwhile) is left out and the next that fits is tried; a format run instead of the
    /// one wanted is posted as `.formatFallback`.
    /// A camera another app streams in another format is shared in that one when it serves the
    /// outputs (scaled or converted), with `.formatFallback` saying so; else the refusal says why.
    private func openStreams(_ configuration: SessionConfiguration) throws(OcellusError) {
        var refused: [(format: VideoFormat, error: OcellusError)] = []
        var inUse: (error: OcellusError, running: (format: VideoFormat, rate: FrameRate))?
        while true {
            let choice: FormatChoice.Streams
            do throws(OcellusError) {
                choice = try formats.streams(for: configuration, excluding: refused.map(\.format), sharing: inUse?.running)
            } catch {
                if let inUse, let camera = configuration.input {
                    throw OcellusError(.busy, "\(camera.uniqueID): \(inUse.error.message), and this session's \(error.message)")
                }
                throw refused.last?.error ?? error // nothing left to step to: the kernel's refusal says most
            }
            do throws(OcellusError) {
                try startStream(configuration, choice)
            } catch {
                if inUse == nil, error.code == .busy, let camera = configuration.input, let running = opener.takeFormatInUse(of: camera) {
                    inUse = (error, running)
                    continue
                }
                guard error.code == .noResources, configuration.fitsBus, let (format, _) = choice.picture else { throw error }
                refused.append((format, error))
                continue
            }
            if let input = configuration.input, let chosen = choice.picture, configuration.fitsBus || inUse != nil {
                reportFallback(camera: input, configuration, chosen: chosen, refused: refused, inUse: inUse?.error)
            }
            return
        }
    }

    /// Posts `.formatFallback` when `chosen` is not what the outputs and preset would have on an idle bus.
    private func reportFallback(
        camera: Device, _ configuration: SessionConfiguration, chosen: (format: VideoFormat, rate: FrameRate),
        refused: [(format: VideoFormat, error: OcellusError)], inUse: OcellusError? = nil
    ) {
        guard let wanted = try? formats.picture(for: configuration, ignoringBus: true),
            !(wanted.format.sameStream(as: chosen.format) && wanted.rate == chosen.rate)
        else { return }
        let reason =
            if let inUse {
                inUse.message
            } else if let refusal = refused.first(where: { $0.format.sameStream(as: wanted.format) }) {
                "the kernel refused it (\(refusal.error.message))"
            } else {
                formats.busReason(camera: camera, for: wanted)
            }
        events.post(
            .formatFallback(
                FormatFallback(
                    camera: camera, wanted: wanted, chosen: chosen, reason: reason,
                    code: inUse == nil ? .noResources : .busy)))
    }

    private func startStream(_ configuration: SessionConfiguration, _ choice: FormatChoice.Streams) throws(OcellusError) {
        guard let input = configuration.input, let (format, rate) = choice.picture else {
            lock.withLock { (picture, depth, depthSource, running) = (nil, nil, nil, configuration.audioInput != nil) }
            return
        }
        companions.streamWillStart(camera: input, format: format, rate: rate)
        prepareConverters(configuration.outputs, for: format, rate: rate, input: input)
        prepareDepthOutputs(configuration.depthOutputs, rate: choice.depthRate)
        // Unowned: the session outlives its streams (deinit and stop join the stream threads
        // before the session's memory goes), and a weak load per commit costs a side-table trip.
        let sharesDepth = choice.depth == .pictureStream
        let opened = makeStream(watchdog: watchdog) { [unowned(unsafe) self] in
            self.committed.outputs + self.companions.outputs + (sharesDepth ? self.committed.depthOutputs : [])
        }
        do throws(OcellusError) { try opened.open(opener, camera: input, format: format, rate: rate) } catch {
            companions.streamStopped()
            throw error
        }
        var depthOpened: SessionStream?
        if case .ownStream(let depthFormat, let depthRate) = choice.depth {
            let stream = makeStream(watchdog: nil) { [unowned(unsafe) self] in self.committed.depthOutputs }
            do throws(OcellusError) {
                try stream.open(opener, camera: input, format: depthFormat, rate: depthRate)
            } catch {
                opened.stop()
                companions.streamStopped()
                throw error
            }
            depthOpened = stream
        }
        lock.withLock { (picture, depth, depthSource, running) = (opened, depthOpened, choice.depth, true) }
        updatePulling()
        watchdog.arm(frameInterval: rate.interval) { [weak self] change in
            self?.stallChanged(change, camera: input)
        }
        onStreamingStarted?(input)
    }

    /// A stream feeding the outputs `feeds` picks from the committed configuration.
    private func makeStream(watchdog: StallWatchdog?, feeds: @escaping () -> [FrameOutput]) -> SessionStream {
        SessionStream(
            commits: commits, committedOutputs: { [unowned(unsafe) self] in self.lock.withLock(feeds) },
            watchdog: watchdog
        ) { [unowned(unsafe) self] error, failed in self.streamFailed(error, from: failed) }
    }

    /// A stall is an interruption (ended when frames come back); one that lasts is a runtime
    /// error, and the session stops (from a thread of its own: stopping joins the watchdog's).
    private func stallChanged(_ change: StallWatchdog.Change, camera: Device) {
        guard isRunning else { return }
        switch change {
        case .stalled(let silent, let undecodable):
            let what =
                undecodable == 0
                ? "sent no frame for \(silent / 1_000_000) ms (the camera stalled)"
                : "sent no frame that could be decoded for \(silent / 1_000_000) ms (\(undecodable) corrupt)"
            events.post(.interrupted(OcellusError(.timeout, "\(camera.uniqueID) \(what); waiting for it to recover")))
        case .resumed:
            events.post(.interruptionEnded)
        case .gaveUp(let silent, let undecodable):
            let what =
                undecodable == 0
                ? "sent no frame for \(silent / 1_000_000_000) s (the camera stalled)"
                : "sent no frame that could be decoded in \(silent / 1_000_000) ms (\(undecodable) corrupt)"
            let error = OcellusError(undecodable == 0 ? .timeout : .io, "\(camera.uniqueID) \(what); the session stopped")
            for output in lock.withLock({ pulling }) { output.latest.setStreaming(false, stoppedBy: error) }
            events.post(.runtimeError(error))
            pthread_detach(startThread { [weak self] in try? self?.stop() })
        }
    }
}
