import CLibAV
import OcellusCore

/// FFmpeg, loaded on first use: a program that never records, decodes H.264 or mends a
/// camera JPEG never loads its codec tree (and a distribution may make it optional).
enum LibAV {
    /// nil once loaded, else why it cannot be. On first load, libx264 and libavformat's
    /// info-level reports (every file) and the H.264 decoder's error-level ones (every access
    /// unit before the first key frame) are silenced: the process-wide level becomes fatal
    /// errors unless the app set its own (then it is kept). Errors reach the app through
    /// Ocellus's own results.
    private static let problem: String? = {
        if let problem = ocav_load() { return String(cString: problem) }
        if av_log_get_level() == AV_LOG_INFO { av_log_set_level(AV_LOG_FATAL) }
        return nil
    }()

    /// Call before any FFmpeg function: throws `.libraryUnavailable` naming what is missing.
    static func load() throws(OcellusError) {
        if let problem { throw OcellusError(.libraryUnavailable, problem) }
    }
}

/// H.264 as UVC cameras send it: one access unit per frame in Annex B (start codes),
/// the SPS and PPS in-band before each IDR picture.
enum H264 {
    static let idr: UInt8 = 5, sps: UInt8 = 7, pps: UInt8 = 8

    /// Calls `body` with each NAL unit's type and bytes (without its start code).
    static func forEachNALUnit(_ bytes: UnsafeRawBufferPointer, _ body: (UInt8, UnsafeRawBufferPointer) -> Void) {
        let count = bytes.count
        var index = 0
        var unitStart: Int?
        while index + 2 < count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                if let start = unitStart { emit(bytes, from: start, to: index, body) }
                index += 3
                unitStart = index
            } else {
                index += 1
            }
        }
        if let start = unitStart, start < count { emit(bytes, from: start, to: count, body) }
    }

    private static func emit(
        _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int,
        _ body: (UInt8, UnsafeRawBufferPointer) -> Void
    ) {
        var end = end
        while end > start, bytes[end - 1] == 0 { end -= 1 } // the next 4-byte start code's leading zero
        guard end > start else { return }
        body(bytes[start] & 0x1F, UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
    }

    /// Whether the access unit holds an IDR picture (decodable on its own).
    static func isKeyFrame(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var key = false
        forEachNALUnit(bytes) { type, _ in key = key || type == idr }
        return key
    }

    /// The SPS and PPS units of an access unit, each behind a 4-byte start code: the
    /// stream's parameters for a container (which turns them into its own form).
    static func parameterSets(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var sets: [UInt8] = []
        var found: Set<UInt8> = []
        forEachNALUnit(bytes) { type, unit in
            guard type == sps || type == pps else { return }
            found.insert(type)
            sets += [0, 0, 0, 1] + unit
        }
        return found == [sps, pps] ? sets : nil
    }
}

/// Decodes one H.264 stream to I420 with libavcodec. Decoding needs the stream's
/// history, so each consumer has its own; until the first IDR picture nothing comes out.
final class H264Decoder {
    struct Picture {
        typealias Plane = (bytes: UnsafePointer<UInt8>, stride: Int32)
        let y: Plane, u: Plane, v: Plane
        let width: Int
        let height: Int
        let isFullRange: Bool
    }

    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?

    /// `maxPixels`: the camera's picture size. A corrupt SPS can claim any size, and the decoder
    /// would allocate its reference pictures for it (found by the fuzzer: gigabytes); larger
    /// pictures are refused instead.
    init?(maxPixels: Int) {
        guard (try? LibAV.load()) != nil else { return nil }
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_H264), let context = avcodec_alloc_context3(codec) else { return nil }
        self.context = context
        context.pointee.max_pixels = Int64(max(1, maxPixels))
        context.pointee.flags |= AV_CODEC_FLAG_LOW_DELAY // a picture out for each access unit in, no reordering wait
        context.pointee.thread_count = 1 // frame threads would hold pictures back
        guard avcodec_open2(context, codec, nil) >= 0, let packet = av_packet_alloc(), let frame = av_frame_alloc() else { return nil }
        (self.packet, self.frame) = (packet, frame)
    }

    deinit {
        avcodec_free_context(&context)
        av_packet_free(&packet)
        av_frame_free(&frame)
    }

    /// The picture of one access unit (views valid until the next call), or nil while waiting
    /// for a key frame, for a corrupt unit, or a format other than 4:2:0.
    func decode(_ bytes: UnsafeRawBufferPointer) -> Picture? {
        guard let context, let packet, let frame, let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        // Unowned data: libavcodec copies what it keeps.
        packet.pointee.data = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        packet.pointee.size = Int32(bytes.count)
        let sent = avcodec_send_packet(context, packet)
        (packet.pointee.data, packet.pointee.size) = (nil, 0)
        guard sent >= 0, avcodec_receive_frame(context, frame) >= 0 else { return nil }
        let format = AVPixelFormat(frame.pointee.format)
        guard format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P else { return nil }
        func plane(_ index: Int) -> Picture.Plane {
            let bytes = withUnsafeBytes(of: frame.pointee.data) {
                $0.load(fromByteOffset: index * MemoryLayout<UnsafeMutablePointer<UInt8>>.stride, as: UnsafeMutablePointer<UInt8>.self)
            }
            let stride = withUnsafeBytes(of: frame.pointee.linesize) { $0.load(fromByteOffset: index * MemoryLayout<Int32>.stride, as: Int32.self) }
            return (UnsafePointer(bytes), stride)
        }
        let fullRange = format == AV_PIX_FMT_YUVJ420P || frame.pointee.color_range == AVCOL_RANGE_JPEG
        return Picture(
            y: plane(0), u: plane(1), v: plane(2), width: Int(frame.pointee.width), height: Int(frame.pointee.height),
            isFullRange: fullRange)
    }
}
