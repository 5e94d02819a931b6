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

    private let lock = ConditionLock()
    private var observers: [(id: UInt64, body: Observer)] = []
    private var queue: [Event] = []
    private var queueHead = 0
    private var inFlight: UInt64 = 0
    private var stopping = false
    private var thread: pthread_t?
    /// Set when `stop` runs on the event thread itself (an observer destroying its owner):
    /// the thread then holds the object until its loop has unwound.
    private var keepAlive: EventThread?
    public init() {}

    deinit { shutdown(fromDeinit: true) }

    public func addObserver(_ body: @escaping Observer) -> UInt64 {
        let id = IDSource.shared.next()
        lock.withLock {
            observers.append((id, body))
            if thread == nil && !stopping {
                thread = startThread { [unowned self] in
                    self.run()
                    let last = self.lock.withLock { () -> EventThread? in defer { self.keepAlive = nil }; return self.keepAlive }
                    withExtendedLifetime(last) {}
                }
            }
        }
        return id
    }

    /// Returns false when `id` is not registered.
    @discardableResult
    public func removeObserver(_ id: UInt64) -> Bool {
        lock.withLock {
            guard let index = observers.firstIndex(where: { $0.id == id }) else { return false }
            observers.remove(at: index)
            if !isEventThread {
                while inFlight == id { lock.wait() }
            }
            return true
        }
    }

    public var isEventThread: Bool {
        guard let thread else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// Queues an event; cheap and non-blocking, callable from backend threads.
    public func post(_ event: Event) {
        lock.withLock {
            guard !stopping, !observers.isEmpty else { return }
            queue.append(event)
            lock.broadcast()
        }
    }

    /// Drops all observers and waits for the thread to finish; on the event thread itself
    /// (from an observer) it returns at once and no later call is made.
    public func stop() { shutdown(fromDeinit: false) }

    private func shutdown(fromDeinit: Bool) {
        let joinable: pthread_t? = lock.withLock {
            stopping = true
            observers.removeAll()
            lock.broadcast()
            let current = thread
            thread = nil
            return current
        }
        if let joinable, pthread_equal(joinable, pthread_self()) == 0 {
            pthread_join(joinable, nil)
        } else if let joinable {
            if !fromDeinit { lock.withLock { keepAlive = self } }
            pthread_detach(joinable)
        }
    }

    private func run() {
        lock.withLock {
            while true {
                while queueHead == queue.count && !stopping { lock.wait() }
                if stopping { return }
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
                    if stopping { return }
                }
            }
        }
    }
}

/// Process-wide source of registration IDs: never 0, never reused.
final class IDSource: @unchecked Sendable {
    static let shared = IDSource()
    private let lock = ConditionLock()
    private var last: UInt64 = 0
    func next() -> UInt64 { lock.withLock { last += 1; return last } }
}
