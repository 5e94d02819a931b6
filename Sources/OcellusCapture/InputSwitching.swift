#if canImport(Glibc)
import OcellusCore
import Glibc
#endif

/// behaviour §4 automatic switching, opt-in: a session's input follows a hub's system preferred
/// camera (`AutomaticSwitching` decides). A switch never happens while a movie output records; it
/// waits, and is reconsidered when the recording ends. When the session's camera is unplugged
/// while following, the session switches to the next preferred camera and starts again.
///
/// An unplug reaches the session twice, in either order: its stream ends (with whatever error
/// the stack reports first — PipeWire's session manager may say "no node available" before the
/// node's removal arrives) and the hub drops the camera. A loss is therefore judged by the
/// camera, not the stream's error: the session stopped on its own and its camera is gone. It is
/// read after the switch, since the stream may end while the switch is being made.
final class InputSwitching: @unchecked Sendable {
    /// The session switched; set once, before it is used (the session owns this).
    weak var session: CaptureSession?
    private let lock = ConditionLock()
    // Under `lock`: the hub followed, the recordings in progress, and whether the session's
    // stream ended on its own (a switch away from a camera that went then starts it again).
    private var followed: (hub: DeviceHub, observer: UInt64)?
    private var recordings = 0
    private var stoppedOnItsOwn = false
    /// Serialises decisions (hub events, recordings ending).
    private let decisions = ConditionLock()

    var isFollowing: Bool { lock.withLock { followed != nil } }

    /// Follows `hub` (nil: stops following).
    func follow(_ hub: DeviceHub?) {
        let old: (hub: DeviceHub, observer: UInt64)? = lock.withLock {
            guard followed?.hub !== hub else { return nil }
            defer { followed = nil }
            return followed
        }
        if let old { old.hub.events.removeObserver(old.observer) }
        guard let hub, !isFollowing else { return }
        let observer = hub.events.addObserver { [weak self] event in
            if case .systemPreferredChanged = event { self?.reconsider() }
        }
        lock.withLock { followed = (hub, observer) }
        reconsider()
    }

    var isRecording: Bool { lock.withLock { recordings > 0 } }

    func recordingStarted() { lock.withLock { recordings += 1 } }

    /// A switch that waited for the recording happens now, on a thread of its own (the caller
    /// is not held up by restarting the camera).
    func recordingEnded() {
        let reconsiders = lock.withLock { () -> Bool in
            recordings = max(0, recordings - 1)
            return recordings == 0 && followed != nil
        }
        if reconsiders { pthread_detach(startThread { [weak self] in self?.reconsider() }) }
    }

    /// The session's stream ended on its own (any error): if its camera went, the next switch
    /// replaces it and starts the session again.
    func streamEnded() {
        lock.withLock { stoppedOnItsOwn = followed != nil }
    }

    /// The session was started (or stopped as asked): nothing to resume.
    func forgetLoss() { lock.withLock { stoppedOnItsOwn = false } }

    /// Applies `AutomaticSwitching` to the system preferred camera of the moment.
    private func reconsider() {
        decisions.withLock {
            guard let session, let hub = lock.withLock({ followed?.hub }) else { return }
            let recording = lock.withLock { recordings > 0 }
            guard let target = hub.systemPreferredCamera else { return }
            // A disconnected input (the camera went) is no input: its replugged twin is a new device.
            let lostInput = session.input.map { !$0.isConnected } ?? false
            let current = session.input.flatMap { $0.isConnected ? $0.uniqueID : nil }
            switch AutomaticSwitching.decide(currentInput: current, systemPreferred: target.uniqueID, isRecording: recording) {
            case .keep:
                return
            case .deferUntilRecordingEnds:
                session.events.post(.switchDeferred(target))
            case .switchTo:
                do throws(OcellusError) {
                    try session.addInput(target)
                } catch {
                    session.events.post(.switchFailed(target, error))
                    return
                }
                session.events.post(.inputSwitched(target))
                let resume = lock.withLock { stoppedOnItsOwn }
                guard lostInput && resume && !session.isRunning else { return }
                forgetLoss()
                // The new camera will not start (busy: startRunning keeps retrying and reports it).
                do throws(OcellusError) { try session.startRunning() } catch  where error.code != .busy {
                    session.events.post(.runtimeError(error))
                } catch {}
            }
        }
    }
}
