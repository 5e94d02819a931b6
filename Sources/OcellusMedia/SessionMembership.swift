import OcellusCapture
import OcellusCore

/// Where a photo, movie or metadata output stands in a capture session: its video data output
/// joins the session's outputs, and the session stopping (or failing) is reported.
public final class SessionMembership: @unchecked Sendable {
    private let lock = ConditionLock()
    private weak var joined: CaptureSession?
    private var observer: UInt64?

    public init() {}

    public var session: CaptureSession? { lock.withLock { joined } }

    /// `onEnd` runs on the session's event thread when it stops (nil) or fails (the error).
    public func attach(
        _ output: VideoDataOutput, to session: CaptureSession, what: String,
        onEnd: @escaping @Sendable (OcellusError?) -> Void
    ) throws(OcellusError) {
        guard lock.withLock({ joined == nil }) else { throw OcellusError(.wrongState, "the \(what) is already part of a session") }
        try session.addOutput(output)
        let observer = session.events.addObserver { event in
            switch event {
            case .stopped: onEnd(nil)
            case .runtimeError(let error): onEnd(error)
            default: break
            }
        }
        lock.withLock { (joined, self.observer) = (session, observer) }
    }

    /// False when the output was in no session.
    @discardableResult
    public func detach(_ output: VideoDataOutput) throws(OcellusError) -> Bool {
        let (session, observer) = lock.withLock { (joined, self.observer) }
        guard let session else { return false }
        try session.removeOutput(output)
        if let observer { session.events.removeObserver(observer) }
        lock.withLock { (joined, self.observer) = (nil, nil) }
        return true
    }

    /// The session, if it is running with `output` among its committed outputs.
    public func runningSession(delivering output: VideoDataOutput) -> CaptureSession? {
        guard let session, session.isRunning, session.outputs.contains(where: { $0 === output }) else { return nil }
        return session
    }
}
