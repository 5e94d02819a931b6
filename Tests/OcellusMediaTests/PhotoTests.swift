import CLibExif
import CTurboJPEG
import OcellusCore
import Testing

@testable import OcellusMedia

#if canImport(Glibc)
import Glibc
#endif

/// Photos checked by reading them back: EXIF through libexif, pixels through libjpeg-turbo.
@Suite struct PhotoTests {
    /// A YUYV frame, dark (Y 40) on the left half and bright (Y 200) on the right, neutral chroma.
    func halves(width: Int, height: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 128, count: width * height * 2)
        for y in 0..<height { for x in 0..<width { bytes[(y * width + x) * 2] = x < width / 2 ? 40 : 200 } }
        return bytes
    }

    func yuyv(_ bytes: [UInt8], _ width: Int, _ height: Int) -> CameraFrame {
        let view = bytes.withUnsafeBytes { $0 } // callers keep `bytes` alive
        return CameraFrame(
            pixelFormat: .yuyv, width: UInt32(width), height: UInt32(height), sequence: 3, timestampNanoseconds: 5,
            planes: FramePlane(bytes: view, stride: width * 2))
    }

    func exifTag(_ jpeg: [UInt8], _ ifd: ExifIfd, _ tag: ExifTag) -> String? {
        guard let data = jpeg.withUnsafeBufferPointer({ exif_data_new_from_data($0.baseAddress, UInt32($0.count)) }) else { return nil }
        defer { exif_data_unref(data) }
        let content = withUnsafeBytes(of: data.pointee.ifd) {
            $0.load(fromByteOffset: Int(ifd.rawValue) * MemoryLayout<UnsafeMutableRawPointer>.stride, as: UnsafeMutablePointer<ExifContent>.self)
        }
        guard let entry = exif_content_get_entry(content, tag) else { return nil }
        var text = [CChar](repeating: 0, count: 256)
        exif_entry_get_value(entry, &text, UInt32(text.count))
        return String(cString: text)
    }

    func orientationTag(_ jpeg: [UInt8]) -> UInt16? {
        guard let data = jpeg.withUnsafeBufferPointer({ exif_data_new_from_data($0.baseAddress, UInt32($0.count)) }) else { return nil }
        defer { exif_data_unref(data) }
        let content = withUnsafeBytes(of: data.pointee.ifd) { $0.load(as: UnsafeMutablePointer<ExifContent>.self) }
        guard let entry = exif_content_get_entry(content, EXIF_TAG_ORIENTATION) else { return nil }
        return exif_get_short(entry.pointee.data, exif_data_get_byte_order(data))
    }

    /// Decoded greyscale luma of a JPEG.
    func luma(_ jpeg: [UInt8]) -> (width: Int, height: Int, pixels: [UInt8])? {
        guard let decompressor = tjInitDecompress() else { return nil }
        defer { tjDestroy(decompressor) }
        var width: Int32 = 0, height: Int32 = 0, sub: Int32 = 0, space: Int32 = 0
        guard tjDecompressHeader3(decompressor, jpeg, UInt(jpeg.count), &width, &height, &sub, &space) == 0 else { return nil }
        var pixels = [UInt8](repeating: 0, count: Int(width * height))
        guard tjDecompress2(decompressor, jpeg, UInt(jpeg.count), &pixels, width, width, height, Int32(TJPF_GRAY.rawValue), 0) == 0 else { return nil }
        return (Int(width), Int(height), pixels)
    }

    @Test func orientationForEveryCaptureAngle() throws {
        let expected: [(Int, Bool, UInt16)] = [
            (0, false, 1), (90, false, 6), (180, false, 3), (270, false, 8),
            (0, true, 2), (90, true, 5), (180, true, 4), (270, true, 7), (-90, false, 8), (450, false, 6)
        ]
        let bytes = halves(width: 64, height: 32)
        for (angle, mirrored, tag) in expected {
            #expect(PhotoMetadata.orientation(rotation: angle, mirrored: mirrored) == tag)
            let metadata = PhotoMetadata(
                orientation: PhotoMetadata.orientation(rotation: angle, mirrored: mirrored),
                make: "Logitech", model: "C920", captureTime: 1_700_000_000)
            let photo = try withExtendedLifetime(bytes) { try JPEGPhoto.make(from: yuyv(bytes, 64, 32), metadata: metadata) }
            #expect(orientationTag(photo.bytes) == tag, "angle \(angle) mirrored \(mirrored)")
            #expect((photo.width, photo.height) == (64, 32))
        }
    }

    @Test func makeModelAndCaptureTimeAreWritten() throws {
        let bytes = halves(width: 32, height: 16)
        var local = tm(), seconds: time_t = 1_700_000_000
        localtime_r(&seconds, &local)
        let photo = try withExtendedLifetime(bytes) {
            try JPEGPhoto.make(from: yuyv(bytes, 32, 16), metadata: PhotoMetadata(make: "Elgato", model: "Cam Link 4K", captureTime: seconds))
        }
        #expect(exifTag(photo.bytes, EXIF_IFD_0, EXIF_TAG_MAKE) == "Elgato")
        #expect(exifTag(photo.bytes, EXIF_IFD_0, EXIF_TAG_MODEL) == "Cam Link 4K")
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let stamp = "\(local.tm_year + 1900):\(two(local.tm_mon + 1)):\(two(local.tm_mday)) \(two(local.tm_hour)):\(two(local.tm_min)):\(two(local.tm_sec))"
        #expect(exifTag(photo.bytes, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL) == stamp)
        // The JPEG's own size, as EXIF requires for compressed images (they used to be 0).
        #expect(exifTag(photo.bytes, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION) == "32")
        #expect(exifTag(photo.bytes, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION) == "16")
    }

    @Test func rawFramesAreEncodedWithFullRangeContrast() throws {
        let bytes = halves(width: 64, height: 32)
        let photo = try withExtendedLifetime(bytes) { try JPEGPhoto.make(from: yuyv(bytes, 64, 32), metadata: PhotoMetadata()) }
        let decoded = try #require(luma(photo.bytes))
        // Limited-range 40 and 200 become full-range ≈ 28 and 214 (JPEG is full range).
        let dark = Int(decoded.pixels[16 * 64 + 8]), bright = Int(decoded.pixels[16 * 64 + 56])
        #expect(abs(dark - (40 - 16) * 255 / 219) <= 4 && abs(bright - (200 - 16) * 255 / 219) <= 4, "\(dark) \(bright)")
    }

    @Test func rotationAppliedToPixelsTurnsTheImage() throws {
        let bytes = halves(width: 64, height: 32)
        let photo = try withExtendedLifetime(bytes) {
            try JPEGPhoto.make(from: yuyv(bytes, 64, 32), metadata: PhotoMetadata(orientation: 6), rotation: 90)
        }
        #expect((photo.width, photo.height) == (32, 64) && orientationTag(photo.bytes) == 1)
        let decoded = try #require(luma(photo.bytes))
        // Turned clockwise, the dark left half is now the top half.
        #expect(decoded.width == 32 && decoded.pixels[8 * 32 + 16] < 60 && decoded.pixels[56 * 32 + 16] > 180)
    }

    @Test func cameraJPEGKeepsItsBytes() throws {
        let bytes = halves(width: 64, height: 32)
        let camera = try withExtendedLifetime(bytes) { try JPEGPhoto.make(from: yuyv(bytes, 64, 32), metadata: PhotoMetadata()) }.bytes
        // Strip our segment to get a plain JPEG, as a camera would send (JFIF APP0 first).
        let plain = Array(camera[0..<2]) + stripExif(camera)
        let frame = plain.withUnsafeBytes { view in
            CameraFrame(
                pixelFormat: .mjpeg, width: 64, height: 32, sequence: 1, timestampNanoseconds: 1, isFullRange: true,
                planes: FramePlane(bytes: view, stride: 0))
        }
        let photo = try withExtendedLifetime(plain) { try JPEGPhoto.make(from: frame, metadata: PhotoMetadata(orientation: 8)) }
        #expect(orientationTag(photo.bytes) == 8)
        #expect(Array(photo.bytes[0..<2]) + stripExif(photo.bytes) == plain, "only the Exif segment is added")
    }

    /// The JPEG without its DHT segments, as many UVC cameras send their frames.
    func stripHuffmanTables(_ jpeg: [UInt8]) -> [UInt8] {
        var result = Array(jpeg[0..<2]), position = 2
        while jpeg[position + 1] != 0xDA {
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            if jpeg[position + 1] != 0xC4 { result += jpeg[position..<position + 2 + length] }
            position += 2 + length
        }
        return result + jpeg[position...]
    }

    func markers(_ jpeg: [UInt8]) -> [UInt8] {
        var found: [UInt8] = [], position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
            found.append(jpeg[position + 1])
            position += 2 + (Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3]))
        }
        return found
    }

    @Test func cameraJPEGWithoutHuffmanTablesGetsTheStandardOnes() throws {
        let bytes = halves(width: 64, height: 32)
        // libjpeg-turbo encodes with the standard tables, so taking them out is what a UVC camera does.
        let encoded = try withExtendedLifetime(bytes) { try JPEGPhoto.make(from: yuyv(bytes, 64, 32), metadata: PhotoMetadata()) }.bytes
        let uvc = stripHuffmanTables(Array(encoded[0..<2]) + stripExif(encoded))
        #expect(!markers(uvc).contains(0xC4) && markers(encoded).contains(0xC4))
        let frame = uvc.withUnsafeBytes { view in
            CameraFrame(
                pixelFormat: .mjpeg, width: 64, height: 32, sequence: 1, timestampNanoseconds: 1, isFullRange: true,
                planes: FramePlane(bytes: view, stride: 0))
        }
        let photo = try withExtendedLifetime(uvc) { try JPEGPhoto.make(from: frame, metadata: PhotoMetadata(orientation: 6)) }
        #expect(markers(photo.bytes).contains(0xC4), "a complete JPEG file")
        #expect(orientationTag(photo.bytes) == 6 && (photo.width, photo.height) == (64, 32))
        #expect(luma(photo.bytes)?.pixels == luma(encoded)?.pixels, "the same picture")
        // The entropy-coded scan is the camera's, byte for byte.
        let scan = { (jpeg: [UInt8]) in Array(jpeg[jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }!...]) }
        #expect(scan(photo.bytes) == scan(uvc))
    }

    @Test func corruptCameraJPEGIsAnError() {
        let garbage: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 1, 2, 3]
        let frame = garbage.withUnsafeBytes { view in
            CameraFrame(pixelFormat: .mjpeg, width: 64, height: 32, sequence: 1, timestampNanoseconds: 1, planes: FramePlane(bytes: view, stride: 0))
        }
        #expect(throws: OcellusError.self) { try withExtendedLifetime(garbage) { try JPEGPhoto.make(from: frame, metadata: PhotoMetadata()) } }
        #expect(throws: OcellusError.self) { try JPEGPhoto.insertingEXIF(PhotoMetadata(), into: UnsafeRawBufferPointer(start: nil, count: 0)) }
    }

    /// A camera's JPEG becomes a photo only when it decodes to its end as the frame's size: a
    /// truncated frame and one whose header claims another size (65500x65500) have readable
    /// headers, and are refused all the same.
    @Test func aCameraJPEGThatDoesNotDecodeWholeIsNeverAPhoto() throws {
        let bytes = halves(width: 64, height: 32)
        let encoded = try withExtendedLifetime(bytes) { try JPEGPhoto.make(from: yuyv(bytes, 64, 32), metadata: PhotoMetadata()) }.bytes
        let truncated = Array(encoded.prefix(encoded.count * 2 / 3))
        var huge = encoded
        let frameHeader = try #require(huge.indices.first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
        huge.replaceSubrange(frameHeader + 5..<frameHeader + 9, with: [0xFF, 0xDC, 0xFF, 0xDC]) // 65500 high and wide
        for (name, jpeg, decodes) in [("whole", encoded, true), ("truncated", truncated, false), ("65500x65500", huge, false)] {
            let frame = jpeg.withUnsafeBytes { view in
                CameraFrame(
                    pixelFormat: .mjpeg, width: 64, height: 32, sequence: 1, timestampNanoseconds: 1, isFullRange: true,
                    planes: FramePlane(bytes: view, stride: 0))
            }
            withExtendedLifetime(jpeg) {
                #expect(JPEGPhoto.decodesWhole(frame.plane(0)!.bytes, width: 64, height: 32) == decodes, "\(name)")
                #expect(((try? JPEGPhoto.make(from: frame, metadata: PhotoMetadata())) != nil) == decodes, "\(name)")
            }
        }
    }

    /// The JPEG after SOI without any APP1 Exif segment.
    func stripExif(_ jpeg: [UInt8]) -> [UInt8] {
        var result: [UInt8] = [], position = 2
        while jpeg[position] == 0xFF, (0xE0...0xEF).contains(jpeg[position + 1]) {
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            if jpeg[position + 1] != 0xE1 { result += jpeg[position..<position + 2 + length] }
            position += 2 + length
        }
        return result + jpeg[position...]
    }
}
