import OcellusCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Notices a camera that stops delivering without going away (a stuck USB camera, a
/// suspended or stopped producer) or whose frames cannot be used (every MJPEG corrupt, buffers
/// shorter than their format): no usable frame for `stallAfter` is a stall, usable frames coming
/// back end it, and a stall that lasts `giveUpAfter` more is given up on — at once when no frame
/// of the stream was ever usable, which no wait mends. The stream thread only stores a time and
/// a count per frame; a thread of the watchdog's own looks.
/// While the stream thread is delivering (an app's callback can block it for seconds, and
/// with it the camera's next buffers) the camera is not judged: a slow callback is not a
/// stalled camera.
public final class StallWatchdog: @unchecked Sendable {
    /// `undecodable`: the frames that came meanwhile and could not be used (0: none came).
    public enum Change: Sendable {
        case stalled(silentFor: UInt64, undecodable: UInt64)
        case resumed
        case gaveUp(silentFor: UInt64, undecodable: UInt64)
    }

    /// How long without a frame is a stall: ten frame intervals, within 1–3 s; before the
    /// first frame 4 s (cameras take a while to start).
    public static func stallAfter(frameInterval: UInt64, firstFrame: Bool) -> UInt64 {
        firstFrame ? 4_000_000_000 : min(3_000_000_000, max(1_000_000_000, 10 * frameInterval))
    }
    public static let giveUpAfter: UInt64 = 10_000_000_000

    /// The arrival of the last usable frame.
    private let lastFrame = Atomic<UInt64>(0)
    /// The arrival of the frame being delivered; 0 between deliveries.
    private let deliveringSince = Atomic<UInt64>(0)
    /// Frames since the last usable one that could not be used.
    private let unusableFrames = Atomic<UInt64>(0)
    private let lock = ConditionLock()
    private var thread: pthread_t?
    private var armed = false

    public init() {}

    // A watch that gave up ended its thread with no disarm after it: reclaim the thread (on the
    // watchdog's own thread when its report dropped the last reference).
    deinit { if let thread { joinUnlessCurrent(thread) } }

    /// On the stream thread, for every frame.
    @inline(__always)
    public func frameArrived(at arrival: UInt64) {
        deliveringSince.store(arrival, ordering: .relaxed)
    }

    /// On the stream thread, when the frame's outputs have had it; `usable` false when it could
    /// not be used (short of its format, or no output could decode it).
    @inline(__always)
    public func deliveryFinished(usable: Bool = true) {
        if usable {
            lastFrame.store(deliveringSince.load(ordering: .relaxed), ordering: .relaxed)
            if unusableFrames.load(ordering: .relaxed) != 0 { unusableFrames.store(0, ordering: .relaxed) }
        } else {
            unusableFrames.wrappingAdd(1, ordering: .relaxed)
        }
        deliveringSince.store(0, ordering: .relaxed)
    }

    /// Starts watching a stream at `frameInterval` (replacing any watch); `report` runs on
    /// the watchdog's thread, which ends after `.gaveUp`.
    public func arm(frameInterval: UInt64, report: @escaping @Sendable (Change) -> Void) {
        disarm()
        lastFrame.store(0, ordering: .relaxed)
        unusableFrames.store(0, ordering: .relaxed)
        let started = monotonicNanoseconds()
        lock.withLock {
            armed = true
            thread = startThread { [self] in watch(started: started, frameInterval: frameInterval, report: report) }
        }
    }

    /// Stops watching and waits for the watchdog's thread (not from a `report`).
    public func disarm() {
        let running: pthread_t? = lock.withLock {
            armed = false
            lock.broadcast()
            defer { thread = nil }
            return thread
        }
        if let running { pthread_join(running, nil) }
    }

    /// While frames flow the thread sleeps until a stall could first be due (about once a
    /// second at most, not once per frame or per poll); while stalled it looks every 100 ms,
    /// so frames coming back end the stall promptly. While a delivery is under way it looks
    /// every 100 ms, and silence counts from the last look that saw it.
    private func watch(started: UInt64, frameInterval: UInt64, report: (Change) -> Void) {
        var stalledSince: UInt64?
        var lastSeenDelivering: UInt64 = 0
        lock.withLock {
            while armed {
                let last = lastFrame.load(ordering: .relaxed)
                let now = monotonicNanoseconds()
                if deliveringSince.load(ordering: .relaxed) != 0 {
                    lastSeenDelivering = now
                    lock.wait(untilMonotonicNanoseconds: now + 100_000_000)
                    continue
                }
                let reference = max(last == 0 ? started : max(last, started), lastSeenDelivering)
                let silent = now > reference ? now - reference : 0
                let nextLook: UInt64
                if let since = stalledSince {
                    if last > since {
                        stalledSince = nil
                        lock.unlocked { report(.resumed) }
                        continue
                    }
                    if now - since >= Self.giveUpAfter {
                        let undecodable = unusableFrames.load(ordering: .relaxed)
                        lock.unlocked { report(.gaveUp(silentFor: silent, undecodable: undecodable)) }
                        return
                    }
                    nextLook = now + 100_000_000
                } else {
                    let stallAfter = Self.stallAfter(frameInterval: frameInterval, firstFrame: last == 0)
                    if silent >= stallAfter {
                        let undecodable = unusableFrames.load(ordering: .relaxed)
                        if last == 0 && undecodable > 0 {
                            lock.unlocked { report(.gaveUp(silentFor: silent, undecodable: undecodable)) }
                            return
                        }
                        stalledSince = now
                        lock.unlocked { report(.stalled(silentFor: silent, undecodable: undecodable)) }
                        continue
                    }
                    nextLook = reference + stallAfter
                }
                lock.wait(untilMonotonicNanoseconds: nextLook)
            }
        }
    }
}
