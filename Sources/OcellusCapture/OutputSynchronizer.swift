import OcellusCore
import Synchronization

/// Two frames captured at the same instant, both valid during the call: a picture and its
/// depth map, or the pictures of two cameras.
public struct SynchronizedPair {
    /// The frame of the synchronizer's first output (the picture, beside a depth map).
    public let first: CameraFrame
    /// The frame of its second output (the depth map, or the other camera's picture).
    public let second: CameraFrame
}

/// Pairs two outputs' frames whose capture times match within half the shorter frame interval
/// (the faster stream's), and hands each pair to one handler (behaviour §4, like
/// AVCaptureDataOutputSynchronizer): a video data output with a depth data output, or the video
/// outputs of two cameras (a stereo pair of webcams, a room camera beside a face camera). Capture
/// times are the kernel's monotonic clock, one clock for every camera. The tolerance is what
/// makes every frame of the slower stream find its partner when the two run at different rates;
/// frames that find none are counted as unmatched, never queued.
///
/// While synchronized, the outputs' frames go here instead of their own handlers. The
/// frame that arrives first waits, copied into storage reused from frame to frame (no
/// allocation per frame once sizes settle), for its partner from the other stream; the
/// pair is delivered on the thread of the one that completes it, outside the lock, one
/// pair at a time (a pair completes only on the thread whose side is not waiting).
public final class OutputSynchronizer: @unchecked Sendable {
    public enum Side: Int, Sendable { case first = 0, second = 1 }

    public let outputs: (first: FrameOutput, second: FrameOutput)
    private let handler = HandlerSlot<SynchronizedPair>()
    private let lock = ConditionLock()
    /// Two copies per side: the frame of a side waiting for its partner goes to `next[side]`,
    /// and taking it for a pair switches that side to its other copy, so the copy being
    /// delivered (outside the lock, on the other side's thread) is never overwritten — only
    /// that thread, busy delivering, could take the next one.
    private let copies = [[RetainedFrame(), RetainedFrame()], [RetainedFrame(), RetainedFrame()]]
    private var next = [0, 0]
    /// At most one side waits at a time.
    private var isWaiting = [false, false]
    private let pairs = Atomic<UInt64>(0)
    private let unmatchedFirst = Atomic<UInt64>(0), unmatchedSecond = Atomic<UInt64>(0)

    /// Takes over both outputs' deliveries (their own handlers are replaced) until `detach`.
    public convenience init(_ first: FrameOutput, _ second: FrameOutput) {
        self.init(pairing: first, second)
        attach()
    }

    /// The synchronizer of the two outputs, not yet taking their frames (`attach` does): its owner
    /// can claim the outputs first without waiting on a delivery in flight.
    public init(pairing first: FrameOutput, _ second: FrameOutput) {
        outputs = (first, second)
    }

    /// Takes over both outputs' deliveries; replacing a handler waits for a call in flight.
    public func attach() {
        outputs.first.frameHandler = { [unowned(unsafe) self] frame in self.arrived(frame, from: .first) }
        outputs.second.frameHandler = { [unowned(unsafe) self] frame in self.arrived(frame, from: .second) }
    }

    /// A picture and its depth map.
    public convenience init(video: VideoDataOutput, depth: DepthDataOutput) { self.init(video, depth) }

    /// Gives the outputs back (with no handler); waits for a delivery in flight.
    public func detach() {
        outputs.first.frameHandler = nil
        outputs.second.frameHandler = nil
    }

    deinit { detach() }

    /// Called with each pair on a stream thread; replacing it waits for a call in flight
    /// (except from inside it), as outputs' handlers do.
    public var pairHandler: ((SynchronizedPair) -> Void)? {
        get { handler.current }
        set { handler.replace(with: newValue) }
    }

    public var isDeliveringThread: Bool { handler.isCallingThread }

    public var deliveredPairs: UInt64 { pairs.load(ordering: .relaxed) }

    /// Frames of `side` that found no partner.
    public func unmatchedFrames(_ side: Side) -> UInt64 {
        side == .first ? unmatchedFirst.load(ordering: .relaxed) : unmatchedSecond.load(ordering: .relaxed)
    }

    private func countUnmatched(_ side: Side) {
        if side == .first { unmatchedFirst.wrappingAdd(1, ordering: .relaxed) } else { unmatchedSecond.wrappingAdd(1, ordering: .relaxed) }
    }

    /// Half the shorter of the two streams' frame intervals.
    private var tolerance: UInt64 { min(outputs.first.frameInterval, outputs.second.frameInterval) / 2 }

    func arrived(_ frame: CameraFrame, from side: Side) {
        let other = side == .first ? Side.second : .first
        lock.withLock {
            if isWaiting[other.rawValue] {
                let partner = copies[other.rawValue][next[other.rawValue]].frame
                let (now, then) = (frame.timestampNanoseconds, partner.timestampNanoseconds)
                if (now > then ? now - then : then - now) <= tolerance {
                    isWaiting[other.rawValue] = false
                    next[other.rawValue] ^= 1
                    let pair =
                        side == .first
                        ? SynchronizedPair(first: frame, second: partner)
                        : SynchronizedPair(first: partner, second: frame)
                    lock.unlocked { handler.call(pair) }
                    pairs.wrappingAdd(1, ordering: .relaxed)
                    return
                }
                if then < now {
                    // The waiting frame is older than this one: nothing later can match it.
                    isWaiting[other.rawValue] = false
                    countUnmatched(other)
                } else {
                    // The other stream is already past this frame's instant.
                    countUnmatched(side)
                    return
                }
            }
            if isWaiting[side.rawValue] { countUnmatched(side) } // its partner never came
            copies[side.rawValue][next[side.rawValue]].store(frame)
            isWaiting[side.rawValue] = true
        }
    }
}
