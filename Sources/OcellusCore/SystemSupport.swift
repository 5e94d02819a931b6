#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutex with a condition variable, for the few places that must wait
/// (callback unregistration, event delivery). Plain pthreads: no libdispatch
/// threads ever call into host code (CPython crashes on those at exit).
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` with the lock released; call only while holding it.
    public func unlocked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_unlock(mutex)
        defer { pthread_mutex_lock(mutex) }
        return try body()
    }

    /// Waits (lock held) until signalled; returns false when `deadline` (monotonic ns) passed.
    @discardableResult
    public func wait(untilMonotonicNanoseconds deadline: UInt64? = nil) -> Bool {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return true
        }
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &time) == 0
    }

    public func broadcast() { pthread_cond_broadcast(condition) }
}

public func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Starts a pthread running `body`; returns its handle for joining.
public func startThread(_ body: @escaping () -> Void) -> pthread_t {
    final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, context)
    precondition(result == 0, "pthread_create failed: \(result)")
    return thread
}

/// Waits for `thread` to end; on that thread itself (its owner released from its own body)
/// detaches it instead, since a thread cannot join itself: it ends when its body returns.
public func joinUnlessCurrent(_ thread: pthread_t) {
    if pthread_equal(thread, pthread_self()) != 0 { pthread_detach(thread) } else { pthread_join(thread, nil) }
}

/// An environment variable's text. Bytes that are not UTF-8 are an error naming the
/// variable, never replaced: a repaired path would name another directory.
public func environmentVariable(_ name: String) throws(OcellusError) -> String? {
    guard let raw = getenv(name) else { return nil }
    guard let text = String(validatingCString: raw) else {
        throw OcellusError(.invalidArgument, "\(name) is not valid UTF-8; Ocellus takes paths and names as UTF-8 bytes")
    }
    return text
}
