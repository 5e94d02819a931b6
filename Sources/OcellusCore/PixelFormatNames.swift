/// Pixel formats by the names people use (OpenCV's, FFmpeg's, V4L2's), and one name per
/// format in every output: the V4L2 code, except I420 for V4L2's `YU12`, trailing padding
/// dropped (`Z16`), the big-endian flag spelled out (`Y16-BE`), and hex for codes with
/// bytes that are not printable.
public enum PixelFormatNames {
    /// Every accepted name (upper case) and the code it stands for.
    static let table: [(name: String, code: FourCC)] = [
        ("NV12", .nv12), ("I420", .i420), ("YU12", .i420), ("IYUV", .i420),
        ("YUYV", .yuyv), ("YUY2", .yuyv), ("UYVY", .uyvy),
        ("MJPG", .mjpeg), ("MJPEG", .mjpeg), ("JPEG", .mjpeg), ("H264", .h264),
        ("BGRA", .bgra), ("AR24", .bgra), ("RGBA", .rgba), ("AB24", .rgba), ("BGRX", .bgrx), ("XR24", .bgrx),
        ("BGR24", .bgr24), ("BGR3", .bgr24), ("RGB24", .rgb24), ("RGB3", .rgb24),
        ("GRAY8", .grey), ("GREY", .grey), ("GRAY", .grey), ("Y8", .grey)
    ]

    /// The names the converters can produce, for messages.
    public static let everyday = ["NV12", "I420", "YUYV", "UYVY", "MJPEG", "BGRA", "RGBA", "BGR24", "RGB24", "GRAY8"]

    /// The one name of each format that has an everyday one (what OpenCV, FFmpeg and requests
    /// call it), so that a name asked for is the name read back.
    static let canonical: [FourCC: String] = [
        .nv12: "NV12", .i420: "I420", .yuyv: "YUYV", .uyvy: "UYVY", .mjpeg: "MJPEG", .h264: "H264",
        .bgra: "BGRA", .rgba: "RGBA", .bgrx: "BGRX", .bgr24: "BGR24", .rgb24: "RGB24", .grey: "GRAY8"
    ]

    static let bigEndian: UInt32 = 1 << 31

    /// The code for `name`: a known name (any case), else any four printable characters
    /// as a V4L2 code (`Z16`, `Y10B`); nil for anything else.
    public static func code(_ name: String) -> FourCC? {
        let upper = name.uppercased()
        if let known = table.first(where: { $0.name == upper }) { return known.code }
        if upper.hasSuffix("-BE"), let base = code(String(name.dropLast(3))) { return FourCC(rawValue: base.rawValue | bigEndian) }
        guard !name.isEmpty, name.utf8.count <= 4, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { return nil }
        return FourCC(name)
    }

    /// The one name outputs use for `code`: its everyday name where it has one (BGRA, not
    /// V4L2's AR24; MJPEG, not MJPG), else its V4L2 code (Z16, Y10B).
    public static func name(_ code: FourCC) -> String {
        if let everyday = canonical[code] { return everyday }
        if code.rawValue & bigEndian != 0 { return name(FourCC(rawValue: code.rawValue & ~bigEndian)) + "-BE" }
        let printable = (0..<4).allSatisfy { (code.rawValue >> UInt32($0 * 8)) & 0xff >= 0x20 && (code.rawValue >> UInt32($0 * 8)) & 0xff < 0x7f }
        return printable ? code.description : "0x" + String(code.rawValue, radix: 16)
    }
}

extension FourCC {
    /// The format's one name in outputs and messages (`PixelFormatNames.name`).
    public var name: String { PixelFormatNames.name(self) }
}
