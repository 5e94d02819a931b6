import CTurboJPEG
import Testing

@testable import OcellusCore
@testable import OcellusMedia

/// Conversions checked on pixel content: frames drawn with known values go
/// through libyuv / libjpeg-turbo and come out as they must.
@Suite struct FrameConverterTests {
    /// A YUYV frame with Y = x mod 220 + 16, U = 100, V = 150.
    func yuyvFrame(width: Int, height: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 2)
        for y in 0..<height {
            for x in stride(from: 0, to: width, by: 2) {
                let i = (y * width + x) * 2
                bytes[i] = UInt8(x % 220 + 16); bytes[i + 1] = 100; bytes[i + 2] = UInt8((x + 1) % 220 + 16); bytes[i + 3] = 150
            }
        }
        return bytes
    }

    func frame(_ bytes: [UInt8], _ format: FourCC, _ width: Int, _ height: Int, stride: Int) -> ([UInt8], CameraFrame) {
        let view = bytes.withUnsafeBytes { $0 } // the caller keeps `bytes` alive
        let planes = CameraFrame.planes(of: format, height: UInt32(height), stride: stride, in: view)
        return (
            bytes,
            CameraFrame(
                pixelFormat: format, width: UInt32(width), height: UInt32(height), sequence: 7,
                timestampNanoseconds: 99, planes: planes.0, planes.1, planes.2)
        )
    }

    @Test func yuyvToNV12KeepsLumaAndAveragesChroma() throws {
        let source = yuyvFrame(width: 64, height: 32)
        let (_, input) = frame(source, .yuyv, 64, 32, stride: 128)
        let converter = FrameConverter(target: .nv12, width: 64, height: 32) // owns the output buffer
        let output = try #require(withExtendedLifetime(source) { converter.convert(input) })
        let luma = try #require(output.plane(0)), chroma = try #require(output.plane(1))
        #expect(luma.stride == 64 && chroma.bytes.count == 64 * 16)
        #expect((0..<64).allSatisfy { luma.bytes[5 * 64 + $0] == UInt8($0 % 220 + 16) })
        #expect(chroma.bytes[0] == 100 && chroma.bytes[1] == 150 && !output.isFullRange)
        #expect(output.sequence == 7 && output.timestampNanoseconds == 99)
    }

    @Test func yuyvToBGRAIsGreyForNeutralChroma() throws {
        var source = [UInt8](repeating: 0, count: 16 * 4 * 2)
        for i in stride(from: 0, to: source.count, by: 4) { source[i] = 126; source[i + 1] = 128; source[i + 2] = 126; source[i + 3] = 128 }
        let (_, input) = frame(source, .yuyv, 16, 4, stride: 32)
        let converter = FrameConverter(target: .bgra, width: 16, height: 4) // owns the output buffer
        let output = try #require(withExtendedLifetime(source) { converter.convert(input) })
        let pixel = output.plane(0)!.bytes
        #expect(abs(Int(pixel[0]) - Int(pixel[1])) <= 1 && abs(Int(pixel[1]) - Int(pixel[2])) <= 1 && pixel[3] == 255, "\(Array(pixel.prefix(4)))")
    }

    /// Red, as BT.601 limited-range YUV (Y 81, U 90, V 240), in every packed RGB layout.
    @Test func packedRGBTargetsPutTheBytesInTheirNamedOrder() throws {
        var source = [UInt8](repeating: 0, count: 16 * 4 * 2)
        for i in stride(from: 0, to: source.count, by: 4) { source[i] = 81; source[i + 1] = 90; source[i + 2] = 81; source[i + 3] = 240 }
        let (_, input) = frame(source, .yuyv, 16, 4, stride: 32)
        let red = [(FourCC.bgr24, 3, [2]), (.rgb24, 3, [0]), (.bgra, 4, [2]), (.rgba, 4, [0])]
        for (target, bytesPerPixel, redIndex) in red {
            let converter = FrameConverter(target: target, width: 16, height: 4) // owns the output buffer
            let output = try #require(withExtendedLifetime(source) { converter.convert(input) }, "\(target.name)")
            let plane = try #require(output.plane(0))
            #expect(plane.stride == 16 * bytesPerPixel && plane.bytes.count == 16 * 4 * bytesPerPixel, "\(target.name)")
            let pixel = Array(plane.bytes[(5 * bytesPerPixel)..<(6 * bytesPerPixel)])
            for channel in 0..<3 {
                let expected = redIndex.contains(channel) ? 255 : 0
                #expect(abs(Int(pixel[channel]) - expected) <= 8, "\(target.name) channel \(channel): \(pixel)")
            }
            if bytesPerPixel == 4 { #expect(pixel[3] == 255, "\(target.name) alpha") }
        }
    }

    /// GRAY8 is full-range luma, as OpenCV's greyscale: a YUV camera's video-range luma stretched.
    @Test func gray8IsFullRangeLuma() throws {
        let source = yuyvFrame(width: 64, height: 32)
        let (_, input) = frame(source, .yuyv, 64, 32, stride: 128)
        let converter = FrameConverter(target: .grey, width: 64, height: 32) // owns the output buffer
        let output = try #require(withExtendedLifetime(source) { converter.convert(input) })
        let luma = try #require(output.plane(0))
        #expect(output.planeCount == 1 && luma.stride == 64 && luma.bytes.count == 64 * 32)
        #expect(output.isFullRange)
        #expect((0..<64).allSatisfy { luma.bytes[7 * 64 + $0] == UInt8((Double($0 % 220) * 255 / 219).rounded()) })
    }

    @Test func pixelFormatsByTheirEverydayNames() {
        let expected: [(String, FourCC)] = [
            ("NV12", .nv12), ("i420", .i420), ("YU12", .i420), ("YUY2", .yuyv), ("uyvy", .uyvy),
            ("MJPEG", .mjpeg), ("MJPG", .mjpeg), ("BGRA", .bgra), ("RGBA", .rgba),
            ("BGR24", .bgr24), ("RGB24", .rgb24), ("GRAY8", .grey), ("Z16", FourCC("Z16 "))
        ]
        for (name, code) in expected { #expect(PixelFormatNames.code(name) == code, "\(name)") }
        #expect(PixelFormatNames.code("BOGUS") == nil && PixelFormatNames.code("") == nil && PixelFormatNames.code("a b") == nil)
        // One name per format in outputs: I420 for YU12, no padding, the big-endian flag spelled out, hex when unprintable.
        #expect(
            FourCC.i420.name == "I420" && FourCC("Z16 ").name == "Z16" && FourCC.mjpeg.name == "MJPEG" && FourCC.bgra.name == "BGRA"
                && FourCC.grey.name == "GRAY8")
        // The name asked for is the name read back, and every format with a name has its one name.
        for name in PixelFormatNames.everyday + ["H264", "BGRX"] { #expect(PixelFormatNames.code(name)?.name == name) }
        for entry in PixelFormatNames.table { #expect(PixelFormatNames.canonical[entry.code] != nil, "\(entry.name) has no one name") }
        #expect(FourCC(rawValue: FourCC("Y16 ").rawValue | 1 << 31).name == "Y16-BE")
        #expect(PixelFormatNames.code("Y16-BE") == FourCC(rawValue: FourCC("Y16 ").rawValue | 1 << 31))
        #expect(FourCC(rawValue: 0x0102_0304).name == "0x1020304")
        for name in PixelFormatNames.everyday {
            let code = PixelFormatNames.code(name)!
            #expect(FrameConverter.targets.contains(code) || code == .mjpeg, "\(name) is an output format")
            #expect(PixelFormatNames.code(code.name) == code, "\(name) round-trips through its output name")
        }
    }

    @Test func scalingDownKeepsTheRamp() throws {
        let source = yuyvFrame(width: 640, height: 360)
        let (_, input) = frame(source, .yuyv, 640, 360, stride: 1280)
        let converter = FrameConverter(target: .i420, width: 160, height: 90) // owns the output buffer
        let output = try #require(withExtendedLifetime(source) { converter.convert(input) })
        #expect(output.planeCount == 3 && output.plane(0)!.bytes.count == 160 * 90)
        // Every 4th source column survives, ±2 for the filter.
        let luma = output.plane(0)!.bytes
        #expect((0..<50).allSatisfy { abs(Int(luma[45 * 160 + $0]) - (($0 * 4 + 1) % 220 + 16)) <= 3 })
    }

    /// An I420 frame whose luma is x + 2y (each pixel its own place) and chroma x − y.
    func placedI420(width: Int, height: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 3 / 2)
        for y in 0..<height { for x in 0..<width { bytes[y * width + x] = UInt8(16 + (x + 2 * y) % 200) } }
        for y in 0..<height / 2 {
            for x in 0..<width / 2 {
                bytes[width * height + y * width / 2 + x] = UInt8(128 + (x - y) % 60)
                bytes[width * height * 5 / 4 + y * width / 2 + x] = UInt8(128 - (x - y) % 60)
            }
        }
        return bytes
    }

    /// Center Stage: a framed frame is its region, cut where the region says (even pixels, both
    /// planes together), at the output's size; the same frame without a region is the whole picture.
    @Test func aFramedFrameIsItsRegionCroppedThenScaled() throws {
        let source = placedI420(width: 64, height: 32)
        var (_, input) = frame(source, .i420, 64, 32, stride: 64)
        input.region = PictureRegion(x: 0.25, y: 0.5, width: 0.5, height: 0.5) // (16, 16) 32x16
        let sameSize = FrameConverter(target: .i420, width: 32, height: 16)
        let cropped = try #require(withExtendedLifetime(source) { sameSize.convert(input) })
        let (luma, blue) = (cropped.plane(0)!.bytes, cropped.plane(1)!.bytes)
        for y in 0..<16 { for x in 0..<32 { #expect(luma[y * 32 + x] == source[(16 + y) * 64 + 16 + x]) } }
        for y in 0..<8 { for x in 0..<16 { #expect(blue[y * 16 + x] == source[64 * 32 + (8 + y) * 32 + 8 + x]) } }
        #expect(cropped.region == nil, "a converted frame is the window itself")

        // At the camera's size the window is scaled up: a ramp of half the slope, from the corner.
        let whole = FrameConverter(target: .grey, width: 64, height: 32)
        let scaled = try #require(withExtendedLifetime(source) { whole.convert(input) })
        let grey = scaled.plane(0)!.bytes
        let windowSize = FrameConverter(target: .grey, width: 32, height: 16) // owns the reference's bytes
        let reference = try #require(withExtendedLifetime(source) { windowSize.convert(input) })
        // (±3: the bilinear filter blends each pixel with its neighbour)
        #expect(abs(Int(grey[0]) - Int(reference.plane(0)!.bytes[0])) <= 3)
        #expect(abs(Int(grey[64 * 10 + 40]) - Int(reference.plane(0)!.bytes[32 * 5 + 20])) <= 3)

        // Regions past the edges are kept inside the picture, on even pixels.
        #expect(PictureRegion(x: 0.9, y: -0.2, width: 0.5, height: 0.5).pixels(ofWidth: 64, height: 32) == (32, 0, 32, 16))
        #expect(PictureRegion(x: 0.33, y: 0.33, width: 0.33, height: 0.33).pixels(ofWidth: 63, height: 33) == (20, 10, 20, 10))
        // Numbers that are not numbers mean the whole picture, never a trap on the stream thread.
        #expect(PictureRegion(x: .nan, y: .infinity, width: -.infinity, height: .nan).pixels(ofWidth: 64, height: 32) == (0, 0, 64, 32))
        #expect(PictureRegion(x: -3, y: 5, width: 1e300, height: -1).pixels(ofWidth: 64, height: 32) == (0, 30, 64, 2))
    }

    func jpeg(width: Int, height: Int, subsampling: TJSAMP, luma: UInt8) throws -> [UInt8] {
        let compressor = try #require(tjInitCompress())
        defer { tjDestroy(compressor) }
        var pixels = [UInt8](repeating: luma, count: width * height * 3) // grey RGB
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = pixels.withUnsafeMutableBufferPointer {
            tjCompress2(
                compressor, $0.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                &output, &size, Int32(subsampling.rawValue), 95, 0)
        }
        #expect(result == 0)
        defer { tjFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    @Test(arguments: [TJSAMP_420, TJSAMP_422])
    func mjpegToNV12IsVideoRangeUnlessAsked(subsampling: TJSAMP) throws {
        let bytes = try jpeg(width: 64, height: 48, subsampling: subsampling, luma: 200)
        let (_, input) = frame(bytes, .mjpeg, 64, 48, stride: 0)
        let converter = FrameConverter(target: .nv12, width: 64, height: 48)
        let output = try #require(withExtendedLifetime(bytes) { converter.convert(input) })
        #expect(!output.isFullRange)
        let luma = output.plane(0)!.bytes, chroma = output.plane(1)!.bytes
        #expect(abs(Int(luma[100]) - (16 + 200 * 219 / 255)) <= 2) // full-range 200 is video-range 188
        #expect(abs(Int(chroma[10]) - 128) <= 2 && abs(Int(chroma[11]) - 128) <= 2)
        let full = FrameConverter(target: .nv12, width: 64, height: 48, yuvFullRange: true)
        let kept = try #require(withExtendedLifetime(bytes) { full.convert(input) })
        #expect(kept.isFullRange && abs(Int(kept.plane(0)!.bytes[100]) - 200) <= 2) // the JPEG's own value
    }

    /// A JPEG of a colour gradient (red across, blue down), and its planes as turbojpeg decodes them.
    func colourJPEG(width: Int, height: Int, subsampling: TJSAMP) throws -> (jpeg: [UInt8], y: [UInt8], u: [UInt8], v: [UInt8]) {
        let compressor = try #require(tjInitCompress())
        defer { tjDestroy(compressor) }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for row in 0..<height {
            for column in 0..<width {
                pixels[(row * width + column) * 3] = UInt8(column * 255 / (width - 1))
                pixels[(row * width + column) * 3 + 1] = 90
                pixels[(row * width + column) * 3 + 2] = UInt8(row * 255 / (height - 1))
            }
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        #expect(
            tjCompress2(
                compressor, &pixels, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                &output, &size, Int32(subsampling.rawValue), 95, 0) == 0)
        defer { tjFree(output) }
        let jpeg = Array(UnsafeBufferPointer(start: output, count: Int(size)))
        let decompressor = try #require(tjInitDecompress())
        defer { tjDestroy(decompressor) }
        // Chroma at the JPEG's own sampling (none for greyscale).
        let sampling = Int32(subsampling.rawValue)
        let chromaWidth = max(0, Int(tjPlaneWidth(1, Int32(width), sampling)))
        let chromaSize = chromaWidth * max(0, Int(tjPlaneHeight(1, Int32(height), sampling)))
        var (y, u, v) = (
            [UInt8](repeating: 0, count: width * height), [UInt8](repeating: 0, count: chromaSize),
            [UInt8](repeating: 0, count: chromaSize)
        )
        y.withUnsafeMutableBufferPointer { yp in
            u.withUnsafeMutableBufferPointer { up in
                v.withUnsafeMutableBufferPointer { vp in
                    var planes: [UnsafeMutablePointer<UInt8>?] = chromaSize == 0 ? [yp.baseAddress, nil, nil] : [yp.baseAddress, up.baseAddress, vp.baseAddress]
                    var strides: [Int32] = [Int32(width), Int32(chromaWidth), Int32(chromaWidth)]
                    _ = tjDecompressToYUVPlanes(decompressor, jpeg, UInt(jpeg.count), &planes, Int32(width), &strides, Int32(height), 0)
                }
            }
        }
        return (jpeg, y, u, v)
    }

    /// MJPEG to NV12 and I420 at the camera's size decodes the luma straight into the output:
    /// the luma is turbojpeg's exactly, the chroma its planes (4:2:2 rows averaged in pairs).
    @Test(arguments: [TJSAMP_420, TJSAMP_422])
    func mjpegDecodesStraightIntoTheOutput(subsampling: TJSAMP) throws {
        let (width, height) = (64, 48)
        let reference = try colourJPEG(width: width, height: height, subsampling: subsampling)
        let (_, input) = frame(reference.jpeg, .mjpeg, width, height, stride: 0)
        func expectedChroma(_ plane: [UInt8], _ index: Int) -> Int {
            let (row, column) = (index / (width / 2), index % (width / 2))
            guard subsampling == TJSAMP_422 else { return Int(plane[index]) }
            return (Int(plane[2 * row * (width / 2) + column]) + Int(plane[(2 * row + 1) * (width / 2) + column]) + 1) / 2
        }
        // Full range asked for: the decoder's planes as they are (video range is a table lookup over them).
        let i420 = FrameConverter(target: .i420, width: UInt32(width), height: UInt32(height), yuvFullRange: true)
        let planar = try #require(withExtendedLifetime(reference.jpeg) { i420.convert(input) })
        #expect(Array(planar.plane(0)!.bytes) == reference.y)
        let (u, v) = (Array(planar.plane(1)!.bytes), Array(planar.plane(2)!.bytes))
        let chromaMatches = (0..<u.count).allSatisfy { (index: Int) -> Bool in
            abs(Int(u[index]) - expectedChroma(reference.u, index)) <= 1 && abs(Int(v[index]) - expectedChroma(reference.v, index)) <= 1
        }
        #expect(chromaMatches)
        let nv12 = FrameConverter(target: .nv12, width: UInt32(width), height: UInt32(height), yuvFullRange: true)
        let semi = try #require(withExtendedLifetime(reference.jpeg) { nv12.convert(input) })
        #expect(Array(semi.plane(0)!.bytes) == reference.y)
        let video = FrameConverter(target: .nv12, width: UInt32(width), height: UInt32(height))
        let videoLuma = try #require(withExtendedLifetime(reference.jpeg) { video.convert(input) }).plane(0)!.bytes
        #expect((0..<reference.y.count).allSatisfy { videoLuma[$0] == UInt8((16 + Double(reference.y[$0]) * 219 / 255).rounded()) })
        let uv = Array(semi.plane(1)!.bytes)
        let interleaved = (0..<u.count).allSatisfy { (index: Int) -> Bool in uv[2 * index] == u[index] && uv[2 * index + 1] == v[index] }
        #expect(interleaved)
    }

    /// Every chroma sampling a JPEG may use decodes, greyscale too (infrared cameras send it):
    /// the picture as libjpeg-turbo's own full decode to BGR has it, within rounding.
    @Test(arguments: [TJSAMP_444, TJSAMP_422, TJSAMP_420, TJSAMP_440, TJSAMP_411, TJSAMP_GRAY])
    func everyJPEGSamplingDecodes(subsampling: TJSAMP) throws {
        let (width, height) = (64, 48)
        let reference = try colourJPEG(width: width, height: height, subsampling: subsampling)
        let decompressor = try #require(tjInitDecompress())
        defer { tjDestroy(decompressor) }
        var expected = [UInt8](repeating: 0, count: width * height * 4)
        #expect(
            tjDecompress2(
                decompressor, reference.jpeg, UInt(reference.jpeg.count), &expected, Int32(width), 0, Int32(height),
                Int32(TJPF_BGRX.rawValue), 0) == 0)
        let (_, input) = frame(reference.jpeg, .mjpeg, width, height, stride: 0)
        for target in [FourCC.bgra, .nv12] {
            let converter = FrameConverter(target: target, width: UInt32(width), height: UInt32(height))
            let output = try #require(withExtendedLifetime(reference.jpeg) { converter.convert(input) }, "\(target) from \(subsampling)")
            #expect(converter.corruptFrames == 0)
            guard target == .bgra else { continue }
            let pixels = Array(output.plane(0)!.bytes)
            var (total, worst) = (0, 0)
            for index in pixels.indices where index % 4 != 3 {
                let difference = abs(Int(pixels[index]) - Int(expected[index]))
                (total, worst) = (total + difference, max(worst, difference))
            }
            let mean = Double(total) / Double(width * height * 3)
            #expect(mean < 3 && worst < 40, "mean \(mean), worst \(worst) against libjpeg-turbo's decode")
        }
    }

    /// A raw frame whose buffer is short of the size it claims (another app renegotiated the
    /// camera to 640x480 while this output converts 1080p) is dropped as corrupt, never read.
    @Test(arguments: [FourCC.yuyv, .uyvy, .nv12, .i420])
    func aFrameShortOfItsSizeIsDroppedNotRead(format: FourCC) {
        let bytes = [UInt8](repeating: 0x80, count: 640 * 480 * 2)
        let (_, input) = frame(bytes, format, 1920, 1080, stride: format == .yuyv || format == .uyvy ? 3840 : 1920)
        for converter in [
            FrameConverter(target: .i420, width: 1920, height: 1080), FrameConverter(target: .bgra, width: 640, height: 360),
            FrameConverter(target: .nv12, width: 1080, height: 1920, rotation: 90)
        ] {
            #expect(withExtendedLifetime(bytes) { converter.convert(input) } == nil)
            #expect(converter.corruptFrames == 1)
        }
    }

    @Test func corruptMJPEGIsDroppedAndCounted() throws {
        var bytes = try jpeg(width: 64, height: 48, subsampling: TJSAMP_420, luma: 90)
        bytes.replaceSubrange(2..<40, with: repeatElement(0x00, count: 38)) // header destroyed
        let (_, input) = frame(bytes, .mjpeg, 64, 48, stride: 0)
        let converter = FrameConverter(target: .nv12, width: 64, height: 48)
        #expect(withExtendedLifetime(bytes) { converter.convert(input) } == nil)
        let truncated = Array(try jpeg(width: 64, height: 48, subsampling: TJSAMP_420, luma: 90).prefix(10))
        let (_, cut) = frame(truncated, .mjpeg, 64, 48, stride: 0)
        #expect(withExtendedLifetime(truncated) { converter.convert(cut) } == nil)
        #expect(converter.corruptFrames == 2)
    }

    @Test func supportedConversions() {
        #expect(FrameConverter.canConvert(from: .mjpeg, to: .bgra))
        #expect(FrameConverter.canConvert(from: .uyvy, to: .nv12))
        #expect(FrameConverter.canConvert(from: .h264, to: .nv12))
        #expect(!FrameConverter.canConvert(from: .nv12, to: .h264), "nothing encodes H.264 for an output")
        #expect(!FrameConverter.canConvert(from: .nv12, to: .mjpeg))
    }
}

extension FrameConverterTests {
    /// A YUYV frame whose luma is 16 + x·4 (a ramp along x), converted with a turn and a flip.
    func turned(_ rotation: Int, mirrored: Bool) throws -> (CameraFrame, FrameConverter, [UInt8]) {
        var source = [UInt8](repeating: 128, count: 32 * 16 * 2)
        for y in 0..<16 { for x in 0..<32 { source[(y * 32 + x) * 2] = UInt8(16 + x * 4) } }
        let (_, input) = frame(source, .yuyv, 32, 16, stride: 64)
        let quarter = rotation % 180 != 0
        let converter = FrameConverter(
            target: .i420, width: quarter ? 16 : 32, height: quarter ? 32 : 16,
            rotation: rotation, mirrored: mirrored)
        let output = try #require(withExtendedLifetime(source) { converter.convert(input) })
        return (output, converter, source)
    }

    @Test func quarterTurnClockwiseMovesTheRampDown() throws {
        let (output, converter, _) = try turned(90, mirrored: false)
        let luma = output.plane(0)!
        #expect((output.width, output.height) == (16, 32))
        // A clockwise quarter turn sends column x to row x: the ramp now runs down the rows.
        #expect((0..<32).allSatisfy { row in luma.bytes[row * luma.stride + 5] == UInt8(16 + row * 4) })
        withExtendedLifetime(converter) {}
    }

    @Test func halfTurnAndMirrorCancelHorizontally() throws {
        let (turned, keep1, _) = try turned(180, mirrored: false)
        #expect(turned.plane(0)!.bytes[0] == UInt8(16 + 31 * 4)) // the ramp reversed
        let (both, keep2, _) = try self.turned(180, mirrored: true)
        #expect(both.plane(0)!.bytes[0] == 16 && both.plane(0)!.bytes[31] == UInt8(16 + 31 * 4)) // flipped back
        withExtendedLifetime((keep1, keep2)) {}
    }
}

extension FrameConverterTests {
    @Test func nv12OutputTurnsToo() throws {
        var source = [UInt8](repeating: 128, count: 32 * 16 * 2)
        for y in 0..<16 { for x in 0..<32 { source[(y * 32 + x) * 2] = UInt8(16 + x * 4) } }
        let (_, input) = frame(source, .yuyv, 32, 16, stride: 64)
        let converter = FrameConverter(target: .nv12, width: 16, height: 32, rotation: 270)
        let output = try #require(withExtendedLifetime(source) { converter.convert(input) })
        let luma = output.plane(0)!
        // Counter-clockwise quarter turn: column x lands on row 31 - x.
        #expect(output.planeCount == 2 && (0..<32).allSatisfy { row in luma.bytes[row * luma.stride] == UInt8(16 + (31 - row) * 4) })
        #expect(output.plane(1)!.bytes.allSatisfy { $0 == 128 })
    }
}
