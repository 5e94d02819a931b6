#if canImport(Glibc)
import OcellusCore
import Glibc
#endif

/// What picture and depth outputs share (behaviour §4): the handler frames go to, the counts of
/// frames delivered and dropped (`DeliveryAccounting`), and how a frame reaches the handler — on
/// the stream thread, or on the output's own thread while the stream feeds other outputs too
/// (`FrameHandOff`). A session's streams feed outputs through this type alone.
public class FrameOutput: @unchecked Sendable {
    private let handler: HandlerSlot<UnsafePointer<CameraFrame>>
    let accounting: DeliveryAccounting
    private let handOff: FrameHandOff

    init() {
        (handler, accounting) = (HandlerSlot(), DeliveryAccounting())
        handOff = FrameHandOff(handler: handler, accounting: accounting)
    }

    /// Called with views valid during the call, one frame at a time: on the session's stream
    /// thread, or on the output's own thread while the stream feeds other outputs too.
    /// Replacing it waits for a call in flight, except from inside the handler (`HandlerSlot`).
    public var frameHandler: ((CameraFrame) -> Void)? {
        get { handler.valueHandler }
        set { handler.valueHandler = newValue }
    }
    /// The same handler taking the frame by reference (the C ABI's view: no copy of the record).
    public var frameViewHandler: ((UnsafePointer<CameraFrame>) -> Void)? {
        get { handler.current }
        set { handler.replace(with: newValue) }
    }

    /// True on the thread running this output's handler.
    public var isDeliveringThread: Bool { handler.isCallingThread }

    public var deliveredFrames: UInt64 { accounting.deliveredFrames }

    /// Frames dropped for `reason` so far.
    public func droppedFrames(_ reason: FrameDropReason) -> UInt64 { accounting.dropped(reason) }

    /// Counts a frame the handler was given and could not use (a camera JPEG that does not decode
    /// whole) as corrupt, as a failed conversion is: a session whose outputs can use none of a
    /// camera's frames stops with a reason (`StallWatchdog`). From the handler only.
    public final func countUndecodable() { accounting.count(.corrupt) }

    /// The stream's frame interval, set by the session (for lateness and pairing).
    final var frameInterval: UInt64 {
        get { accounting.frameInterval }
        set { accounting.frameInterval = newValue }
    }

    /// Called on the stream thread only; `arrival` is when the stream handed the frame over,
    /// `isolated` whether the stream feeds other outputs too, `lender` the stream's buffer lender.
    /// This base delivers the stream's frame as it is; outputs that thin, check or convert override it.
    func deliver(
        _ frame: UnsafePointer<CameraFrame>, arrival: UInt64, isolated: Bool = false,
        lender: (any CameraBufferLending)? = nil
    ) {
        guard admits(frame, arrival: arrival) else { return }
        handOver(frame, isolated: isolated, lender: lender, ownsBytes: false)
    }

    /// Whether the frame is on time and the output's thread free for it; a frame refused is
    /// counted as late. On the stream thread, before any conversion (whose buffer the output's
    /// thread may still be reading).
    final func admits(_ frame: UnsafePointer<CameraFrame>, arrival: UInt64) -> Bool {
        guard accounting.admit(sequence: frame.pointee.sequence, timestamp: frame.pointee.timestampNanoseconds, arrival: arrival),
            handOff.canTakeFrame
        else {
            accounting.count(.late)
            return false
        }
        return true
    }

    /// Hands `ready` to the handler (`FrameHandOff.handOver`). `ownsBytes`: the bytes are the
    /// output's own (a conversion's buffer) and stay untouched until its next frame.
    final func handOver(_ ready: UnsafePointer<CameraFrame>, isolated: Bool, lender: (any CameraBufferLending)?, ownsBytes: Bool) {
        handOff.handOver(ready, isolated: isolated, lender: lender, ownsBytes: ownsBytes)
    }

    /// Work the handler hands to a thread of its own (a metadata output's analysis), waited for
    /// with the deliveries: once a session has stopped, nothing its frames started calls back.
    /// It returns at once on that thread itself. Set from any thread, also while a stop waits.
    public var waitForHandedOffWork: (() -> Void)? {
        get { handedOffWork.withLock { $0 } }
        set { handedOffWork.withLock { $0 = newValue } }
    }
    private let handedOffWork = Locked<(() -> Void)?>(nil)

    /// Returns once a frame handed to the output's own thread has been delivered, and the work
    /// its handler handed on is done. Not from that thread.
    final func waitForDelivery() {
        handOff.waitForDelivery()
        waitForHandedOffWork?()
    }
}
