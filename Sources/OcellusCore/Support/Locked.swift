/// State that only its lock reaches (`withLock`), as Swift's `Mutex` keeps it, but on a pthread
/// mutex (`ConditionLock`): ThreadSanitizer sees pthread locking, and not the futex `Mutex` uses
/// on Linux, so every access to state under a `Mutex` looked like a race to the TSan stress.
public final class Locked<State>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var state: State

    public init(_ state: State) { self.state = state }

    public func withLock<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&state) }
    }
}
