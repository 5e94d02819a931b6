import Testing

@testable import OcellusCapture
@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The watchdog that tells a stalled camera from a slow one. Its thresholds are real time
/// (at least a second), so each test waits for the watchdog's own reports, not for time.
@Suite(.serialized) struct StallWatchdogTests {
    /// Collects reports; `next` waits for one.
    final class Reports: @unchecked Sendable {
        private let lock = ConditionLock()
        private var changes: [StallWatchdog.Change] = []

        func record(_ change: StallWatchdog.Change) {
            lock.withLock {
                changes.append(change)
                lock.broadcast()
            }
        }

        func next(within nanoseconds: UInt64) -> StallWatchdog.Change? {
            let deadline = monotonicNanoseconds() + nanoseconds
            return lock.withLock {
                while changes.isEmpty { if !lock.wait(untilMonotonicNanoseconds: deadline) && changes.isEmpty { return nil } }
                return changes.removeFirst()
            }
        }

        var count: Int { lock.withLock { changes.count } }
    }

    @Test func thresholdsFollowTheFrameRateWithinTheirBounds() {
        #expect(StallWatchdog.stallAfter(frameInterval: 33_333_333, firstFrame: false) == 1_000_000_000)
        #expect(StallWatchdog.stallAfter(frameInterval: 200_000_000, firstFrame: false) == 2_000_000_000)
        #expect(StallWatchdog.stallAfter(frameInterval: 1_000_000_000, firstFrame: false) == 3_000_000_000)
        #expect(StallWatchdog.stallAfter(frameInterval: 33_333_333, firstFrame: true) == 4_000_000_000)
    }

    @Test func silenceIsAStallAndFramesComingBackEndIt() {
        let watchdog = StallWatchdog(), reports = Reports()
        watchdog.arm(frameInterval: 33_333_333) { reports.record($0) }
        defer { watchdog.disarm() }
        let start = monotonicNanoseconds()
        watchdog.frameArrived(at: start)
        watchdog.deliveryFinished()
        guard case .stalled(let silent, let undecodable)? = reports.next(within: 5_000_000_000) else {
            Issue.record("no stall reported after a second of silence")
            return
        }
        #expect(silent >= 1_000_000_000 && monotonicNanoseconds() - start >= 1_000_000_000 && undecodable == 0)
        watchdog.frameArrived(at: monotonicNanoseconds())
        watchdog.deliveryFinished()
        guard case .resumed? = reports.next(within: 2_000_000_000) else {
            Issue.record("frames coming back did not end the stall")
            return
        }
    }

    /// Frames none of which can be used, about 30 a second, until the watchdog reports a change.
    func unusableFrames(to watchdog: StallWatchdog, until reports: Reports, forAtMost nanoseconds: UInt64) -> StallWatchdog.Change? {
        let start = monotonicNanoseconds()
        var change: StallWatchdog.Change?
        while change == nil && monotonicNanoseconds() - start < nanoseconds {
            watchdog.frameArrived(at: monotonicNanoseconds())
            watchdog.deliveryFinished(usable: false)
            change = reports.next(within: 30_000_000)
        }
        return change
    }

    /// A camera whose every frame is undecodable (corrupt MJPEG, buffers short of their format)
    /// sends frames, but none an app can have: the session is given up on at the first-frame
    /// deadline, with how many came, instead of streaming nothing for ever.
    @Test func framesNoneOfWhichIsUsableAreGivenUpOnAtTheFirstFrameDeadline() {
        let watchdog = StallWatchdog(), reports = Reports()
        let start = monotonicNanoseconds()
        watchdog.arm(frameInterval: 33_333_333) { reports.record($0) }
        defer { watchdog.disarm() }
        let change = unusableFrames(to: watchdog, until: reports, forAtMost: 8_000_000_000)
        guard case .gaveUp(_, let undecodable)? = change else {
            Issue.record("undecodable frames were not given up on: \(String(describing: change))")
            return
        }
        let waited = monotonicNanoseconds() - start
        #expect(undecodable >= 20 && waited >= 4_000_000_000 && waited < 7_000_000_000)
    }

    /// After usable frames, a run of unusable ones is a stall like silence (the app is told), and
    /// a usable frame ends it.
    @Test func unusableFramesAfterGoodOnesAreAStallThatAGoodFrameEnds() {
        let watchdog = StallWatchdog(), reports = Reports()
        watchdog.arm(frameInterval: 33_333_333) { reports.record($0) }
        defer { watchdog.disarm() }
        watchdog.frameArrived(at: monotonicNanoseconds())
        watchdog.deliveryFinished(usable: true)
        let change = unusableFrames(to: watchdog, until: reports, forAtMost: 5_000_000_000)
        guard case .stalled(_, let undecodable)? = change else {
            Issue.record("unusable frames after good ones were no stall: \(String(describing: change))")
            return
        }
        #expect(undecodable >= 10)
        watchdog.frameArrived(at: monotonicNanoseconds())
        watchdog.deliveryFinished(usable: true)
        guard case .resumed? = reports.next(within: 2_000_000_000) else {
            Issue.record("a usable frame did not end the stall")
            return
        }
    }

    @Test func aDeliveryThatTakesLongIsNotAStall() {
        let watchdog = StallWatchdog(), reports = Reports()
        watchdog.arm(frameInterval: 33_333_333) { reports.record($0) }
        watchdog.frameArrived(at: monotonicNanoseconds()) // an app's callback holds the stream thread
        let held = monotonicNanoseconds()
        while monotonicNanoseconds() - held < 1_500_000_000 { usleep(50_000) }
        #expect(reports.count == 0, "a slow callback was taken for a stalled camera")
        watchdog.deliveryFinished()
        watchdog.disarm()
    }

    @Test func disarmingStopsTheWatchAndItsThread() {
        let watchdog = StallWatchdog(), reports = Reports()
        watchdog.arm(frameInterval: 33_333_333) { reports.record($0) }
        watchdog.disarm() // joins the thread: no report can come after this
        watchdog.disarm() // twice is harmless
        #expect(reports.next(within: 0) == nil)
    }
}
