import CLibAV
import CLibPipeWire
import CTurboJPEG

#if canImport(Glibc)
import Glibc
#endif

/// Pixel formats the virtual camera can offer, by their PipeWire names.
public enum VirtualPixelFormat: String, CaseIterable {
    case yuy2 = "YUY2", uyvy = "UYVY", nv12 = "NV12", i420 = "I420", rgb = "RGB", bgrx = "BGRx", mjpg = "MJPG", h264 = "H264"

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }

    var mediaSubtype: UInt32 {
        switch self {
        case .mjpg: SPA_MEDIA_SUBTYPE_mjpg.rawValue
        case .h264: SPA_MEDIA_SUBTYPE_h264.rawValue
        default: SPA_MEDIA_SUBTYPE_raw.rawValue
        }
    }

    /// Compressed formats are known by their media subtype alone.
    var isCompressed: Bool { self == .mjpg || self == .h264 }

    var spaFormat: UInt32 {
        switch self {
        case .yuy2: SPA_VIDEO_FORMAT_YUY2.rawValue
        case .uyvy: SPA_VIDEO_FORMAT_UYVY.rawValue
        case .nv12: SPA_VIDEO_FORMAT_NV12.rawValue
        case .i420: SPA_VIDEO_FORMAT_I420.rawValue
        case .rgb: SPA_VIDEO_FORMAT_RGB.rawValue
        case .bgrx: SPA_VIDEO_FORMAT_BGRx.rawValue
        case .mjpg, .h264: SPA_VIDEO_FORMAT_UNKNOWN.rawValue
        }
    }

    init?(mediaSubtype: UInt32, spaFormat: UInt32) {
        guard
            let match = Self.allCases.first(where: {
                $0.mediaSubtype == mediaSubtype && ($0.isCompressed || $0.spaFormat == spaFormat)
            })
        else { return nil }
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

    /// With `jpeg`, every frame is that JPEG (MJPEG only).
    init(format: VirtualPixelFormat, width: UInt32, height: UInt32, jpeg: [UInt8]? = nil) {
        self.format = format
        self.width = Int(width)
        self.height = Int(height)
        switch format {
        case .yuy2, .uyvy: stride = self.width * 2
        case .nv12, .i420, .mjpg, .h264: stride = format.isCompressed ? 0 : self.width
        case .rgb: stride = (self.width * 3 + 3) & ~3
        case .bgrx: stride = self.width * 4
        }
        if let jpeg {
            frames = [jpeg]
            return
        }
        frames =
            format == .h264
            ? Self.encodeH264((0..<Self.loopLength).map(renderPlanar), width: self.width, height: self.height)
            : (0..<Self.loopLength).map(render)
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

    private func renderPlanar(_ index: Int) -> [UInt8] {
        renderI420(bar: index * width / Self.loopLength, chromaU: UInt8(64 + index * 16), chromaV: UInt8(192 - index * 16))
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
        case .nv12, .i420, .mjpg, .h264:
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

    /// Encodes the loop as H.264 access units in Annex B with libavcodec, as a UVC H.264 camera
    /// sends them: the loop's first frame an IDR with its SPS and PPS in-band, the others P
    /// frames referring back (no B frames), so the loop can repeat for ever. Empty on failure.
    static func encodeH264(_ pictures: [[UInt8]], width: Int, height: Int) -> [[UInt8]] {
        // FFmpeg is loaded on first use (CLibAV's loader), as in the library.
        if let problem = ocav_load() {
            fputs("ocellus-virtual-camera: no H.264: \(String(cString: problem))\n", stderr)
            return []
        }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_H264) else { return [] }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        defer { avcodec_free_context(&context); av_frame_free(&frame); av_packet_free(&packet) }
        guard let context, let frame, let packet else { return [] }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: 30)
        context.pointee.gop_size = Int32(pictures.count)
        context.pointee.max_b_frames = 0
        av_opt_set(context.pointee.priv_data, "preset", "ultrafast", 0)
        av_opt_set(context.pointee.priv_data, "tune", "zerolatency", 0)
        guard avcodec_open2(context, codec, nil) >= 0 else { return [] }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        guard av_frame_get_buffer(frame, 0) >= 0 else { return [] }
        var units: [[UInt8]] = []
        func drain() {
            while avcodec_receive_packet(context, packet) >= 0 {
                units.append(Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))))
                av_packet_unref(packet)
            }
        }
        for (index, picture) in pictures.enumerated() {
            guard av_frame_make_writable(frame) >= 0 else { return [] }
            let chroma = (width / 2) * (height / 2)
            picture.withUnsafeBufferPointer { source in
                let planes = [(0, width, height), (width * height, width / 2, height / 2), (width * height + chroma, width / 2, height / 2)]
                withUnsafeBytes(of: frame.pointee.data) { data in
                    withUnsafeBytes(of: frame.pointee.linesize) { linesize in
                        for (plane, (offset, planeWidth, rows)) in planes.enumerated() {
                            let destination = data.load(fromByteOffset: plane * 8, as: UnsafeMutablePointer<UInt8>.self)
                            let stride = Int(linesize.load(fromByteOffset: plane * 4, as: Int32.self))
                            for row in 0..<rows {
                                (destination + row * stride).update(from: source.baseAddress! + offset + row * planeWidth, count: planeWidth)
                            }
                        }
                    }
                }
            }
            frame.pointee.pts = Int64(index)
            frame.pointee.pict_type = index == 0 ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
            guard avcodec_send_frame(context, frame) >= 0 else { return [] }
            drain()
        }
        avcodec_send_frame(context, nil)
        drain()
        return units.count == pictures.count ? units : []
    }

    /// Encodes one I420 frame as a baseline JPEG with libjpeg-turbo, as a UVC camera's MJPEG stream carries.
    /// A JPEG as webcams send it: JFIF, so the pattern's video-range samples are stretched to
    /// full range first (the same picture as the raw formats, once decoded).
    private func compressJPEG(i420 videoRange: [UInt8]) -> [UInt8] {
        let lumaSize = width * height
        let i420 = videoRange.enumerated().map { index, sample in
            let value = Double(sample)
            let full = index < lumaSize ? (value - 16) * 255 / 219 : 128 + (value - 128) * 255 / 224
            return UInt8(max(0, min(255, full.rounded())))
        }
        guard let compressor = tjInitCompress() else { return [] }
        defer { tjDestroy(compressor) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = i420.withUnsafeBufferPointer {
            tjCompressFromYUV(
                compressor, $0.baseAddress, Int32(width), 1, Int32(height), Int32(TJSAMP_420.rawValue),
                &output, &size, 85, 0)
        }
        guard result == 0, let output else { return [] }
        defer { tjFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
