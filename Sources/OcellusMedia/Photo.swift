import CLibAV
import CLibExif
import CTurboJPEG
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// What a photo says about itself in its EXIF segment.
public struct PhotoMetadata: Sendable, Equatable {
    /// EXIF Orientation (1–8): how a viewer turns the stored pixels upright.
    public var orientation: UInt16
    public var make: String?
    public var model: String?
    /// Wall-clock capture time, seconds since the epoch.
    public var captureTime: time_t

    public init(orientation: UInt16 = 1, make: String? = nil, model: String? = nil, captureTime: time_t = time(nil)) {
        (self.orientation, self.make, self.model, self.captureTime) = (orientation, make, model, captureTime)
    }

    /// The EXIF Orientation for pixels that need turning `rotation` degrees clockwise,
    /// then flipping about the vertical axis when `mirrored`, to stand upright.
    public static func orientation(rotation: Int, mirrored: Bool) -> UInt16 {
        switch ((rotation % 360 + 360) % 360, mirrored) {
        case (90, false): 6
        case (180, false): 3
        case (270, false): 8
        case (0, true): 2
        case (90, true): 5 // transpose
        case (180, true): 4
        case (270, true): 7 // transverse
        default: 1
        }
    }
}

/// JPEG stills: a camera's own JPEG with an EXIF segment put in (no re-encoding), or
/// raw frames encoded with libjpeg-turbo.
public enum JPEGPhoto {
    /// The frame as a JPEG carrying `metadata`. MJPEG frames keep their bytes unless
    /// `rotation`/`mirrored` ask for the pixels to be turned, or Center Stage framed the frame
    /// (then they are decoded and re-encoded). A framed photo has the window's own pixels: the
    /// camera's, cropped, never scaled up.
    public static func make(
        from frame: CameraFrame, metadata: PhotoMetadata, rotation: Int = 0, mirrored: Bool = false,
        quality: Int32 = 92
    ) throws(OcellusError) -> (bytes: [UInt8], width: UInt32, height: UInt32) {
        let turns = rotation % 360 != 0 || mirrored
        if frame.pixelFormat == .mjpeg && !turns && frame.region == nil {
            let jpeg = frame.plane(0)!.bytes
            guard let (width, height) = jpegSize(jpeg), decodesWhole(jpeg, width: frame.width, height: frame.height) else {
                throw OcellusError(.io, "the camera's JPEG frame \(frame.sequence) is corrupt")
            }
            guard lacksHuffmanTables(jpeg) else { return (try insertingEXIF(metadata, into: jpeg), width, height) }
            let complete = try addingStandardHuffmanTables(jpeg)
            return (try insertingEXIF(metadata, into: complete), width, height)
        }
        let quarter = (rotation / 90) % 2 != 0
        let window = frame.region?.pixels(ofWidth: Int(frame.width), height: Int(frame.height))
        let (framedWidth, framedHeight) = window.map { (UInt32($0.width), UInt32($0.height)) } ?? (frame.width, frame.height)
        let (width, height) = quarter ? (framedHeight, framedWidth) : (framedWidth, framedHeight)
        let converter = FrameConverter(target: .bgra, width: width, height: height, rotation: rotation, mirrored: mirrored)
        guard let pixels = converter.convert(frame), let plane = pixels.plane(0), let base = plane.bytes.baseAddress else {
            throw OcellusError(.io, "frame \(frame.sequence) could not be decoded for the photo")
        }
        guard let compressor = tjInitCompress() else { throw OcellusError(.noResources, "libjpeg-turbo: no compressor") }
        defer { tjDestroy(compressor) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(output) }
        guard
            tjCompress2(
                compressor, base.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(plane.stride), Int32(height),
                Int32(TJPF_BGRX.rawValue), &output, &size, Int32(TJSAMP_420.rawValue), quality, 0) == 0, let output
        else {
            throw OcellusError(.io, "libjpeg-turbo: \(String(cString: tjGetErrorStr2(compressor)))")
        }
        var exif = metadata
        if turns { exif.orientation = 1 }
        return (try insertingEXIF(exif, into: UnsafeRawBufferPointer(start: output, count: Int(size))), width, height)
    }

    /// Whether the JPEG's scan starts with no Huffman table defined: UVC cameras leave out the
    /// standard tables, as Motion-JPEG allows and a JPEG file does not.
    static func lacksHuffmanTables(_ jpeg: UnsafeRawBufferPointer) -> Bool {
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF {
            let marker = jpeg[position + 1]
            if marker == 0xFF { position += 1; continue } // fill byte
            if marker == 0xC4 { return false } // DHT
            if marker == 0xDA { return true } // SOS
            position += 2 + (Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3]))
        }
        return false // not a walkable header: left as it is
    }

    /// The JPEG with the standard Huffman tables (ITU T.81 K.3) put in, by FFmpeg's
    /// `mjpeg2jpeg` bitstream filter; the entropy-coded data is untouched.
    static func addingStandardHuffmanTables(_ jpeg: UnsafeRawBufferPointer) throws(OcellusError) -> [UInt8] {
        try LibAV.load()
        guard let filter = av_bsf_get_by_name("mjpeg2jpeg") else {
            throw OcellusError(.noResources, "libavcodec has no mjpeg2jpeg filter")
        }
        var context: UnsafeMutablePointer<AVBSFContext>?
        guard av_bsf_alloc(filter, &context) >= 0, let context else { throw OcellusError(.noResources, "libavcodec: out of memory") }
        defer { var freed: UnsafeMutablePointer<AVBSFContext>? = context; av_bsf_free(&freed) }
        context.pointee.par_in.pointee.codec_id = AV_CODEC_ID_MJPEG
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet, av_bsf_init(context) >= 0, av_new_packet(packet, Int32(jpeg.count)) >= 0, let base = jpeg.baseAddress else {
            throw OcellusError(.noResources, "libavcodec could not set up the mjpeg2jpeg filter")
        }
        packet.pointee.data.update(from: base.assumingMemoryBound(to: UInt8.self), count: jpeg.count)
        guard av_bsf_send_packet(context, packet) >= 0, av_bsf_receive_packet(context, packet) >= 0 else {
            throw OcellusError(.io, "the camera's JPEG could not be completed with Huffman tables")
        }
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }

    /// Whether `jpeg` is a `width`×`height` picture that decodes to its end without a warning:
    /// what a camera's own JPEG must be to become a photo (a truncated or damaged frame still has
    /// a readable header, and one may claim any size). Decoded at an eighth of its size, which
    /// still reads every entropy-coded byte.
    public static func decodesWhole(_ jpeg: UnsafeRawBufferPointer, width: UInt32, height: UInt32) -> Bool {
        guard jpegSize(jpeg).map({ $0 == (width, height) }) == true, let base = jpeg.baseAddress,
            let decompressor = tjInitDecompress()
        else { return false }
        defer { tjDestroy(decompressor) }
        let (scaledWidth, scaledHeight) = ((Int(width) + 7) / 8, (Int(height) + 7) / 8)
        var pixels = [UInt8](repeating: 0, count: scaledWidth * scaledHeight)
        return tjDecompress2(
            decompressor, base.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), &pixels,
            Int32(scaledWidth), 0, Int32(scaledHeight), Int32(TJPF_GRAY.rawValue), TJFLAG_STOPONWARNING) == 0
    }

    /// Width and height from a JPEG's header, or nil when it is not a readable JPEG.
    static func jpegSize(_ jpeg: UnsafeRawBufferPointer) -> (UInt32, UInt32)? {
        guard let base = jpeg.baseAddress, let decompressor = tjInitDecompress() else { return nil }
        defer { tjDestroy(decompressor) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard
            tjDecompressHeader3(
                decompressor, base.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                &width, &height, &subsampling, &colorspace) == 0, width > 0, height > 0
        else { return nil }
        return (UInt32(width), UInt32(height))
    }

    /// The JPEG with `metadata` as its APP1 Exif segment, after SOI and a JFIF APP0 if
    /// there is one; an Exif segment already there is replaced. Entropy-coded data is untouched.
    public static func insertingEXIF(_ metadata: PhotoMetadata, into jpeg: UnsafeRawBufferPointer) throws(OcellusError) -> [UInt8] {
        try insertingEXIF(metadata, into: Array(jpeg))
    }

    static func insertingEXIF(_ metadata: PhotoMetadata, into bytes: [UInt8]) throws(OcellusError) -> [UInt8] {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw OcellusError(.invalidArgument, "not a JPEG (no start-of-image marker)")
        }
        var position = 2
        var keptHeader = [UInt8](bytes[0..<2])
        // Walk the APPn segments at the front: keep JFIF, drop an old Exif.
        while position + 4 <= bytes.count, bytes[position] == 0xFF, (0xE0...0xEF).contains(bytes[position + 1]) {
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2, position + 2 + length <= bytes.count else {
                throw OcellusError(.invalidArgument, "the JPEG's APP segment at byte \(position) is truncated")
            }
            let segment = bytes[position..<position + 2 + length]
            let isExif = bytes[position + 1] == 0xE1 && length >= 8 && Array(bytes[position + 4..<position + 8]) == Array("Exif".utf8)
            if !isExif && bytes[position + 1] == 0xE0 && keptHeader.count == 2 { keptHeader += segment } else if !isExif { break }
            position += 2 + length
        }
        let payload = try exifPayload(metadata, pixelSize: bytes.withUnsafeBytes { jpegSize($0) })
        guard payload.count + 2 <= 0xFFFF else { throw OcellusError(.invalidArgument, "EXIF segment too large") }
        let length = payload.count + 2
        return keptHeader + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + bytes[position...]
    }

    /// "Exif\0\0" and the TIFF structure, built with libexif; `pixelSize` (the JPEG's own)
    /// fills PixelXDimension/PixelYDimension, which EXIF requires for compressed images.
    static func exifPayload(_ metadata: PhotoMetadata, pixelSize: (UInt32, UInt32)? = nil) throws(OcellusError) -> [UInt8] {
        guard let data = exif_data_new() else { throw OcellusError(.noResources, "libexif: out of memory") }
        defer { exif_data_unref(data) }
        exif_data_set_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED)
        exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL)
        exif_data_fix(data) // the mandatory entries (Exif version, colour space, …)
        let order = EXIF_BYTE_ORDER_INTEL

        func content(_ ifd: ExifIfd) -> UnsafeMutablePointer<ExifContent> {
            withUnsafeBytes(of: data.pointee.ifd) {
                $0.load(
                    fromByteOffset: Int(ifd.rawValue) * MemoryLayout<UnsafeMutableRawPointer>.stride,
                    as: UnsafeMutablePointer<ExifContent>.self)
            }
        }
        func entry(_ ifd: ExifIfd, _ tag: ExifTag) -> UnsafeMutablePointer<ExifEntry> {
            if let existing = exif_content_get_entry(content(ifd), tag) { return existing }
            let created = exif_entry_new()!
            exif_content_add_entry(content(ifd), created)
            exif_entry_initialize(created, tag)
            exif_entry_unref(created) // the content holds it now
            return created
        }
        func setText(_ ifd: ExifIfd, _ tag: ExifTag, _ text: String) {
            let target = entry(ifd, tag)
            let bytes = Array(text.utf8) + [0]
            free(target.pointee.data)
            target.pointee.data = malloc(bytes.count)!.assumingMemoryBound(to: UInt8.self)
            bytes.withUnsafeBytes { target.pointee.data.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
            (target.pointee.format, target.pointee.components, target.pointee.size) = (EXIF_FORMAT_ASCII, UInt(bytes.count), UInt32(bytes.count))
        }

        exif_set_short(entry(EXIF_IFD_0, EXIF_TAG_ORIENTATION).pointee.data, order, metadata.orientation)
        if let (width, height) = pixelSize {
            for (tag, value) in [(EXIF_TAG_PIXEL_X_DIMENSION, width), (EXIF_TAG_PIXEL_Y_DIMENSION, height)] {
                let target = entry(EXIF_IFD_EXIF, tag)
                if target.pointee.format == EXIF_FORMAT_SHORT && value <= UInt32(UInt16.max) {
                    exif_set_short(target.pointee.data, order, UInt16(value))
                } else if target.pointee.format == EXIF_FORMAT_LONG {
                    exif_set_long(target.pointee.data, order, value)
                }
            }
        }
        if let make = metadata.make, !make.isEmpty { setText(EXIF_IFD_0, EXIF_TAG_MAKE, make) }
        if let model = metadata.model, !model.isEmpty { setText(EXIF_IFD_0, EXIF_TAG_MODEL, model) }
        var seconds = metadata.captureTime, local = tm()
        localtime_r(&seconds, &local)
        var stamp = [CChar](repeating: 0, count: 20)
        strftime(&stamp, stamp.count, "%Y:%m:%d %H:%M:%S", &local)
        let text = String(cString: stamp)
        setText(EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, text)
        setText(EXIF_IFD_0, EXIF_TAG_DATE_TIME, text)

        var saved: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &saved, &size)
        guard let saved, size > 0 else { throw OcellusError(.noResources, "libexif could not write the EXIF segment") }
        defer { free(saved) }
        return Array(UnsafeBufferPointer(start: saved, count: Int(size)))
    }
}
