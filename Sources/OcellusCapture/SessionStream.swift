import OcellusCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One camera stream of a running session and the outputs it feeds: the picture stream (video
/// outputs, and the depth outputs when the camera's picture is its depth) or the depth stream
/// beside it — one type, used once for each. On its thread it takes each frame to its outputs,
/// each on a thread of its own when there are several (`FrameHandOff`), and re-reads which
/// outputs those are only after a commit, not for every frame.
final class SessionStream: @unchecked Sendable {
    /// The session's commits, counted: the stream thread compares one load per frame.
    final class Commits: Sendable {
        let count = Atomic<UInt64>(0)
    }

    private let commits: Commits
    /// The outputs of the configuration committed now that this stream feeds (takes the session's lock).
    private let committedOutputs: () -> [FrameOutput]
    /// The picture stream's stall watch (the depth stream has none: the picture's says it all).
    private let watchdog: StallWatchdog?
    /// Told when the stream ended on its own, on the stream's thread.
    private let failed: (OcellusError, SessionStream) -> Void
    /// Set once `open` returns, before the session publishes the stream.
    private var stream: (any CameraStream)?
    // The stream thread's own: its copy of the outputs, the commit it is from, and who it is.
    private var outputs: [FrameOutput] = []
    private var outputsCommit = UInt64.max
    /// The outputs' corrupt drops after the last frame (or commit): one sum a frame, not two.
    private var corruptSeen: UInt64 = 0
    private let thread = Atomic<UInt>(0)
    private let stopped = Atomic<Bool>(false)

    init(
        commits: Commits, committedOutputs: @escaping () -> [FrameOutput], watchdog: StallWatchdog?,
        failed: @escaping (OcellusError, SessionStream) -> Void
    ) {
        self.commits = commits
        self.committedOutputs = committedOutputs
        self.watchdog = watchdog
        self.failed = failed
    }

    /// Opens the camera's stream in `format` at `rate`; frames flow from then on.
    func open(_ opener: any CameraStreamOpening, camera: Device, format: VideoFormat, rate: FrameRate) throws(OcellusError) {
        // Unowned: this outlives the camera stream, which `stop` (or deinit) joins.
        stream = try opener.openStream(for: camera, format: format, frameRate: rate) { [unowned(unsafe) self] event in
            switch event {
            case .frame(let frame, let lender): self.deliver(frame, lender: lender)
            case .failed(let error):
                // Its thread ends, and a later thread may get the same id.
                self.thread.store(0, ordering: .relaxed)
                self.failed(error, self)
            }
        }
    }

    deinit { stop() }

    /// The format the camera streams in.
    var format: VideoFormat? { stream?.format }

    /// True on the stream's thread (once it delivered a frame).
    var isStreamThread: Bool { thread.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Stops the camera stream (not from its thread) and returns after the outputs' last handler
    /// calls. Once: later calls return at once.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stream?.stop()
        for output in outputs { output.waitForDelivery() } // the stream thread is gone: its copy is ours
    }

    @inline(__always)
    private func deliver(_ frame: UnsafePointer<CameraFrame>, lender: (any CameraBufferLending)?) {
        let arrival = monotonicNanoseconds()
        watchdog?.frameArrived(at: arrival)
        let seen = commits.count.load(ordering: .acquiring)
        if seen != outputsCommit {
            thread.store(UInt(pthread_self()), ordering: .relaxed)
            (outputs, outputsCommit) = (committedOutputs(), seen)
            corruptSeen = corruptDrops
        }
        // A frame short of what its format claims is dropped before anything reads it; one that
        // every output dropped as undecodable is not usable either (one passed on as it is, or
        // dropped as late, is): both are the watchdog's to judge.
        guard frame.pointee.holdsItsPicture else {
            for output in outputs { output.accounting.count(.corrupt) }
            corruptSeen &+= UInt64(outputs.count)
            watchdog?.deliveryFinished(usable: false)
            return
        }
        let isolated = outputs.count > 1
        // In place and unretained: only this thread changes the array, which holds the outputs.
        outputs.withUnsafeBufferPointer { outputs in
            for index in outputs.indices {
                Unmanaged.passUnretained(outputs[index])._withUnsafeGuaranteedRef {
                    $0.deliver(frame, arrival: arrival, isolated: isolated, lender: lender)
                }
            }
        }
        guard let watchdog else { return }
        let corrupt = corruptDrops
        let dropped = corrupt &- corruptSeen
        corruptSeen = corrupt
        watchdog.deliveryFinished(usable: outputs.isEmpty || dropped < UInt64(outputs.count))
    }

    /// The outputs' corrupt drops so far (decoding happens on this thread, so a frame's count
    /// has landed when its delivery returns).
    private var corruptDrops: UInt64 {
        outputs.withUnsafeBufferPointer { outputs in // unretained, as `deliver` reads them
            var total: UInt64 = 0
            for index in outputs.indices {
                total &+= Unmanaged.passUnretained(outputs[index])._withUnsafeGuaranteedRef { $0.accounting.dropped(.corrupt) }
            }
            return total
        }
    }
}
