/// One plane of a frame: a view into the backend's buffer.
public struct FramePlane: Sendable {
    public let bytes: UnsafeRawBufferPointer
    public let stride: Int
    public init(bytes: UnsafeRawBufferPointer, stride: Int) {
        self.bytes = bytes
        self.stride = stride
    }
}

/// A frame as a backend delivers it: views into its buffer, valid during the
/// handler call only. Up to three planes, stored inline (no allocation per frame).
public struct CameraFrame: Sendable {
    public let pixelFormat: FourCC
    public let width: UInt32
    public let height: UInt32
    public let sequence: UInt64
    /// CLOCK_MONOTONIC nanoseconds.
    public let timestampNanoseconds: UInt64
    public let isCorrupt: Bool
    /// Full range (0–255, as JPEG) or limited (16–235, as YUV cameras send).
    public let isFullRange: Bool
    public let planeCount: Int
    /// Metres per unit of a depth map's samples (Z16: 0.001 unless the camera says otherwise;
    /// 1 for float metres); 0 for a picture.
    public let depthUnit: Float
    /// The part of the picture to deliver (Center Stage's window), in the picture's own
    /// coordinates; nil the whole picture. Conversions honour it (`FrameConverter` crops and
    /// scales to the output's size); bytes passed on as they are still hold the whole picture.
    public var region: PictureRegion?
    private let plane0: FramePlane
    private let plane1: FramePlane?
    private let plane2: FramePlane?

    public init(
        pixelFormat: FourCC, width: UInt32, height: UInt32, sequence: UInt64, timestampNanoseconds: UInt64,
        isCorrupt: Bool = false, isFullRange: Bool = false, depthUnit: Float = 0,
        planes first: FramePlane, _ second: FramePlane? = nil, _ third: FramePlane? = nil
    ) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.sequence = sequence
        self.timestampNanoseconds = timestampNanoseconds
        self.isCorrupt = isCorrupt
        self.isFullRange = isFullRange
        self.depthUnit = depthUnit
        plane0 = first
        plane1 = second
        plane2 = third
        planeCount = third != nil ? 3 : second != nil ? 2 : 1
    }

    public func plane(_ index: Int) -> FramePlane? {
        switch index {
        case 0: plane0
        case 1: plane1
        case 2: plane2
        default: nil
        }
    }

    /// Splits one contiguous buffer into the planes of `pixelFormat` (NV12: Y then interleaved UV; I420: Y, U, V).
    /// The planes of a frame laid out one after another in `bytes`, rows `stride` bytes apart
    /// (`chromaStride` for I420's chroma planes: half the luma stride when nil).
    public static func planes(
        of format: FourCC, height: UInt32, stride: Int, chromaStride: Int? = nil,
        in bytes: UnsafeRawBufferPointer
    ) -> (FramePlane, FramePlane?, FramePlane?) {
        let lumaSize = stride * Int(height)
        func slice(_ start: Int, _ count: Int, _ planeStride: Int) -> FramePlane? {
            guard start >= 0, start + count <= bytes.count else { return nil }
            return FramePlane(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<start + count]), stride: planeStride)
        }
        switch format {
        case .nv12:
            return (
                slice(0, lumaSize, stride) ?? FramePlane(bytes: bytes, stride: stride),
                slice(lumaSize, lumaSize / 2, stride), nil
            )
        case .i420:
            let chromaStride = chromaStride ?? stride / 2
            let chroma = chromaStride * Int((height + 1) / 2)
            return (
                slice(0, lumaSize, stride) ?? FramePlane(bytes: bytes, stride: stride),
                slice(lumaSize, chroma, chromaStride), slice(lumaSize + chroma, chroma, chromaStride)
            )
        default:
            return (FramePlane(bytes: bytes, stride: stride), nil, nil)
        }
    }
}

public enum CameraStreamEvent {
    /// A frame, by reference: valid during the handler call. The frame path hands this one
    /// record down to the outputs and the C ABI's view without copying it. A stream that can
    /// lend its buffers beyond the call names its `lender`.
    case frame(UnsafePointer<CameraFrame>, lender: (any CameraBufferLending)? = nil)
    /// The stream ended on its own: disconnected, daemon gone, driver error.
    case failed(OcellusError)
}

/// A running stream from one camera; `stop()` returns after the handler's last call.
public protocol CameraStream: AnyObject, Sendable {
    /// The format the stream actually runs with.
    var format: VideoFormat { get }
    func stop()
}

/// Opens camera streams for the devices of the backends it knows.
public protocol CameraStreamOpening: Sendable {
    func openStream(
        for device: Device, format: VideoFormat, frameRate: FrameRate,
        handler: @escaping (CameraStreamEvent) -> Void
    ) throws(OcellusError) -> any CameraStream
    /// After `openStream` failed `busy` because another app streams the camera in another format
    /// (a camera several apps share runs one format): that format and rate, once; else nil.
    func takeFormatInUse(of device: Device) -> (format: VideoFormat, rate: FrameRate)?
}

extension CameraStreamOpening {
    public func takeFormatInUse(of device: Device) -> (format: VideoFormat, rate: FrameRate)? { nil }
}

/// A copy of a frame that owns its bytes, for keeping a frame beyond its delivery
/// (retained C frames, photos, the recorder's queue). `store` reuses the storage when
/// it is large enough, so a copy refilled frame after frame stops allocating.
public final class RetainedFrame: @unchecked Sendable {
    public private(set) var frame: CameraFrame
    private var storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    /// An empty copy (a 0x0 frame) to `store` frames into later.
    public init() {
        frame = CameraFrame(
            pixelFormat: FourCC(rawValue: 0), width: 0, height: 0, sequence: 0, timestampNanoseconds: 0,
            planes: FramePlane(bytes: UnsafeRawBufferPointer(start: nil, count: 0), stride: 0))
    }

    public convenience init(copying source: CameraFrame) {
        self.init()
        store(source)
    }

    deinit { storage.deallocate() }

    /// Replaces the copy with `source`: its planes, back to back in one buffer.
    public func store(_ source: CameraFrame) {
        var total = 0
        for index in 0..<source.planeCount { total += source.plane(index)!.bytes.count }
        if storage.count < total {
            storage.deallocate()
            storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, total), alignment: 64)
        }
        var offset = 0
        func copy(_ index: Int) -> FramePlane? {
            guard let plane = source.plane(index) else { return nil }
            let count = plane.bytes.count
            if let base = plane.bytes.baseAddress { (storage.baseAddress! + offset).copyMemory(from: base, byteCount: count) }
            defer { offset += count }
            return FramePlane(bytes: UnsafeRawBufferPointer(rebasing: storage[offset..<offset + count]), stride: plane.stride)
        }
        let first = copy(0)!, second = copy(1), third = copy(2)
        frame = CameraFrame(
            pixelFormat: source.pixelFormat, width: source.width, height: source.height, sequence: source.sequence,
            timestampNanoseconds: source.timestampNanoseconds, isCorrupt: source.isCorrupt,
            isFullRange: source.isFullRange, depthUnit: source.depthUnit, planes: first, second, third)
        frame.region = source.region
    }
}
