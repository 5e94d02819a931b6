import Testing

@testable import OcellusCore

/// A frame's bytes against the picture its format, size and strides claim: what the session
/// checks before any output reads a frame (another app renegotiated the camera, a producer
/// sent less than it said).
@Suite struct FrameGeometryTests {
    func frame(_ format: FourCC, _ width: UInt32, _ height: UInt32, _ planes: [(count: Int, stride: Int)], in bytes: [UInt8]) -> CameraFrame {
        let base = bytes.withUnsafeBytes { $0.baseAddress! } // the caller keeps `bytes` alive
        var offset = 0
        let views = planes.map { plane -> FramePlane in
            defer { offset += plane.count }
            return FramePlane(bytes: UnsafeRawBufferPointer(start: base + offset, count: plane.count), stride: plane.stride)
        }
        return CameraFrame(
            pixelFormat: format, width: width, height: height, sequence: 1, timestampNanoseconds: 1,
            planes: views[0], views.count > 1 ? views[1] : nil, views.count > 2 ? views[2] : nil)
    }

    @Test func framesThatHoldTheirPictureAreTaken() {
        let bytes = [UInt8](repeating: 0, count: 1 << 16)
        withExtendedLifetime(bytes) {
            #expect(frame(.yuyv, 64, 48, [(64 * 48 * 2, 128)], in: bytes).holdsItsPicture)
            // Rows padded to 160 bytes; the last row need not be.
            #expect(frame(.yuyv, 64, 48, [(160 * 47 + 128, 160)], in: bytes).holdsItsPicture)
            #expect(frame(.nv12, 65, 49, [(65 * 49, 65), (66 * 25, 66)], in: bytes).holdsItsPicture)
            #expect(frame(.i420, 64, 48, [(64 * 48, 64), (32 * 24, 32), (32 * 24, 32)], in: bytes).holdsItsPicture)
            #expect(frame(.bgra, 10, 10, [(400, 40)], in: bytes).holdsItsPicture)
            #expect(frame(.mjpeg, 1920, 1080, [(3000, 0)], in: bytes).holdsItsPicture)
        }
    }

    /// Each way a buffer can fall short: too few bytes for the size, a stride narrower than a
    /// row, a chroma plane missing or short, a size of nothing.
    @Test func framesShortOfTheirFormatAreNot() {
        let bytes = [UInt8](repeating: 0, count: 1 << 16)
        withExtendedLifetime(bytes) {
            #expect(!frame(.yuyv, 1920, 1080, [(640 * 480 * 2, 1280)], in: bytes).holdsItsPicture) // 640x480 sent, 1080p claimed
            #expect(!frame(.yuyv, 1920, 1080, [(640 * 480 * 2, 3840)], in: bytes).holdsItsPicture)
            #expect(!frame(.yuyv, 64, 48, [(64 * 48 * 2, 100)], in: bytes).holdsItsPicture)
            #expect(!frame(.uyvy, 64, 48, [(64 * 48 * 2 - 1, 128)], in: bytes).holdsItsPicture)
            #expect(!frame(.nv12, 64, 48, [(64 * 48, 64)], in: bytes).holdsItsPicture)
            #expect(!frame(.nv12, 64, 48, [(64 * 48, 64), (64 * 23, 64)], in: bytes).holdsItsPicture)
            #expect(!frame(.i420, 64, 48, [(64 * 48, 64), (32 * 24, 32), (32 * 24, 16)], in: bytes).holdsItsPicture)
            #expect(!frame(.grey, 0, 48, [(64 * 48, 64)], in: bytes).holdsItsPicture)
            #expect(!frame(.mjpeg, 64, 48, [(0, 0)], in: bytes).holdsItsPicture)
            // A stride so large its rows overflow: no wrap-around makes it fit.
            #expect(!frame(.grey, 64, 48, [(64 * 48, Int.max / 2)], in: bytes).holdsItsPicture)
        }
    }
}
