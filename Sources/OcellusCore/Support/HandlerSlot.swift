import Synchronization

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
///
/// A call takes no lock (it runs for every frame): it announces itself in `caller`, then
/// loads the handler; a replacement swaps the handler, then looks at `caller`. Both are
/// sequentially consistent, so a call that loaded the old handler is seen by the
/// replacement, which waits for it; the old handler is released only then (or, replaced
/// from inside itself, when its call returns).
public final class HandlerSlot<Argument>: @unchecked Sendable {
    private final class Box {
        let body: (Argument) -> Void
        init(_ body: @escaping (Argument) -> Void) { self.body = body }
    }

    /// Guards replacing and reading the handler from outside a call, and waiting.
    private let lock = ConditionLock()
    private let handler = Atomic<Unmanaged<Box>?>(nil)
    /// The thread running the handler now (pthread_t bits), 0 when none.
    private let caller = Atomic<UInt>(0)
    private let waiters = Atomic<Int>(0)
    // Touched only by the calling thread: the handler its call runs, and one replaced
    // from inside that call, released when the call returns.
    private var running: Unmanaged<Box>?
    private var retired: Unmanaged<Box>?

    public init() {}

    deinit { handler.load(ordering: .relaxed)?.release() }

    public var current: ((Argument) -> Void)? {
        get { lock.withLock { handler.load(ordering: .sequentiallyConsistent)?.takeUnretainedValue().body } }
        set { replace(with: newValue) }
    }

    /// Whether a handler is set (no lock: a hint for the delivering thread).
    public var isSet: Bool { handler.load(ordering: .relaxed) != nil }

    /// True on the thread that is running the handler.
    public var isCallingThread: Bool { caller.load(ordering: .sequentiallyConsistent) == UInt(pthread_self()) }

    public func replace(with newHandler: ((Argument) -> Void)?) {
        let box = newHandler.map { Unmanaged.passRetained(Box($0)) }
        let old = lock.withLock { handler.exchange(box, ordering: .sequentiallyConsistent) }
        guard let old else { return }
        if isCallingThread {
            // From inside the handler: the running call still needs the old one.
            if old.toOpaque() == running?.toOpaque() { retired = old } else { old.release() }
            return
        }
        waiters.wrappingAdd(1, ordering: .sequentiallyConsistent)
        lock.withLock {
            while caller.load(ordering: .sequentiallyConsistent) != 0 { lock.wait() }
        }
        waiters.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        old.release()
    }

    /// Runs the handler (if any) with `argument`.
    public func call(_ argument: Argument) {
        caller.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
        if let box = handler.load(ordering: .sequentiallyConsistent) {
            running = box
            box._withUnsafeGuaranteedRef { $0.body(argument) }
            running = nil
        }
        caller.store(0, ordering: .sequentiallyConsistent)
        if let old = retired {
            retired = nil
            old.release()
        }
        if waiters.load(ordering: .sequentiallyConsistent) > 0 { lock.withLock { lock.broadcast() } }
    }
}

/// Outputs pass frames by reference; a Swift handler that takes a frame value gets its own
/// copy of the record (the pixels stay where they are).
extension HandlerSlot where Argument == UnsafePointer<CameraFrame> {
    package var valueHandler: ((CameraFrame) -> Void)? {
        get { current.map { view in { frame in withUnsafePointer(to: frame, view) } } }
        set { replace(with: newValue.map { handler in { handler($0.pointee) } }) }
    }
}
