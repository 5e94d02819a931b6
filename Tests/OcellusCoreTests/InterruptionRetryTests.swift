import Foundation
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// The retry thread of an interrupted session (behaviour §4 interruptions): tries every 250 ms
/// until an attempt says stop or the app cancels.
@Suite struct InterruptionRetryTests {
    final class Attempts: @unchecked Sendable {
        private let lock = NSCondition()
        private var count = 0
        func record() -> Int {
            lock.withLock {
                count += 1; lock.broadcast(); return count
            }
        }
        var made: Int { lock.withLock { count } }
        func wait(for wanted: Int) -> Bool {
            let deadline = Date().addingTimeInterval(5)
            return lock.withLock {
                while count < wanted { if !lock.wait(until: deadline) { return count >= wanted } }
                return true
            }
        }
    }

    @Test func itTriesAgainUntilAnAttemptSaysStop() {
        let retry = InterruptionRetry(), attempts = Attempts()
        retry.start { attempts.record() < 3 }
        #expect(attempts.wait(for: 3))
        usleep(400_000) // more than an interval: no fourth attempt came
        #expect(attempts.made == 3)
        retry.cancel()
    }

    @Test func aStartWhileRetryingAddsNoSecondThread() {
        let retry = InterruptionRetry(), attempts = Attempts(), second = Attempts()
        retry.start { attempts.record() < 2 }
        retry.start { second.record() < 100 }
        #expect(attempts.wait(for: 2))
        retry.cancel()
        #expect(second.made == 0)
        // Once the first ended, a new start runs.
        retry.start { second.record() < 1 }
        #expect(second.wait(for: 1))
        retry.cancel()
    }

    @Test func cancelWaitsForTheAttemptInProgressAndEndsTheRetries() {
        let retry = InterruptionRetry(), attempts = Attempts()
        let inAttempt = DispatchSemaphore(value: 0)
        let finished = Attempts()
        retry.start {
            _ = attempts.record()
            inAttempt.signal()
            usleep(300_000)
            _ = finished.record()
            return true
        }
        #expect(inAttempt.wait(timeout: .now() + 5) == .success)
        retry.cancel()
        #expect(finished.made == 1, "cancel returned before the attempt in progress ended")
        usleep(400_000)
        #expect(attempts.made == 1, "an attempt came after cancel")
    }
}
