#if canImport(Glibc)
import Glibc
#endif

/// behaviour §4 audio: a running session's microphone stream. It is open while the session
/// runs with a microphone input and at least one audio output (no listener, no stream); it
/// hears the input itself, or — for the `microphone` device — wherever that device routes, and
/// moves with the route while the session runs (recordings fill the gap with silence).
final class SessionAudio: @unchecked Sendable {
    private let opener: (any AudioStreamOpening)?
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
    /// Under `changes`: the input the running session wants heard (nil while stopped), kept while
    /// no stream is open for it (a route to no microphone), so that route changes reopen it.
    private var wanted: Device?
    /// Set while the input is the `microphone` device: its route changes move the stream.
    private var routeObserver: (route: MicrophoneRoute, id: UInt64)?

    init(opener: (any AudioStreamOpening)?, events: EventThread<CaptureSession.Event>) {
        self.opener = opener
        self.events = events
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
        // Unowned: the session (and this) outlive the stream, which `close` joins.
        let opened = try opener.openAudioStream(for: heard, format: AudioFormat()) { [unowned(unsafe) self] event in
            switch event {
            case .samples(let buffer):
                for output in self.lock.withLock({ self.outputs }) { output.deliver(buffer) }
            case .failed(let error):
                // The `microphone` device moves on with its route (the hub reroutes once the
                // input is gone). A chosen input that went stops the session, as its camera would.
                guard !followsRoute else { return }
                self.events.post(.runtimeError(OcellusError(error.code, "microphone \(microphone.uniqueID): \(error.message)")))
                self.onInputLost?()
            }
        }
        lock.withLock { (stream, input, source) = (opened, microphone, heard) }
    }

    /// Under `changes`.
    private func close() {
        let current = lock.withLock { () -> (any AudioStream)? in
            defer { (stream, input, source) = (nil, nil, nil) }
            return stream
        }
        current?.stop()
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
