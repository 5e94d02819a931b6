/// behaviour §1 device types.
public enum DeviceType: Int32, Sendable, CaseIterable {
    case builtInCamera = 0
    case externalCamera = 1
    case virtualCamera = 2
    case depthCamera = 3
    case microphone = 4

    /// The name used in JSON and the CLI.
    public var name: String {
        switch self {
        case .builtInCamera: "built_in_camera"
        case .externalCamera: "external_camera"
        case .virtualCamera: "virtual_camera"
        case .depthCamera: "depth_camera"
        case .microphone: "microphone"
        }
    }

    public var isCamera: Bool { self != .microphone }
}

public enum DevicePosition: Int32, Sendable {
    case unspecified = 0
    case front = 1
    case back = 2

    public var name: String {
        switch self {
        case .unspecified: "unspecified"
        case .front: "front"
        case .back: "back"
        }
    }
}

public enum BackendKind: Int32, Sendable {
    case pipewire = 0
    case v4l2 = 1

    public var name: String {
        switch self {
        case .pipewire: "pipewire"
        case .v4l2: "v4l2"
        }
    }
}

/// A V4L2-style four-character code, e.g. `YUYV`, `NV12`, `MJPG`.
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Builds a code from up to four ASCII characters, padded with spaces ("Z16" → "Z16 ").
    public init(_ string: String) {
        var bytes = Array(string.utf8.prefix(4))
        while bytes.count < 4 { bytes.append(0x20) }
        rawValue = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    /// The four characters without trailing padding.
    public var description: String {
        var scalars: [Character] = []
        for shift in stride(from: 0, to: 32, by: 8) {
            let byte = UInt8((rawValue >> UInt32(shift)) & 0xff)
            scalars.append(byte >= 0x20 && byte < 0x7f ? Character(Unicode.Scalar(byte)) : "?")
        }
        var text = String(scalars)
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    // Literal codes: a constant global is laid out at build time, while one computed by
    // init(_:) is set up behind a once-check on every use (the frame path tests them per frame).
    public static let yuyv = FourCC(rawValue: 0x56595559) // "YUYV"
    public static let uyvy = FourCC(rawValue: 0x59565955) // "UYVY"
    public static let nv12 = FourCC(rawValue: 0x3231564E) // "NV12"
    public static let i420 = FourCC(rawValue: 0x32315559) // "YU12"
    /// R, G, B bytes per pixel (V4L2 `RGB3`).
    public static let rgb24 = FourCC(rawValue: 0x33424752) // "RGB3"
    /// B, G, R bytes per pixel, OpenCV's order (V4L2 `BGR3`).
    public static let bgr24 = FourCC(rawValue: 0x33524742) // "BGR3"
    public static let bgrx = FourCC(rawValue: 0x34325258) // "XR24"
    /// B, G, R, A bytes per pixel (V4L2 `AR24`).
    public static let bgra = FourCC(rawValue: 0x34325241) // "AR24"
    /// R, G, B, A bytes per pixel (V4L2 `AB24`).
    public static let rgba = FourCC(rawValue: 0x34324241) // "AB24"
    public static let grey = FourCC(rawValue: 0x59455247) // "GREY"
    public static let mjpeg = FourCC(rawValue: 0x47504A4D) // "MJPG"
    public static let h264 = FourCC(rawValue: 0x34363248) // "H264"
    public static let z16 = FourCC(rawValue: 0x2036315A) // "Z16 "
    /// 16-bit greyscale: a depth map on a depth function (Orbbec and other structured-light cameras), else a picture.
    public static let y16 = FourCC(rawValue: 0x20363159) // "Y16 "
    /// 12-bit greyscale in 16-bit words: a time-of-flight sensor's depth (Arducam ToF), else a picture.
    public static let y12 = FourCC(rawValue: 0x20323159) // "Y12 "
    /// Ocellus's own code for depth in metres as 32-bit floats, what a depth output converts to on request.
    public static let depthMetres = FourCC(rawValue: 0x4632335A) // "Z32F"

    /// Formats that carry depth by their very code (behaviour §1); 12- and 16-bit greyscale
    /// are depth only on a node discovery recognises as a depth function.
    public var isDepth: Bool { self == .z16 || self == FourCC("INZI") }

    /// The Y'CbCr formats whose samples have a range (video or full): the conversions' YUV targets.
    public var isYUV: Bool { self == .nv12 || self == .i420 || self == .yuyv || self == .uyvy }

    /// Compressed pictures (MJPEG, H.264): passed on as they are, they cannot be cropped or scaled.
    public var isCompressed: Bool { self == .mjpeg || self == .h264 }

    /// Depth formats a depth output delivers: one 16-bit word per pixel, as the camera sent it.
    public var isDepthMap: Bool { self == .z16 || self == .y16 || self == .y12 }
}

/// A frame rate as an exact fraction of frames per second.
public struct FrameRate: Hashable, Sendable, Comparable {
    public let numerator: UInt32
    public let denominator: UInt32

    public init(_ numerator: UInt32, _ denominator: UInt32 = 1) {
        self.numerator = numerator
        self.denominator = denominator == 0 ? 1 : denominator
    }

    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

    /// Nanoseconds between frames; a rate of 0 (frames when they come) is taken as one a second.
    public var interval: UInt64 { 1_000_000_000 * UInt64(denominator) / UInt64(max(1, numerator)) }

    public static func < (lhs: FrameRate, rhs: FrameRate) -> Bool {
        UInt64(lhs.numerator) * UInt64(rhs.denominator) < UInt64(rhs.numerator) * UInt64(lhs.denominator)
    }
}

/// One (pixel format, size, frame rates) combination a device offers.
public struct VideoFormat: Hashable, Sendable {
    public let pixelFormat: FourCC
    /// The size; for a format whose sizes are a range, the largest.
    public let width: UInt32
    public let height: UInt32
    /// Highest first. With `frameRatesAreRange` exactly two entries: maximum, minimum.
    public let frameRates: [FrameRate]
    public let frameRatesAreRange: Bool
    /// Sizes a driver offers as a stepwise or continuous range (V4L2 `ENUM_FRAMESIZES`),
    /// nil for one discrete size. `width`×`height` is its maximum.
    public let sizeRange: SizeRange?
    /// The rate the producer streams when nothing asks for one, where it says (a PipeWire
    /// range's default); nil: the highest.
    public let preferredFrameRate: FrameRate?

    public init(
        pixelFormat: FourCC, width: UInt32, height: UInt32, frameRates: [FrameRate], frameRatesAreRange: Bool = false,
        sizeRange: SizeRange? = nil, preferredFrameRate: FrameRate? = nil
    ) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        let unique = Array(Set(frameRates)).sorted(by: >)
        self.frameRates = frameRatesAreRange ? [unique.first, unique.last].compactMap { $0 } : unique
        self.frameRatesAreRange = frameRatesAreRange
        self.sizeRange = sizeRange
        self.preferredFrameRate = preferredFrameRate
    }

    /// Shortest frame duration the format allows, as the highest frame rate.
    public var maxFrameRate: FrameRate? { frameRates.first }

    /// Whether this format streams `width`×`height`: its own size, or one its range holds.
    public func offers(width: UInt32, height: UInt32) -> Bool {
        (width == self.width && height == self.height) || sizeRange?.contains(width: width, height: height) == true
    }

    /// Whether `other` streams the same pixels: the same pixel format and size, whatever the rates.
    public func sameStream(as other: VideoFormat) -> Bool {
        pixelFormat == other.pixelFormat && width == other.width && height == other.height
    }

    /// The same format at a size its range holds (the size a stream is then opened with).
    public func sized(width: UInt32, height: UInt32) -> VideoFormat {
        VideoFormat(
            pixelFormat: pixelFormat, width: width, height: height, frameRates: frameRates,
            frameRatesAreRange: frameRatesAreRange, sizeRange: sizeRange, preferredFrameRate: preferredFrameRate)
    }
}

/// A frame's width and height.
public struct FrameSize: Hashable, Sendable {
    public let width: UInt32, height: UInt32

    public init(width: UInt32, height: UInt32) { (self.width, self.height) = (width, height) }
}

/// A stepwise (or, with steps of 1, continuous) range of frame sizes.
public struct SizeRange: Hashable, Sendable {
    public let minWidth: UInt32, minHeight: UInt32
    public let maxWidth: UInt32, maxHeight: UInt32
    public let stepWidth: UInt32, stepHeight: UInt32
    /// The size the producer streams when nothing asks for one, where it says (a PipeWire
    /// range's default; a V4L2 driver states none).
    public var preferred: FrameSize?

    public init(minWidth: UInt32, minHeight: UInt32, maxWidth: UInt32, maxHeight: UInt32, stepWidth: UInt32, stepHeight: UInt32) {
        (self.minWidth, self.minHeight, self.maxWidth, self.maxHeight) = (minWidth, minHeight, maxWidth, maxHeight)
        (self.stepWidth, self.stepHeight) = (max(1, stepWidth), max(1, stepHeight))
    }

    /// False for every size of a range a driver got backwards (minimum above maximum).
    public func contains(width: UInt32, height: UInt32) -> Bool {
        minWidth <= width && width <= maxWidth && minHeight <= height && height <= maxHeight
            && (width - minWidth) % stepWidth == 0 && (height - minHeight) % stepHeight == 0
    }

    /// Sizes worth offering from the range when nothing asks for one: the one the producer
    /// prefers, where it says; else the common ones it holds (a 16384x8640 maximum is a limit of
    /// the hardware, not a size to stream at).
    public var sizesToOffer: [(UInt32, UInt32)] {
        if let preferred { return [(preferred.width, preferred.height)] }
        return [(3840, 2160), (1920, 1080), (1280, 720), (640, 480)].filter { contains(width: $0.0, height: $0.1) }
    }
}
