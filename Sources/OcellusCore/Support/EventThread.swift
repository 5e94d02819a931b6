#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Delivers events to registered observers on one library-owned thread, in order.
///
/// `removeObserver` returns only after a call to that observer in flight on the
/// event thread has finished (behaviour §6), unless it is called from the event thread
/// itself, where it returns at once and no later call is made.
public final class EventThread<Event>: @unchecked Sendable {
    public typealias Observer = (Event) -> Void

    /// What the thread reads, held strongly by the thread itself: the handle may be released
    /// before the thread has run a line, or by an observer on the event thread while the loop
    /// is inside its call. Neither may free what the loop reads next.
    private final class Loop: @unchecked Sendable {
        let lock = ConditionLock()
        var observers: [(id: UInt64, body: Observer)] = []
        var queue: [Event] = []
        var queueHead = 0
        var inFlight: UInt64 = 0
        var stopping = false
        /// Stopping after the events queued before the stop are delivered.
        var draining = false
        var thread: pthread_t?

        func run() {
            lock.withLock {
                while true {
                    while queueHead == queue.count && !stopping { lock.wait() }
                    if stopping && !(draining && queueHead < queue.count) { return }
                    let event = queue[queueHead]
                    queueHead += 1
                    if queueHead == queue.count { queue.removeAll(keepingCapacity: true); queueHead = 0 }
                    // Each observer is checked again before its call: one removed meanwhile is skipped.
                    var delivered: Set<UInt64> = []
                    while let next = observers.first(where: { !delivered.contains($0.id) }) {
                        delivered.insert(next.id)
                        inFlight = next.id
                        lock.unlocked { next.body(event) }
                        inFlight = 0
                        lock.broadcast()
                        if stopping && !draining { return }
                    }
                }
            }
        }
    }

    private let loop = Loop()
    public init() {}

    deinit { stop() }

    public func addObserver(_ body: @escaping Observer) -> UInt64 {
        let id = IDSource.shared.next()
        loop.lock.withLock {
            loop.observers.append((id, body))
            if loop.thread == nil && !loop.stopping {
                loop.thread = startThread { [loop] in loop.run() }
            }
        }
        return id
    }

    /// Returns false when `id` is not registered.
    @discardableResult
    public func removeObserver(_ id: UInt64) -> Bool {
        loop.lock.withLock {
            guard let index = loop.observers.firstIndex(where: { $0.id == id }) else { return false }
            loop.observers.remove(at: index)
            if !isEventThread {
                while loop.inFlight == id { loop.lock.wait() }
            }
            return true
        }
    }

    public var isEventThread: Bool {
        guard let thread = loop.thread else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// Queues an event; cheap and non-blocking, callable from backend threads.
    public func post(_ event: Event) {
        loop.lock.withLock {
            guard !loop.stopping, !loop.observers.isEmpty else { return }
            loop.queue.append(event)
            loop.lock.broadcast()
        }
    }

    /// Drops all observers and waits for the thread to finish; on the event thread itself
    /// (from an observer) it returns at once and no later call is made. `deliveringQueued`: the
    /// events posted before the stop are delivered first (a handle destroyed right after a call
    /// that posted one, as stop then destroy, still tells its observers), except from the event
    /// thread itself, which cannot wait for its own calls.
    public func stop(deliveringQueued: Bool = false) {
        let running: pthread_t? = loop.lock.withLock {
            loop.stopping = true
            loop.draining = deliveringQueued && !isEventThread
            if !loop.draining { loop.observers.removeAll() }
            loop.lock.broadcast()
            defer { loop.thread = nil }
            return loop.thread
        }
        if let running { joinUnlessCurrent(running) }
        loop.lock.withLock { loop.observers.removeAll() }
    }
}

/// Process-wide source of registration IDs: never 0, never reused.
final class IDSource: @unchecked Sendable {
    static let shared = IDSource()
    private let lock = ConditionLock()
    private var last: UInt64 = 0
    func next() -> UInt64 {
        lock.withLock {
            last += 1; return last
        }
    }
}
