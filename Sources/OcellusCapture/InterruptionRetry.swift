#if canImport(Glibc)
import OcellusCore
import Glibc
#endif

/// behaviour §4 interruptions: while a session's camera is busy (another client streams it), a
/// thread of its own tries again every 250 ms until an attempt says to stop — the camera became
/// free, another error came — or the app stops the session (`cancel`). The thread holds nothing
/// of the session but the attempt, which holds the session weakly between attempts.
final class InterruptionRetry: @unchecked Sendable {
    private let state = State()

    /// Starts retrying with `attempt` (which returns whether to try again), unless a retry
    /// already runs.
    func start(_ attempt: @escaping @Sendable () -> Bool) {
        guard state.begin() else { return }
        let thread = startThread { [state] in
            defer { state.finish() }
            while state.waitForNextAttempt() {
                guard attempt() else { return }
            }
        }
        pthread_detach(thread)
    }

    /// Stops the retries and waits for an attempt in progress.
    func cancel() { state.cancel() }

    /// Shared with the thread, so that it can outlive the session.
    private final class State: @unchecked Sendable {
        private let lock = ConditionLock()
        private var running = false
        private var cancelled = false

        func begin() -> Bool {
            lock.withLock {
                guard !running else { return false }
                (running, cancelled) = (true, false)
                return true
            }
        }

        /// Waits 250 ms; false once cancelled.
        func waitForNextAttempt() -> Bool {
            lock.withLock {
                if !cancelled { lock.wait(untilMonotonicNanoseconds: monotonicNanoseconds() + 250_000_000) }
                return !cancelled
            }
        }

        func finish() {
            lock.withLock {
                running = false; lock.broadcast()
            }
        }

        func cancel() {
            lock.withLock {
                cancelled = true
                lock.broadcast()
                while running { lock.wait() }
            }
        }
    }
}
