import OcellusCore
import Synchronization

/// Why an output dropped a frame (the same reasons for picture and depth outputs).
public enum FrameDropReason: Int32, Sendable, CaseIterable {
    case late = 0, outOfBuffers = 1, discontinuity = 2, corrupt = 3
}

/// The drop rules every output applies to its stream's frames, and its counters. A frame
/// that arrives too old (more than three frame intervals, as when a handler was slow) is
/// late; gaps in the sequence count as out of buffers when deliveries were further apart
/// than a frame interval (this output held the stream up), else as discontinuities at the
/// source. The stream thread is the only writer; counters are read from any thread.
final class DeliveryAccounting: @unchecked Sendable {
    private let delivered = Atomic<UInt64>(0)
    private let lateDrops = Atomic<UInt64>(0), bufferDrops = Atomic<UInt64>(0)
    private let discontinuityDrops = Atomic<UInt64>(0), corruptDrops = Atomic<UInt64>(0)
    // Touched only by the stream thread.
    private var lastSequence: UInt64?
    private var lastArrival: UInt64 = 0
    private let interval = Atomic<UInt64>(33_333_333)
    /// The stream's frame interval, set by the session while the stream thread reads it.
    var frameInterval: UInt64 {
        get { interval.load(ordering: .relaxed) }
        set { interval.store(newValue, ordering: .relaxed) }
    }

    var deliveredFrames: UInt64 { delivered.load(ordering: .relaxed) }

    func dropped(_ reason: FrameDropReason) -> UInt64 {
        switch reason {
        case .late: lateDrops.load(ordering: .relaxed)
        case .outOfBuffers: bufferDrops.load(ordering: .relaxed)
        case .discontinuity: discontinuityDrops.load(ordering: .relaxed)
        case .corrupt: corruptDrops.load(ordering: .relaxed)
        }
    }

    func count(_ reason: FrameDropReason, _ amount: UInt64 = 1) {
        switch reason {
        case .late: lateDrops.wrappingAdd(amount, ordering: .relaxed)
        case .outOfBuffers: bufferDrops.wrappingAdd(amount, ordering: .relaxed)
        case .discontinuity: discontinuityDrops.wrappingAdd(amount, ordering: .relaxed)
        case .corrupt: corruptDrops.wrappingAdd(amount, ordering: .relaxed)
        }
    }

    func countDelivered() { delivered.wrappingAdd(1, ordering: .relaxed) }

    /// Counts the frames missing before the frame numbered `sequence`, and tells whether that
    /// frame, captured at `timestamp`, is itself late.
    func admit(sequence: UInt64, timestamp: UInt64, arrival: UInt64) -> Bool {
        if let last = lastSequence, sequence > last + 1 {
            let heldUp = arrival - lastArrival > frameInterval + frameInterval / 2
            count(heldUp ? .outOfBuffers : .discontinuity, sequence - last - 1)
        }
        (lastSequence, lastArrival) = (sequence, arrival)
        return !(arrival > timestamp && arrival - timestamp > 3 * frameInterval)
    }
}
