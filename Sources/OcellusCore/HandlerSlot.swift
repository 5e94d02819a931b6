#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A replaceable handler that a delivering thread calls (frames, PCM), and the one rule
/// for replacing it: from another thread the change waits for a call in flight, so no
/// call of the old handler runs after it returns; from inside the handler (on the
/// delivering thread) it applies at once, for the calls after the current one —
/// waiting there would wait for itself.
public final class HandlerSlot<Argument>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var handler: ((Argument) -> Void)?
    /// The thread running the handler now, if any.
    private var caller: pthread_t?
    private var waiters = 0

    public init() {}

    public var current: ((Argument) -> Void)? {
        get { lock.withLock { handler } }
        set { replace(with: newValue) }
    }

    /// True on the thread that is running the handler.
    public var isCallingThread: Bool {
        lock.withLock { caller.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    public func replace(with newHandler: ((Argument) -> Void)?) {
        lock.withLock {
            handler = newHandler
            guard let running = caller, pthread_equal(running, pthread_self()) == 0 else { return }
            waiters += 1
            while caller != nil { lock.wait() }
            waiters -= 1
        }
    }

    /// Runs the handler (if any) with `argument`, outside the lock.
    public func call(_ argument: Argument) {
        lock.withLock {
            guard let body = handler else { return }
            caller = pthread_self()
            lock.unlocked { body(argument) }
            caller = nil
            if waiters > 0 { lock.broadcast() }
        }
    }
}
