import Synchronization

/// A picture and the depth map captured at the same instant, both valid during the call.
public struct SynchronizedPair {
    public let video: CameraFrame
    public let depth: CameraFrame
}

/// Pairs a video data output's frames with a depth data output's maps whose capture times
/// match within half the shorter frame interval (the faster stream's), and hands each pair
/// to one handler (behaviour §4, like AVCaptureDataOutputSynchronizer). The tolerance is
/// what makes every frame of the slower stream find its partner when the two run at
/// different rates; frames that find none are counted as unmatched, never queued.
///
/// While synchronized, the outputs' frames go here instead of their own handlers. The
/// frame that arrives first waits, copied into storage reused from frame to frame (no
/// allocation per frame once sizes settle), for its partner from the other stream; the
/// pair is delivered on the thread of the one that completes it, outside the lock, one
/// pair at a time (a pair completes only on the thread whose side is not waiting).
public final class OutputSynchronizer: @unchecked Sendable {
    public enum Side: Int, Sendable { case video = 0, depth = 1 }

    public let videoOutput: VideoDataOutput
    public let depthOutput: DepthDataOutput
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
    private let unmatchedVideo = Atomic<UInt64>(0), unmatchedDepth = Atomic<UInt64>(0)

    /// Takes over both outputs' deliveries (their own handlers are replaced) until `detach`.
    public init(video: VideoDataOutput, depth: DepthDataOutput) {
        videoOutput = video
        depthOutput = depth
        video.frameHandler = { [unowned(unsafe) self] frame in self.arrived(frame, from: .video) }
        depth.frameHandler = { [unowned(unsafe) self] frame in self.arrived(frame, from: .depth) }
    }

    /// Gives the outputs back (with no handler); waits for a delivery in flight.
    public func detach() {
        videoOutput.frameHandler = nil
        depthOutput.frameHandler = nil
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
        side == .video ? unmatchedVideo.load(ordering: .relaxed) : unmatchedDepth.load(ordering: .relaxed)
    }

    private func countUnmatched(_ side: Side) {
        if side == .video { unmatchedVideo.wrappingAdd(1, ordering: .relaxed) } else { unmatchedDepth.wrappingAdd(1, ordering: .relaxed) }
    }

    /// Half the shorter of the two streams' frame intervals.
    private var tolerance: UInt64 { min(videoOutput.frameInterval, depthOutput.frameInterval) / 2 }

    func arrived(_ frame: CameraFrame, from side: Side) {
        let other = side == .video ? Side.depth : .video
        lock.withLock {
            if isWaiting[other.rawValue] {
                let partner = copies[other.rawValue][next[other.rawValue]].frame
                let (now, then) = (frame.timestampNanoseconds, partner.timestampNanoseconds)
                if (now > then ? now - then : then - now) <= tolerance {
                    isWaiting[other.rawValue] = false
                    next[other.rawValue] ^= 1
                    let pair = side == .video ? SynchronizedPair(video: frame, depth: partner)
                                              : SynchronizedPair(video: partner, depth: frame)
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
            if isWaiting[side.rawValue] { countUnmatched(side) }   // its partner never came
            copies[side.rawValue][next[side.rawValue]].store(frame)
            isWaiting[side.rawValue] = true
        }
    }
}
