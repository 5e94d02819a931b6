import OcellusCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Frames of a capture session for one consumer (behaviour §4): the camera's format
/// (zero-copy) or a pinned pixel format and size (converted), at a capped rate.
///
/// Frames are never queued in Ocellus: each is handed over while the camera's buffer is
/// held — on the stream thread, or on the output's own thread when the stream feeds other
/// outputs too (`FrameHandOff`) — so the queue is bounded by the backend's few buffers. A
/// frame that arrives too old (more than three frame intervals, as when a handler was slow),
/// or while the output's own thread still delivers the one before, is dropped as late; gaps
/// in the sequence are counted as out of buffers when deliveries were further apart than a
/// frame interval (this output held the stream up), else as discontinuities at the source
/// (`DeliveryAccounting`).
public final class VideoDataOutput: FrameOutput, @unchecked Sendable {
    public typealias DropReason = FrameDropReason

    /// nil: whatever the camera runs with.
    public var pixelFormat: FourCC?
    public var width: UInt32?
    public var height: UInt32?
    /// Frames closer together than this rate allows are skipped for this output. Set from any
    /// thread, also while frames flow.
    public var maximumFrameRate: FrameRate? {
        get { cap.withLock { $0 } }
        set {
            cap.withLock { $0 = newValue }
            let interval = newValue.map { $0.numerator > 0 ? $0.interval : 0 } ?? 0
            capInterval.store(interval, ordering: .relaxed)
        }
    }
    private let cap = Locked<FrameRate?>(nil)
    /// The cap as a frame interval (0: none), what the stream thread reads.
    private let capInterval = Atomic<UInt64>(0)
    /// Clockwise degrees the output's pixels are turned (behaviour §3 connection angle). Costly
    /// (every frame is converted): rotating the display layer by the coordinator's preview
    /// angle is free. Takes effect at the next commit or start.
    public private(set) var videoRotationAngle = 0
    /// Whether the output's pixels are flipped about the vertical axis (after rotation).
    /// nil, the default, delivers the camera's pixels unflipped, keeping the zero-copy
    /// path: the behaviour §4 mirroring defaults (front and external cameras mirror) are for
    /// the preview, which flips for free (`RotationCoordinator.mirrorsByDefault`).
    public var isVideoMirrored: Bool?
    /// YUV formats (NV12, I420, YUYV, UYVY) in full range (0–255) instead of video range (luma
    /// 16–235, chroma 16–240, what OpenCV's `COLOR_YUV2BGR_*` codes expect), whatever the camera
    /// sends. RGB is always full range and GREY full-range luma. Takes effect at the next commit or start.
    public var yuvFullRange = false

    /// Pins the size (0x0: the camera's); both or neither.
    public func pinSize(_ width: UInt32, _ height: UInt32) throws(OcellusError) {
        guard (width == 0) == (height == 0) else { throw OcellusError(.invalidArgument, "give both width and height, or neither") }
        (self.width, self.height) = width == 0 ? (nil, nil) : (width, height)
    }

    /// Right angles can be applied to every pixel format but MJPEG passthrough (compressed).
    public func isVideoRotationAngleSupported(_ degrees: Int) -> Bool {
        degrees % 90 == 0 && (degrees % 360 == 0 || pixelFormat != .mjpeg)
    }

    public func setVideoRotationAngle(_ degrees: Int) throws(OcellusError) {
        guard isVideoRotationAngleSupported(degrees) else {
            throw OcellusError(
                .invalidArgument,
                degrees % 90 != 0
                    ? "rotation must be a multiple of 90 degrees, not \(degrees)"
                    : "an MJPEG output cannot be rotated (it is the camera's compressed data)")
        }
        videoRotationAngle = ((degrees % 360) + 360) % 360
    }

    /// The newest frame, for callers that pull (`LatestFrame`); off until first used.
    public let latest = LatestFrame()
    /// The thread that last delivered a frame (pthread_t bits): a pull from there would wait for itself.
    private let deliveringThread = Atomic<UInt>(0)

    /// True on the thread that delivers this output's frames (its stream thread).
    public var isStreamThread: Bool { deliveringThread.load(ordering: .relaxed) == UInt(pthread_self()) }
    // Touched only by the stream thread, in `deliver`.
    private var lastDelivery: UInt64 = 0
    /// The plan the frames being delivered were converted by: kept until the output's thread is
    /// done with them, since a conversion's frame is a view into its converter's buffer.
    private var planInUse = DeliveryPlan()
    /// How the session wants this output's frames converted, published whole (`publish`), and
    /// how many times it was: the stream thread takes the plan again only when that changed.
    private let plan = Locked(DeliveryPlan())
    private let planVersion = Atomic<UInt64>(0)
    /// The newest plan the stream thread took, and its version.
    private var planTaken = DeliveryPlan()
    private var planTakenVersion: UInt64 = 0
    /// Set by outputs that convert frames themselves (metadata, photo, movie): they get the
    /// camera's frame with the window in its `region`, and their size does not bound the zoom.
    public var convertsFramesItself = false
    /// Whether Center Stage frames the stream feeding this output now (a recording of compressed
    /// camera data that starts then is encoded again, so that it follows the window).
    public var isFramed: Bool { plan.withLock { $0 }.framing?.isEngaged == true }

    /// Replaces how frames are converted, in one step: the stream thread takes the plan once per
    /// frame, so that a commit while frames flow (an output added or removed beside this one)
    /// never changes a converter, window or crop under a frame being converted.
    func publish(_ next: DeliveryPlan) {
        plan.withLock { $0 = next }
        planVersion.add(1, ordering: .releasing)
    }

    public init(pixelFormat: FourCC? = nil, width: UInt32? = nil, height: UInt32? = nil) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
    }

    /// Thins frames to the rate cap and converts them to what the output asked for.
    override func deliver(
        _ frame: UnsafePointer<CameraFrame>, arrival: UInt64, isolated: Bool = false,
        lender: (any CameraBufferLending)? = nil
    ) {
        // The version first: a plan published meanwhile is taken now and again next frame.
        let version = planVersion.load(ordering: .acquiring)
        if version != planTakenVersion {
            planTaken = self.plan.withLock { $0 }
            planTakenVersion = version
        }
        let plan = planTaken
        let converter = plan.converter
        guard admits(frame, arrival: arrival) else {
            converter?.skip(frame.pointee, late: true) // a decoder behind sheds load until a key frame
            return
        }
        if plan !== planInUse { planInUse = plan } // admitted: the output's thread is done with the last frame
        if let reason = converter?.keyFrameWait(before: frame.pointee) {
            accounting.count(reason) // still catching up, or the stream's first key frame not seen yet
            return
        }
        // Thinned only when the stream runs faster than the cap (a stream at the cap is never
        // thinned by jitter), on a schedule a quarter interval lenient.
        let interval = capInterval.load(ordering: .relaxed)
        if interval > 0 {
            if frameInterval < interval - interval / 10 {
                let timestamp = frame.pointee.timestampNanoseconds
                guard lastDelivery == 0 || timestamp + interval / 4 >= lastDelivery + interval else {
                    converter?.skip(frame.pointee, late: false)
                    return
                }
                // The next slot, or a fresh start after a long pause.
                let resync = lastDelivery == 0 || timestamp >= lastDelivery + 2 * interval
                lastDelivery = resync ? timestamp : lastDelivery + interval
            }
        }
        // Framed: the frame carries the window (a copy of the record, its bytes untouched).
        if let region = plan.framing?.region(at: frame.pointee.timestampNanoseconds) {
            var framed = frame.pointee
            framed.region = region
            withUnsafePointer(to: framed) { convertAndHand(over: $0, converter: converter ?? plan.framedConverter, isolated: isolated, lender: lender) }
        } else {
            convertAndHand(over: frame, converter: converter, isolated: isolated, lender: lender)
        }
    }

    private func convertAndHand(
        over frame: UnsafePointer<CameraFrame>, converter: (any FrameConverting)?, isolated: Bool,
        lender: (any CameraBufferLending)?
    ) {
        if let converter {
            guard let converted = converter.convert(frame.pointee) else {
                accounting.count(.corrupt)
                return
            }
            withUnsafePointer(to: converted) { hand(over: $0, isolated: isolated, lender: nil, ownsBytes: true) }
        } else {
            hand(over: frame, isolated: isolated, lender: lender, ownsBytes: false)
        }
    }

    private func hand(over ready: UnsafePointer<CameraFrame>, isolated: Bool, lender: (any CameraBufferLending)?, ownsBytes: Bool) {
        deliveringThread.store(UInt(pthread_self()), ordering: .relaxed)
        if latest.isEnabled { latest.store(ready.pointee) }
        handOver(ready, isolated: isolated, lender: lender, ownsBytes: ownsBytes)
    }
}

/// How a session has an output's frames converted: the converter when the stream's format or
/// size is not the output's, and Center Stage's window with, for an output otherwise given the
/// camera's pixels as they are, the converter that crops them while the window frames. Never
/// changed once made: a new configuration publishes a new plan.
final class DeliveryPlan: @unchecked Sendable {
    let converter: (any FrameConverting)?
    let framedConverter: (any FrameConverting)?
    let framing: FramingWindow?

    init(converter: (any FrameConverting)? = nil, framedConverter: (any FrameConverting)? = nil, framing: FramingWindow? = nil) {
        (self.converter, self.framedConverter, self.framing) = (converter, framedConverter, framing)
    }
}
