#if canImport(Glibc)
import OcellusCore
import Glibc
#endif

/// behaviour §4 audio: a running session's microphone stream. It is open while the session
/// runs with a microphone input and at least one audio output (no listener, no stream); it
/// hears the input itself, or — for the `microphone` device — wherever that device routes, and
/// moves with the route while the session runs (recordings fill the gap with silence). Its sound
/// goes through the session's microphone mode: straight to the outputs, or — once voice isolation
/// was wanted on this stream — through a `VoiceProcessor` on a thread of its own, with what the
/// machine plays (the playback reference, a second stream) for its echo canceller.
final class SessionAudio: @unchecked Sendable {
    private let opener: (any AudioStreamOpening)?
    private let engines: (any VoiceEngineLoading)?
    private let events: EventThread<CaptureSession.Event>
    /// Told, on the stream's thread, that a chosen microphone went: the session stops (from a
    /// thread of its own: stopping joins this one). Set once, before the session is used.
    var onInputLost: (@Sendable () -> Void)?
    /// Serialises opening and closing the stream (commits, route changes, stops).
    private let changes = ConditionLock()
    private let lock = ConditionLock()
    // Under `lock`: the committed outputs, the open stream, the input it was opened for (nil
    // while stopped) and the microphone it hears.
    private var outputs: [AudioDataOutput] = []
    private var stream: (any AudioStream)?
    private var input: Device?
    private var source: Device?
    /// The open stream's voice processor, from the first time voice isolation was active on it.
    private var processor: VoiceProcessor?
    /// What the machine plays, heard for the processor's echo canceller.
    private var reference: (any AudioStream)?
    private var mode = MicrophoneModeState.standard
    /// The format asked for; nil for either: the microphone's own.
    private var requested: (sampleRate: UInt32?, channels: UInt32?) = (48_000, 2)
    /// Under `changes`: the input the running session wants heard (nil while stopped), kept while
    /// no stream is open for it (a route to no microphone), so that route changes reopen it.
    private var wanted: Device?
    /// Under `changes`: an engine made when the mode was chosen, for the next stream (an engine
    /// that loads a model takes most of a second to make).
    private var spareEngine: (any VoiceEngine)?
    private var spareEcho: (any EchoCanceller)?
    /// Set while the input is the `microphone` device: its route changes move the stream.
    private var routeObserver: (route: MicrophoneRoute, id: UInt64)?

    init(opener: (any AudioStreamOpening)?, engines: (any VoiceEngineLoading)?, events: EventThread<CaptureSession.Event>) {
        self.opener = opener
        self.engines = engines
        self.events = events
    }

    /// The microphone mode: preferred, active and the engine doing it.
    var microphoneMode: MicrophoneModeState { lock.withLock { mode } }

    /// Prefers `preferred`, running or not: the engine it needs is loaded now (on first use), and
    /// the active mode says what really runs. A running stream switches at its next 10 ms frame.
    func setPreferredMode(_ preferred: MicrophoneMode) {
        changes.withLock { resolve(preferred) }
    }

    /// Under `changes`: what `preferred` makes active, with its engine and canceller (started on
    /// the running stream, else kept for the next); posts the change.
    private func resolve(_ preferred: MicrophoneMode) {
        let (running, heard) = lock.withLock { (processor, source) }
        var state = MicrophoneModeState(preferred: preferred, active: preferred, engine: "none", reason: "")
        var engine: (any VoiceEngine)?
        var echo: (any EchoCanceller)?
        let runningFormat = lock.withLock { stream?.format }
        if preferred.processes, running == nil, let problem = rateProblem(runningFormat) {
            (state.active, state.reason) = (.standard, "\(preferred.name) is unavailable: \(problem)")
        } else if preferred.processes {
            // The engine running this stream, or the one kept for the next: never a second one.
            switch Self.obtain(
                running.map { $0.engine } ?? spareEngine,
                { () throws(OcellusError) in
                    guard let engines else { throw OcellusError(.libraryUnavailable, "this session has no voice engines") }
                    return try engines.makeVoiceIsolationEngine()
                })
            {
            case .success(let made): (engine, state.engine) = (made, made.name)
            case .failure(let error): (state.active, state.reason) = (.standard, "\(preferred.name) is unavailable: \(error.message)")
            }
        }
        if state.active.processes {
            if let running {
                // A running stream keeps the canceller it started with (none: until the next stream).
                if let kept = running.echo {
                    (echo, state.echoCancellation) = (kept, kept.name)
                } else {
                    state.echoCancellationReason = lock.withLock { mode.echoCancellationReason }
                }
            } else {
                switch Self.obtain(
                    spareEcho,
                    { () throws(OcellusError) in
                        guard let engines else { throw OcellusError(.libraryUnavailable, "this session has no echo canceller") }
                        return try engines.makeEchoCanceller()
                    })
                {
                case .success(let canceller): (echo, state.echoCancellation) = (canceller, canceller.name)
                case .failure(let error): state.echoCancellationReason = "echo cancellation is unavailable: \(error.message)"
                }
            }
        }
        let (previous, format) = lock.withLock { () -> (MicrophoneModeState, AudioFormat?) in
            defer { mode = state }
            return (mode, stream?.format)
        }
        if let running {
            running.setProcessing(state.active.processes)
        } else if state.active.processes, let format, let engine, let heard {
            start(engine: engine, echo: echo, format: format, hearing: heard)
            (spareEngine, spareEcho) = (nil, nil)
        } else {
            (spareEngine, spareEcho) = (engine, echo)
        }
        let now = lock.withLock { mode }
        if previous != now { events.post(.microphoneModeChanged(now)) }
    }

    /// `existing`, else a new one from `make`.
    private static func obtain<Engine>(_ existing: Engine?, _ make: () throws(OcellusError) -> Engine) -> Result<Engine, OcellusError> {
        if let existing { return .success(existing) }
        do throws(OcellusError) { return .success(try make()) } catch { return .failure(error) }
    }

    func setRequestedFormat(sampleRate: UInt32?, channels: UInt32?) { lock.withLock { requested = (sampleRate, channels) } }

    /// The format sound is delivered in: the open stream's, else what a stream for `input` would open in.
    func deliveredFormat(for input: Device?) -> AudioFormat? {
        if let open = lock.withLock({ stream?.format }) { return open }
        guard let input else { return nil }
        return streamFormat(for: input.route?.current ?? input, processing: lock.withLock { mode.active.processes })
    }

    /// The format to open `microphone`'s stream in: the one asked for, the microphone's own where
    /// not, at 48 kHz when voice isolation is wanted and the rate was left to the microphone.
    private func streamFormat(for microphone: Device, processing: Bool) -> AudioFormat {
        let (wanted, own) = (lock.withLock { requested }, microphone.details.soundFormat ?? AudioFormat())
        let rate = wanted.sampleRate ?? (processing ? VoiceFrame.sampleRate : own.sampleRate)
        return AudioFormat(sampleRate: rate, channels: wanted.channels ?? own.channels)
    }

    /// Why voice isolation cannot run on a stream of `format` (nil: it can): a rate the session
    /// was set to, or the microphone's own that a stream opened in another mode runs at.
    private func rateProblem(_ format: AudioFormat?) -> String? {
        guard let format, format.sampleRate != VoiceFrame.sampleRate else { return nil }
        let why =
            lock.withLock { requested.sampleRate } == nil
            ? "this stream runs at the microphone's own \(format.sampleRate) Hz (it opened in another mode; from the next start it runs at \(VoiceFrame.sampleRate) Hz)"
            : "the session's sound is set to \(format.sampleRate) Hz"
        return "voice isolation runs at \(VoiceFrame.sampleRate) Hz and \(why)"
    }

    /// Whether microphones can be opened at all.
    var canOpen: Bool { opener != nil }

    /// The outputs samples go to, from the session's commits (running or not).
    func setOutputs(_ committed: [AudioDataOutput]) { lock.withLock { outputs = committed } }

    /// True inside one of the outputs' handlers.
    var isHandlerThread: Bool { lock.withLock { outputs }.contains(where: \.isDeliveringThread) }

    /// Opens, keeps or closes the stream to match `configuration` (the session runs with it).
    func update(_ configuration: SessionConfiguration) throws(OcellusError) {
        let wanted = configuration.audioOutputs.isEmpty ? nil : configuration.audioInput
        follow(wanted?.route)
        try changes.withLock { () throws(OcellusError) in
            self.wanted = wanted
            try open(wanted)
        }
    }

    /// Closes the stream and stops following a route (the session stopped).
    func stop() {
        follow(nil)
        changes.withLock {
            wanted = nil
            close()
        }
    }

    /// Under `changes`: the stream for `wanted`, unless the open one already hears what it should.
    private func open(_ wanted: Device?) throws(OcellusError) {
        let heard = wanted.map { $0.route?.current ?? $0 }
        let (current, currentInput, currentSource) = lock.withLock { (stream, input, source) }
        if current != nil && wanted === currentInput && heard === currentSource { return }
        close()
        guard let microphone = wanted, let opener else { return }
        guard let heard else { throw OcellusError(.notFound, "no microphone is connected") }
        let followsRoute = microphone.route != nil
        // A mode the last stream could not run (its rate) is tried again on this one.
        let last = lock.withLock { mode }
        if last.preferred.processes && !last.active.processes { resolve(last.preferred) }
        // A new engine per stream: its state is the sound it heard.
        var wantedMode = lock.withLock { mode }
        let format = streamFormat(for: heard, processing: wantedMode.active.processes)
        if wantedMode.active.processes, let problem = rateProblem(format) {
            (wantedMode.active, wantedMode.engine, wantedMode.reason) = (.standard, "none", "\(wantedMode.preferred.name) is unavailable: \(problem)")
            (wantedMode.echoCancellation, wantedMode.echoCancellationReason) = ("none", "")
            lock.withLock { mode = wantedMode }
            events.post(.microphoneModeChanged(wantedMode))
        }
        if wantedMode.active.processes, let engine = spareEngine ?? (try? engines?.makeVoiceIsolationEngine()) {
            let echo = wantedMode.echoCancellation == "none" ? nil : spareEcho ?? (try? engines?.makeEchoCanceller())
            if start(engine: engine, echo: echo, format: format, hearing: heard) { events.post(.microphoneModeChanged(lock.withLock { mode })) }
        }
        (spareEngine, spareEcho) = (nil, nil)
        // Unowned: the session (and this) outlive the stream, which `close` joins.
        let handler = { [unowned(unsafe) self] (event: AudioStreamEvent) in
            switch event {
            case .samples(let buffer):
                let (outputs, processor) = self.lock.withLock { (self.outputs, self.processor) }
                if let processor { processor.push(buffer) } else { for output in outputs { output.deliver(buffer) } }
            case .failed(let error):
                // The `microphone` device moves on with its route (the hub reroutes once the
                // input is gone). A chosen input that went stops the session, as its camera would.
                guard !followsRoute else { return }
                self.events.post(.runtimeError(OcellusError(error.code, "microphone \(microphone.uniqueID): \(error.message)")))
                self.onInputLost?()
            }
        }
        let opened: any AudioStream
        do throws(OcellusError) {
            opened = try opener.openAudioStream(for: heard, format: format, handler: handler)
        } catch {
            stopProcessing()
            throw error
        }
        lock.withLock { (stream, input, source) = (opened, microphone, heard) }
    }

    /// Under `changes`: a processor for the stream (delivering to the committed outputs on its
    /// thread; unowned, `close` joins it), and the playback reference of its echo canceller. A
    /// reference that cannot be opened leaves the echo uncancelled, and the mode says why (returns
    /// true when that changed the mode).
    @discardableResult
    private func start(engine: any VoiceEngine, echo: (any EchoCanceller)?, format: AudioFormat, hearing heard: Device) -> Bool {
        let started = makeProcessor(engine: engine, echo: echo, format: format)
        lock.withLock { processor = started }
        guard echo != nil, let opener else { return false }
        do throws(OcellusError) {
            let opened = try opener.openPlaybackReference(beside: heard, format: format) { [unowned(unsafe) self] event in
                guard case .samples(let buffer) = event else { return }
                self.lock.withLock { self.processor }?.pushPlayed(buffer)
            }
            lock.withLock { reference = opened }
            return false
        } catch {
            return lock.withLock {
                guard mode.echoCancellation != "none" else { return false }
                (mode.echoCancellation, mode.echoCancellationReason) = ("none", "no playback to cancel the echo of: \(error.message)")
                return true
            }
        }
    }

    /// Under `changes`: stops the playback reference, then the processor (after the stream stopped
    /// pushing: it delivers what it holds, then goes).
    private func stopProcessing() {
        let (playback, processing) = lock.withLock { () -> ((any AudioStream)?, VoiceProcessor?) in
            defer { reference = nil }
            return (reference, processor)
        }
        playback?.stop()
        processing?.finish()
        lock.withLock { processor = nil }
    }

    private func makeProcessor(engine: any VoiceEngine, echo: (any EchoCanceller)?, format: AudioFormat) -> VoiceProcessor {
        VoiceProcessor(
            engine: engine, echo: echo, format: format, processing: true,
            deliver: { [unowned(unsafe) self] buffer in
                for output in self.lock.withLock({ self.outputs }) { output.deliver(buffer) }
            },
            onDrop: { [unowned(unsafe) self] frames in
                for output in self.lock.withLock({ self.outputs }) { output.noteDropped(frames) }
            })
    }

    /// Under `changes`.
    private func close() {
        let current = lock.withLock { () -> (any AudioStream)? in
            defer { (stream, input, source) = (nil, nil, nil) }
            return stream
        }
        current?.stop()
        stopProcessing()
    }

    /// Starts or stops following `route`'s changes (nil: the input is not the `microphone` device).
    private func follow(_ route: MicrophoneRoute?) {
        let stale: (route: MicrophoneRoute, id: UInt64)? = lock.withLock {
            guard routeObserver?.route !== route else { return nil }
            defer { routeObserver = nil }
            return routeObserver
        }
        if let stale { stale.route.changes.removeObserver(stale.id) } // waits for a move in progress
        guard let route else { return }
        let id = route.changes.addObserver { [weak self] _ in self?.moveWithRoute() }
        let lost = lock.withLock { () -> Bool in
            guard routeObserver == nil else { return true }
            routeObserver = (route, id)
            return false
        }
        if lost { route.changes.removeObserver(id) }
    }

    /// On the route's thread: the stream moves to the new input (or closes while none is
    /// connected). Nothing while the session is stopped (no stream was wanted).
    private func moveWithRoute() {
        changes.withLock {
            guard let wanted else { return }
            do throws(OcellusError) { try open(wanted) } catch {
                events.post(.audioInterrupted(error)) // no stream now; the next route change tries again
            }
        }
    }
}
