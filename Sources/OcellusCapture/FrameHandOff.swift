import OcellusCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// How an output's frames reach its handler, the same for picture and depth outputs. While the
/// output is its stream's only consumer, on the stream thread (nothing else to hold up). When the
/// stream feeds several outputs (the session says: `isolated`), on a thread of the output's own,
/// one frame at a time, so that a slow handler holds up only its own output: while its thread is
/// busy its frames drop as late, and the other outputs go on. The frame is not copied when the
/// output owns its bytes (a conversion's buffer) or the stream lends its buffer (V4L2's do:
/// `CameraBufferLending`); frames of streams that cannot lend (PipeWire's) are copied, into
/// storage reused from frame to frame.
final class FrameHandOff: @unchecked Sendable {
    private let handler: HandlerSlot<UnsafePointer<CameraFrame>>
    private let accounting: DeliveryAccounting
    /// Started with the first isolated frame (stream thread only).
    private var worker: Worker?

    /// The output's handler and counters (the output keeps them too: read per frame, not through here).
    init(handler: HandlerSlot<UnsafePointer<CameraFrame>>, accounting: DeliveryAccounting) {
        self.handler = handler
        self.accounting = accounting
    }

    deinit { worker?.finish() }

    /// Whether a frame can be handed over now: not while the output's thread still delivers one
    /// (also just after the output stopped being isolated: one handler call at a time). On the
    /// stream thread, before a conversion (whose buffer the output's thread may still be reading).
    var canTakeFrame: Bool { worker?.isIdle ?? true }

    /// Hands `ready` over (on the stream thread, after `canTakeFrame` said yes). `ownsBytes`: the
    /// frame's bytes are the output's own and stay untouched until its next frame.
    func handOver(_ ready: UnsafePointer<CameraFrame>, isolated: Bool, lender: (any CameraBufferLending)?, ownsBytes: Bool) {
        guard isolated, handler.isSet else {
            handler.call(ready)
            accounting.countDelivered()
            return
        }
        if worker == nil { worker = Worker(handler: handler, accounting: accounting) }
        worker!.post(ready, lender: lender, ownsBytes: ownsBytes)
    }

    /// Returns once a frame handed to the output's thread has been delivered (stopping sessions).
    /// Not from that thread.
    func waitForDelivery() { worker?.waitUntilIdle() }

    /// The output's delivery thread: one frame at a time, never a queue.
    private final class Worker: @unchecked Sendable {
        private let handler: HandlerSlot<UnsafePointer<CameraFrame>>
        private let accounting: DeliveryAccounting
        private let lock = ConditionLock()
        private let idle = Atomic<Bool>(true)
        // Under the lock: the frame posted and not yet delivered, and the loan of its buffer.
        private var frame: CameraFrame?
        private var loan: (lender: any CameraBufferLending, token: UInt)?
        private var finishing = false
        /// The copy a frame from a stream that cannot lend is delivered from.
        private let copy = RetainedFrame()

        init(handler: HandlerSlot<UnsafePointer<CameraFrame>>, accounting: DeliveryAccounting) {
            self.handler = handler
            self.accounting = accounting
            pthread_detach(startThread { [self] in run() })
        }

        var isIdle: Bool { idle.load(ordering: .acquiring) }

        func post(_ ready: UnsafePointer<CameraFrame>, lender: (any CameraBufferLending)?, ownsBytes: Bool) {
            var posted = ready.pointee
            var borrowed: (lender: any CameraBufferLending, token: UInt)?
            if !ownsBytes { // the output's own bytes need neither a loan nor a copy
                if let lender, let token = lender.borrowDeliveringBuffer() {
                    borrowed = (lender, token)
                } else {
                    copy.store(posted) // idle: the thread is not reading the copy
                    posted = copy.frame
                }
            }
            idle.store(false, ordering: .releasing)
            lock.withLock {
                (frame, loan) = (posted, borrowed)
                lock.broadcast()
            }
        }

        func waitUntilIdle() {
            lock.withLock { while frame != nil { lock.wait() } }
        }

        /// The thread ends once nothing is posted; the worker goes with it.
        func finish() {
            lock.withLock {
                finishing = true
                lock.broadcast()
            }
        }

        private func run() {
            while true {
                let (next, nextLoan) = lock.withLock { () -> (CameraFrame?, (lender: any CameraBufferLending, token: UInt)?) in
                    while frame == nil && !finishing { lock.wait() }
                    return (frame, loan)
                }
                guard let next else { return }
                withUnsafePointer(to: next) { handler.call($0) }
                accounting.countDelivered()
                if let nextLoan { nextLoan.lender.returnBuffer(nextLoan.token) }
                lock.withLock {
                    (frame, loan) = (nil, nil)
                    idle.store(true, ordering: .releasing)
                    lock.broadcast()
                }
            }
        }
    }
}
