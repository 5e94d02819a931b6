import CLibPipeWire
import CTurboJPEG
#if canImport(Glibc)
import Glibc
#endif

/// Pixel formats the virtual camera can offer, by their PipeWire names.
public enum VirtualPixelFormat: String, CaseIterable {
    case yuy2 = "YUY2", uyvy = "UYVY", nv12 = "NV12", i420 = "I420", rgb = "RGB", bgrx = "BGRx", mjpg = "MJPG"

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }

    var mediaSubtype: UInt32 {
        self == .mjpg ? SPA_MEDIA_SUBTYPE_mjpg.rawValue : SPA_MEDIA_SUBTYPE_raw.rawValue
    }

    var spaFormat: UInt32 {
        switch self {
        case .yuy2: SPA_VIDEO_FORMAT_YUY2.rawValue
        case .uyvy: SPA_VIDEO_FORMAT_UYVY.rawValue
        case .nv12: SPA_VIDEO_FORMAT_NV12.rawValue
        case .i420: SPA_VIDEO_FORMAT_I420.rawValue
        case .rgb: SPA_VIDEO_FORMAT_RGB.rawValue
        case .bgrx: SPA_VIDEO_FORMAT_BGRx.rawValue
        case .mjpg: SPA_VIDEO_FORMAT_UNKNOWN.rawValue
        }
    }

    init?(mediaSubtype: UInt32, spaFormat: UInt32) {
        guard let match = Self.allCases.first(where: {
            $0.mediaSubtype == mediaSubtype && ($0 == .mjpg || $0.spaFormat == spaFormat)
        }) else { return nil }
        self = match
    }
}

/// A moving test pattern, rendered once per negotiated format as a short loop
/// of frames, so serving a frame is one copy (as a camera's DMA would be).
final class TestPattern {
    static let loopLength = 8

    let format: VirtualPixelFormat
    let width: Int
    let height: Int
    let stride: Int
    private(set) var frames: [[UInt8]] = []
    var maxFrameSize: Int { frames.map(\.count).max() ?? 0 }

    init(format: VirtualPixelFormat, width: UInt32, height: UInt32) {
        self.format = format
        self.width = Int(width)
        self.height = Int(height)
        switch format {
        case .yuy2, .uyvy: stride = self.width * 2
        case .nv12, .i420, .mjpg: stride = format == .mjpg ? 0 : self.width
        case .rgb: stride = (self.width * 3 + 3) & ~3
        case .bgrx: stride = self.width * 4
        }
        frames = (0..<Self.loopLength).map(render)
    }

    /// Copies frame `sequence` into `destination`; returns the bytes written (0 if it does not fit).
    func write(frame sequence: UInt64, into destination: UnsafeMutableRawPointer, capacity: Int) -> Int {
        let frame = frames[Int(sequence % UInt64(frames.count))]
        guard frame.count <= capacity else { return 0 }
        frame.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return frame.count
    }

    /// A horizontal luma ramp with a bright vertical bar that moves one step per frame.
    private func luma(x: Int, bar: Int) -> UInt8 {
        x >= bar && x < bar + max(8, width / 16) ? 235 : UInt8(16 + x * 219 / max(1, width))
    }

    private func render(_ index: Int) -> [UInt8] {
        let bar = index * width / Self.loopLength
        let chromaU = UInt8(64 + index * 16), chromaV = UInt8(192 - index * 16)
        switch format {
        case .yuy2, .uyvy:
            let lumaFirst = format == .yuy2
            var frame = [UInt8](repeating: 0, count: stride * height)
            var row = [UInt8](repeating: 0, count: stride)
            for x in Swift.stride(from: 0, to: width - 1, by: 2) {
                let y0 = luma(x: x, bar: bar), y1 = luma(x: x + 1, bar: bar)
                row.replaceSubrange(x * 2..<x * 2 + 4, with: lumaFirst ? [y0, chromaU, y1, chromaV] : [chromaU, y0, chromaV, y1])
            }
            for y in 0..<height { frame.replaceSubrange(y * stride..<(y + 1) * stride, with: row) }
            return frame
        case .nv12, .i420, .mjpg:
            let planar = renderI420(bar: bar, chromaU: chromaU, chromaV: chromaV)
            if format == .i420 { return planar }
            if format == .mjpg { return compressJPEG(i420: planar) }
            // NV12: interleave the chroma planes.
            let lumaSize = width * height, chromaSize = (width / 2) * (height / 2)
            var frame = Array(planar[0..<lumaSize])
            frame.reserveCapacity(lumaSize + chromaSize * 2)
            for index in 0..<chromaSize {
                frame.append(planar[lumaSize + index])
                frame.append(planar[lumaSize + chromaSize + index])
            }
            return frame
        case .rgb, .bgrx:
            let pixelSize = format == .rgb ? 3 : 4
            var frame = [UInt8](repeating: 0, count: stride * height)
            var row = [UInt8](repeating: 255, count: stride)
            for x in 0..<width {
                let value = luma(x: x, bar: bar)
                row[x * pixelSize] = value
                row[x * pixelSize + 1] = value
                row[x * pixelSize + 2] = UInt8(index * 32)
            }
            for y in 0..<height { frame.replaceSubrange(y * stride..<(y + 1) * stride, with: row) }
            return frame
        }
    }

    private func renderI420(bar: Int, chromaU: UInt8, chromaV: UInt8) -> [UInt8] {
        let row = (0..<width).map { luma(x: $0, bar: bar) }
        var frame: [UInt8] = []
        frame.reserveCapacity(width * height * 3 / 2)
        for _ in 0..<height { frame.append(contentsOf: row) }
        frame.append(contentsOf: repeatElement(chromaU, count: (width / 2) * (height / 2)))
        frame.append(contentsOf: repeatElement(chromaV, count: (width / 2) * (height / 2)))
        return frame
    }

    /// Encodes one I420 frame as a baseline JPEG with libjpeg-turbo, as a UVC camera's MJPEG stream carries.
    private func compressJPEG(i420: [UInt8]) -> [UInt8] {
        guard let compressor = tjInitCompress() else { return [] }
        defer { tjDestroy(compressor) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = i420.withUnsafeBufferPointer {
            tjCompressFromYUV(compressor, $0.baseAddress, Int32(width), 1, Int32(height), Int32(TJSAMP_420.rawValue),
                              &output, &size, 85, 0)
        }
        guard result == 0, let output else { return [] }
        defer { tjFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
