import OcellusCore

/// Depth maps of a capture session for one consumer (behaviour §4, depth): views of the
/// camera's 16-bit buffers (Z16, Y16, Y12: one word per pixel, 0 where the camera has no
/// depth) with the depth unit stated, or, on request (`pixelFormat = .depthMetres`), float
/// metres converted into one buffer the output reuses. Timestamps, sequence numbers and
/// drops are counted as for picture outputs (`DeliveryAccounting`).
public final class DepthDataOutput: FrameOutput, @unchecked Sendable {
    /// nil: the camera's depth format; `.depthMetres`: float32 metres.
    public var pixelFormat: FourCC?
    public private(set) var width: UInt32?
    public private(set) var height: UInt32?

    /// Pins the size (0x0: the one the session picks beside the picture); both or neither.
    /// Depth is never scaled: the camera must offer the size.
    public func pinSize(_ width: UInt32, _ height: UInt32) throws(OcellusError) {
        guard (width == 0) == (height == 0) else { throw OcellusError(.invalidArgument, "give both width and height, or neither") }
        (self.width, self.height) = width == 0 ? (nil, nil) : (width, height)
    }

    /// Whether a depth stream in `format` serves this output.
    public func isServed(by format: VideoFormat) -> Bool {
        guard format.pixelFormat.isDepthMap else { return false }
        if let wanted = pixelFormat, wanted != format.pixelFormat && wanted != .depthMetres { return false }
        guard let width, let height else { return true }
        return format.offers(width: width, height: height)
    }

    /// Metres per unit when the camera does not say (its frames' `depthUnit` is 0): millimetres.
    static let defaultDepthUnit: Float = 0.001
    /// The float conversion's buffer, grown when a larger map comes (never per frame).
    private var metres = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)

    public init(pixelFormat: FourCC? = nil) {
        self.pixelFormat = pixelFormat
    }

    deinit { metres.deallocate() }

    /// Checks the map's size, states its depth unit and converts it to metres when asked.
    override func deliver(
        _ map: UnsafePointer<CameraFrame>, arrival: UInt64, isolated: Bool = false,
        lender: (any CameraBufferLending)? = nil
    ) {
        guard admits(map, arrival: arrival) else { return }
        let frame = map.pointee
        guard let samples = frame.plane(0), frame.pixelFormat.isDepthMap else { return }
        let (width, height) = (Int(frame.width), Int(frame.height))
        guard samples.bytes.count >= samples.stride * max(0, height - 1) + width * 2, samples.stride >= width * 2 else {
            accounting.count(.corrupt) // a short buffer (the camera was pulled mid-frame)
            return
        }
        let depthUnit = frame.depthUnit > 0 ? frame.depthUnit : Self.defaultDepthUnit
        let ready: CameraFrame
        let converts = pixelFormat == .depthMetres
        if converts {
            if metres.count < width * height {
                metres.deallocate()
                metres = .allocate(capacity: width * height)
            }
            let unit = depthUnit
            // 0 (no depth) stays 0.
            for row in 0..<height {
                let source = (samples.bytes.baseAddress! + row * samples.stride).assumingMemoryBound(to: UInt16.self)
                let target = metres.baseAddress! + row * width
                for column in 0..<width { target[column] = Float(UInt16(littleEndian: source[column])) * unit }
            }
            let bytes = UnsafeRawBufferPointer(start: metres.baseAddress, count: width * height * 4)
            ready = CameraFrame(
                pixelFormat: .depthMetres, width: frame.width, height: frame.height, sequence: frame.sequence,
                timestampNanoseconds: frame.timestampNanoseconds, isFullRange: true, depthUnit: 1,
                planes: FramePlane(bytes: bytes, stride: width * 4))
        } else {
            ready = CameraFrame(
                pixelFormat: frame.pixelFormat, width: frame.width, height: frame.height, sequence: frame.sequence,
                timestampNanoseconds: frame.timestampNanoseconds, isFullRange: true, depthUnit: depthUnit,
                planes: samples)
        }
        withUnsafePointer(to: ready) { handOver($0, isolated: isolated, lender: lender, ownsBytes: converts) }
    }
}
