#if canImport(Glibc)
import Glibc
#endif

/// behaviour §4 audio: a running session's microphone stream. It is open while the session
/// runs with a microphone input and at least one audio output (no listener, no stream); it
/// hears the input itself, or — for the `microphone` device — wherever that device routes, and
/// moves with the route while the session runs (recordings fill the gap with silence). Its sound
/// goes through the session's microphone mode: straight to the outputs, or — once voice isolation
/// was wanted on this stream — through a `VoiceProcessor` on a thread of its own.
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
    private var mode = MicrophoneModeState.standard
    /// Under `changes`: the input the running session wants heard (nil while stopped), kept while
    /// no stream is open for it (a route to no microphone), so that route changes reopen it.
    private var wanted: Device?
    /// Under `changes`: an engine made when the mode was chosen, for the next stream (an engine
    /// that loads a model takes most of a second to make).
    private var spareEngine: (any VoiceEngine)?
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
        changes.withLock {
            let running = lock.withLock { processor }
            var state = MicrophoneModeState(preferred: preferred, active: preferred, engine: "none", reason: "")
            var engine: (any VoiceEngine)?
            if preferred.processes {
                // The engine running this stream, or the one kept for the next: never a second one.
                if let existing = running?.engine ?? spareEngine {
                    (engine, state.engine) = (existing, existing.name)
                } else {
                    do throws(OcellusError) {
                        guard let engines else { throw OcellusError(.libraryUnavailable, "this session has no voice engines") }
                        let made = try engines.makeVoiceIsolationEngine()
                        (engine, state.engine) = (made, made.name)
                    } catch {
                        (state.active, state.reason) = (.standard, "\(preferred.name) is unavailable: \(error.message)")
                    }
                }
            }
            let (previous, format) = lock.withLock { () -> (MicrophoneModeState, AudioFormat?) in
                defer { mode = state }
                return (mode, stream?.format)
            }
            if let running {
                running.setProcessing(state.active.processes)
            } else if state.active.processes, let format, let engine {
                let started = makeProcessor(engine: engine, format: format)
                lock.withLock { processor = started }
                spareEngine = nil
            } else {
                spareEngine = engine
            }
            if previous.active != state.active || previous.engine != state.engine || previous.reason != state.reason {
                events.post(.microphoneModeChanged(state))
            }
        }
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
        let format = AudioFormat()
        // A new engine per stream: its state is the sound it heard.
        let active = lock.withLock { mode.active }
        var started: VoiceProcessor?
        if active.processes, let engine = spareEngine ?? (try? engines?.makeVoiceIsolationEngine()) {
            started = makeProcessor(engine: engine, format: format)
        }
        spareEngine = nil
        lock.withLock { processor = started }
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
            lock.withLock { processor = nil }
            throw error
        }
        lock.withLock { (stream, input, source) = (opened, microphone, heard) }
    }

    /// A processor delivering to the committed outputs on its thread (unowned: `close` joins it).
    private func makeProcessor(engine: any VoiceEngine, format: AudioFormat) -> VoiceProcessor {
        VoiceProcessor(engine: engine, format: format, processing: true,
                       deliver: { [unowned(unsafe) self] buffer in
                           for output in self.lock.withLock({ self.outputs }) { output.deliver(buffer) }
                       },
                       onDrop: { [unowned(unsafe) self] frames in
                           for output in self.lock.withLock({ self.outputs }) { output.noteDropped(frames) }
                       })
    }

    /// Under `changes`.
    private func close() {
        let (current, processing) = lock.withLock { () -> ((any AudioStream)?, VoiceProcessor?) in
            defer { (stream, input, source) = (nil, nil, nil) }
            return (stream, processor)
        }
        current?.stop()
        // The stream pushes no more: the processor delivers what it holds, then goes.
        processing?.finish()
        lock.withLock { processor = nil }
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

    /// On the route's thread: the stream moves to the new input (or closes while none is
    /// connected). Nothing while the session is stopped (no stream was wanted).
    private func moveWithRoute() {
        changes.withLock {
            guard let wanted else { return }
            do throws(OcellusError) { try open(wanted) } catch {
                events.post(.audioInterrupted(error))   // no stream now; the next route change tries again
            }
        }
    }
}
