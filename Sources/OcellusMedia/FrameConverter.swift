import CLibYUV
import CTurboJPEG
import OcellusCapture
import OcellusCore

/// Converts, scales, rotates (clockwise, by right angles) and mirrors camera frames
/// for one output with libyuv, decoding MJPEG with libjpeg-turbo and H.264 with libavcodec. Every buffer is allocated on first use (and on a size
/// change) and reused, so steady-state conversion allocates nothing. YUYV/UYVY
/// at the same size go straight to NV12, I420 or BGRA; everything else passes
/// through I420, scaled when the sizes differ.
///
/// Colour range, BT.601 throughout: RGB targets are full range, converted with the source's
/// own range (a decoded JPEG is full range, YUV cameras send video range); GREY is full-range
/// luma, as OpenCV's grey; YUV targets are video range unless `yuvFullRange`, whatever the
/// source (so MJPEG becomes NV12 that OpenCV's `COLOR_YUV2BGR_NV12` reads right).
public final class FrameConverter: FrameConverting {
    public let target: FourCC
    /// The delivered size (after rotation).
    public let width: UInt32
    public let height: UInt32
    /// Clockwise degrees applied to the pixels: 0, 90, 180 or 270.
    public let rotation: Int
    /// Flipped about the vertical axis (after rotation).
    public let mirrored: Bool
    /// YUV targets in full range (0–255) instead of video range.
    public let yuvFullRange: Bool
    /// MJPEG frames that could not be decoded (dropped, never delivered).
    public private(set) var corruptFrames: UInt64 = 0

    private var destination = Buffer()
    private var sourcePlanar = Planar()
    private var scaledPlanar = Planar()
    private var jpegChroma = Buffer() // chroma of JPEGs not 4:2:0 (4:4:4, 4:2:2, 4:4:0, 4:1:1) before I420
    private var rotatedPlanar = Planar()
    private var mirroredPlanar = Planar()
    private var decompressor: tjhandle?
    private var h264: H264Decoder?
    private var waitingForKeyFrame: FrameDropReason? = .discontinuity // H.264: nothing decodes before the first

    public static let sources: Set<FourCC> = [.yuyv, .uyvy, .nv12, .i420, .mjpeg, .h264]
    public static let targets: Set<FourCC> = [.nv12, .i420, .yuyv, .uyvy, .bgra, .rgba, .bgr24, .rgb24, .grey]

    /// H.264 is decoded by FFmpeg, which is loaded on first use: without it, only other sources convert.
    public static func canConvert(from source: FourCC, to target: FourCC) -> Bool {
        source == target || (sources.contains(source) && targets.contains(target) && (source != .h264 || (try? LibAV.load()) != nil))
    }

    public init(target: FourCC, width: UInt32, height: UInt32, rotation: Int = 0, mirrored: Bool = false, yuvFullRange: Bool = false) {
        self.target = target
        self.yuvFullRange = yuvFullRange
        self.width = width
        self.height = height
        self.rotation = ((rotation % 360) + 360) % 360
        self.mirrored = mirrored
    }

    deinit {
        destination.free()
        sourcePlanar.free()
        scaledPlanar.free()
        jpegChroma.free()
        rotatedPlanar.free()
        mirroredPlanar.free()
        if let decompressor { tjDestroy(decompressor) }
    }

    /// An H.264 frame over the output's rate still goes through the decoder (the pictures after
    /// it refer to it); one that came late is dropped with its dependants until the next IDR
    /// picture, so that an output that fell behind catches up instead of decoding for nothing.
    public func skip(_ frame: CameraFrame, late: Bool) {
        guard frame.pixelFormat == .h264, let unit = frame.plane(0)?.bytes else { return }
        if late {
            waitingForKeyFrame = waitingForKeyFrame ?? .late
            return
        }
        guard keyFrameWait(before: frame) == nil else { return }
        if h264 == nil { h264 = H264Decoder(maxPixels: Int(frame.width) * Int(frame.height)) }
        _ = h264?.decode(unit)
    }

    public func keyFrameWait(before frame: CameraFrame) -> FrameDropReason? {
        guard let waiting = waitingForKeyFrame, frame.pixelFormat == .h264, let unit = frame.plane(0)?.bytes else { return nil }
        if H264.isKeyFrame(unit) { waitingForKeyFrame = nil }
        return waitingForKeyFrame == nil ? nil : waiting
    }

    /// The converted frame (views into this converter's buffer, valid until the next
    /// call), or nil when the source cannot be decoded or its bytes are short of its format.
    public func convert(_ frame: CameraFrame) -> CameraFrame? {
        guard frame.holdsItsPicture else {
            corruptFrames += 1
            return nil
        }
        let (w, h) = (Int(width), Int(height))
        let layout = Self.layout(of: target, width: w, height: h)
        destination.ensure(layout.total)
        let out = destination.base!
        // The image before rotation: width and height swap for quarter turns.
        let quarterTurn = rotation == 90 || rotation == 270
        let (preWidth, preHeight) = quarterTurn ? (height, width) : (width, height)
        // A frame framed by Center Stage is cropped to its region, then scaled to the output's size.
        let sameSize = frame.region == nil && frame.width == preWidth && frame.height == preHeight
        let reorients = rotation != 0 || mirrored
        guard let source = frame.plane(0), let src = source.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let srcStride = Int32(source.stride)
        var fullRange = frame.isFullRange

        // Fast paths: packed 4:2:2 at the same size, one libyuv call (which keeps the range, or
        // for BGRA reads video range).
        if sameSize && !reorients && (frame.pixelFormat == .yuyv || frame.pixelFormat == .uyvy) && [.nv12, .i420, .bgra].contains(target)
            && frame.isFullRange == (target == .bgra ? false : yuvFullRange)
        {
            let yuyv = frame.pixelFormat == .yuyv
            let (y, u, v) = (out, out + layout.offsets.1, out + layout.offsets.2)
            switch target {
            case .nv12:
                _ =
                    yuyv
                    ? YUY2ToNV12(src, srcStride, y, Int32(w), u, Int32(w), Int32(w), Int32(h))
                    : UYVYToNV12(src, srcStride, y, Int32(w), u, Int32(w), Int32(w), Int32(h))
            case .i420:
                _ =
                    yuyv
                    ? YUY2ToI420(src, srcStride, y, Int32(w), u, Int32(w / 2), v, Int32(w / 2), Int32(w), Int32(h))
                    : UYVYToI420(src, srcStride, y, Int32(w), u, Int32(w / 2), v, Int32(w / 2), Int32(w), Int32(h))
            default:
                _ =
                    yuyv
                    ? YUY2ToARGB(src, srcStride, out, Int32(w * 4), Int32(w), Int32(h))
                    : UYVYToARGB(src, srcStride, out, Int32(w * 4), Int32(w), Int32(h))
            }
            return makeFrame(frame, layout: layout, fullRange: target == .bgra || frame.isFullRange)
        }

        // MJPEG to NV12 or I420 at the same size: luma decoded straight into the output (no
        // copy of the largest plane), chroma merged (NV12) or decoded in place too (I420).
        if sameSize && !reorients && frame.pixelFormat == .mjpeg && (target == .nv12 || target == .i420) {
            guard
                decodeJPEG(
                    source.bytes, width: w, height: h, luma: (out, Int32(w)),
                    chroma: target == .i420 ? (out + layout.offsets.1, out + layout.offsets.2, Int32(w / 2)) : nil)
            else {
                corruptFrames += 1
                return nil
            }
            if target == .nv12 {
                MergeUVPlane(
                    sourcePlanar.u, sourcePlanar.cStride, sourcePlanar.v, sourcePlanar.cStride,
                    out + layout.offsets.1, Int32(w), Int32(w / 2), Int32(h / 2))
            }
            setYUVRange(out, layout: layout, from: true)
            return makeFrame(frame, layout: layout, fullRange: yuvFullRange)
        }

        // Everything else: the source as I420 at its own size…
        let (sw, sh) = (Int(frame.width), Int(frame.height))
        if frame.pixelFormat != .h264 { sourcePlanar.ensure(width: sw, height: sh) } // H.264 is read where it is decoded
        var planar = sourcePlanar
        switch frame.pixelFormat {
        case .yuyv:
            YUY2ToI420(src, srcStride, planar.y, planar.yStride, planar.u, planar.cStride, planar.v, planar.cStride, Int32(sw), Int32(sh))
        case .uyvy:
            UYVYToI420(src, srcStride, planar.y, planar.yStride, planar.u, planar.cStride, planar.v, planar.cStride, Int32(sw), Int32(sh))
        case .nv12:
            guard let uv = frame.plane(1) else { return nil }
            NV12ToI420(
                src, srcStride, uv.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(uv.stride),
                planar.y, planar.yStride, planar.u, planar.cStride, planar.v, planar.cStride, Int32(sw), Int32(sh))
        case .i420:
            guard let u = frame.plane(1), let v = frame.plane(2) else { return nil }
            I420Copy(
                src, srcStride, u.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(u.stride),
                v.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(v.stride),
                planar.y, planar.yStride, planar.u, planar.cStride, planar.v, planar.cStride, Int32(sw), Int32(sh))
        case .mjpeg:
            guard decodeJPEG(source.bytes, width: sw, height: sh) else {
                corruptFrames += 1
                return nil
            }
            fullRange = true
        case .h264:
            // Nothing before the stream's first IDR picture (not corrupt: callers ask keyFrameWait first).
            guard keyFrameWait(before: frame) == nil else { return nil }
            if h264 == nil { h264 = H264Decoder(maxPixels: sw * sh) }
            guard let picture = h264?.decode(source.bytes), picture.width == sw, picture.height == sh else {
                corruptFrames += 1
                return nil
            }
            planar = Planar(viewing: picture) // read in place: the decoder keeps the picture until its next call
            fullRange = picture.isFullRange
        default:
            return nil
        }
        // …cropped to the frame's region (a view: no copy)…
        var (cw, ch) = (sw, sh)
        if let region = frame.region {
            let crop = region.pixels(ofWidth: sw, height: sh)
            planar = planar.cropped(x: crop.x, y: crop.y)
            (cw, ch) = (crop.width, crop.height)
        }
        // …scaled when the output is smaller (or larger)…
        var image = planar
        let (pw, ph) = (Int(preWidth), Int(preHeight))
        if cw != pw || ch != ph {
            scaledPlanar.ensure(width: pw, height: ph)
            I420Scale(
                planar.y, planar.yStride, planar.u, planar.cStride, planar.v, planar.cStride, Int32(cw), Int32(ch),
                scaledPlanar.y, scaledPlanar.yStride, scaledPlanar.u, scaledPlanar.cStride,
                scaledPlanar.v, scaledPlanar.cStride, Int32(pw), Int32(ph), kFilterBilinear)
            image = scaledPlanar
        }
        // …turned and mirrored when the output asks (costly: the display layer can do it for free)…
        if rotation != 0 {
            rotatedPlanar.ensure(width: w, height: h)
            I420Rotate(
                image.y, image.yStride, image.u, image.cStride, image.v, image.cStride,
                rotatedPlanar.y, rotatedPlanar.yStride, rotatedPlanar.u, rotatedPlanar.cStride,
                rotatedPlanar.v, rotatedPlanar.cStride, Int32(pw), Int32(ph), RotationMode(rawValue: UInt32(rotation)))
            image = rotatedPlanar
        }
        if mirrored {
            mirroredPlanar.ensure(width: w, height: h)
            I420Mirror(
                image.y, image.yStride, image.u, image.cStride, image.v, image.cStride,
                mirroredPlanar.y, mirroredPlanar.yStride, mirroredPlanar.u, mirroredPlanar.cStride,
                mirroredPlanar.v, mirroredPlanar.cStride, Int32(w), Int32(h))
            image = mirroredPlanar
        }
        // …then into the target: RGB from the source's range (libyuv's J420 functions read full
        // range, its I420 ones video range), YUV and grey moved into theirs.
        let (y, u, v, ys, cs) = (image.y, image.u, image.v, image.yStride, image.cStride)
        switch target {
        case .nv12:
            I420ToNV12(y, ys, u, cs, v, cs, out, Int32(w), out + layout.offsets.1, Int32(w), Int32(w), Int32(h))
        case .i420:
            I420Copy(y, ys, u, cs, v, cs, out, Int32(w), out + layout.offsets.1, Int32(w / 2), out + layout.offsets.2, Int32(w / 2), Int32(w), Int32(h))
        case .yuyv:
            I420ToYUY2(y, ys, u, cs, v, cs, out, Int32(w * 2), Int32(w), Int32(h))
        case .uyvy:
            I420ToUYVY(y, ys, u, cs, v, cs, out, Int32(w * 2), Int32(w), Int32(h))
        // libyuv names packed RGB by its word order: its "ARGB" is B,G,R,A in memory, "ABGR" is
        // R,G,B,A, "RGB24" is B,G,R and "RAW" is R,G,B.
        case .rgba:
            _ =
                fullRange
                ? J420ToABGR(y, ys, u, cs, v, cs, out, Int32(w * 4), Int32(w), Int32(h))
                : I420ToABGR(y, ys, u, cs, v, cs, out, Int32(w * 4), Int32(w), Int32(h))
        case .bgr24:
            _ =
                fullRange
                ? J420ToRGB24(y, ys, u, cs, v, cs, out, Int32(w * 3), Int32(w), Int32(h))
                : I420ToRGB24(y, ys, u, cs, v, cs, out, Int32(w * 3), Int32(w), Int32(h))
        case .rgb24:
            _ =
                fullRange
                ? J420ToRAW(y, ys, u, cs, v, cs, out, Int32(w * 3), Int32(w), Int32(h))
                : I420ToRAW(y, ys, u, cs, v, cs, out, Int32(w * 3), Int32(w), Int32(h))
        case .grey:
            CopyPlane(y, ys, out, Int32(w), Int32(w), Int32(h))
            if !fullRange { ColorRange.convert(out, stride: w, width: w, height: h, chroma: false, .toFull) }
        default:
            _ =
                fullRange
                ? J420ToARGB(y, ys, u, cs, v, cs, out, Int32(w * 4), Int32(w), Int32(h))
                : I420ToARGB(y, ys, u, cs, v, cs, out, Int32(w * 4), Int32(w), Int32(h))
        }
        setYUVRange(out, layout: layout, from: fullRange)
        return makeFrame(frame, layout: layout, fullRange: target.isYUV ? yuvFullRange : true)
    }

    /// Moves a YUV target written in the source's range (`from` full range or not) into the output's.
    private func setYUVRange(_ out: UnsafeMutablePointer<UInt8>, layout: Layout, from sourceFullRange: Bool) {
        guard target.isYUV, sourceFullRange != yuvFullRange else { return }
        let direction: ColorRange.Direction = yuvFullRange ? .toFull : .toVideo
        let (w, h) = (Int(width), Int(height))
        switch target {
        case .nv12:
            ColorRange.convert(out, stride: w, width: w, height: h, chroma: false, direction)
            ColorRange.convert(out + layout.offsets.1, stride: w, width: w, height: h / 2, chroma: true, direction)
        case .i420:
            ColorRange.convert(out, stride: w, width: w, height: h, chroma: false, direction)
            ColorRange.convert(out + layout.offsets.1, stride: w / 2, width: w / 2, height: h, chroma: true, direction)
        default:
            ColorRange.convertPacked(out, stride: w * 2, width: w, height: h, lumaFirst: target == .yuyv, direction)
        }
    }

    /// Decodes a JPEG as I420: luma into `luma` (default: `sourcePlanar`'s), chroma into
    /// `chroma` (default: `sourcePlanar`'s); false for a corrupt or unexpected JPEG.
    private func decodeJPEG(
        _ bytes: UnsafeRawBufferPointer, width: Int, height: Int,
        luma: (UnsafeMutablePointer<UInt8>, Int32)? = nil,
        chroma: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int32)? = nil
    ) -> Bool {
        if decompressor == nil { decompressor = tjInitDecompress() }
        guard let decompressor, let jpeg = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        var (jpegWidth, jpegHeight, subsampling, colorspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard tjDecompressHeader3(decompressor, jpeg, UInt(bytes.count), &jpegWidth, &jpegHeight, &subsampling, &colorspace) == 0,
            Int(jpegWidth) == width, Int(jpegHeight) == height
        else { return false }
        sourcePlanar.ensure(width: width, height: height)
        let planar = sourcePlanar
        let (y, yStride) = luma ?? (planar.y, planar.yStride)
        let (u, v, cStride) = chroma ?? (planar.u, planar.v, planar.cStride)
        let count = UInt(bytes.count)
        switch subsampling {
        case Int32(TJSAMP_420.rawValue):
            var planes: [UnsafeMutablePointer<UInt8>?] = [y, u, v]
            var strides: [Int32] = [yStride, cStride, cStride]
            return tjDecompressToYUVPlanes(decompressor, jpeg, count, &planes, jpegWidth, &strides, jpegHeight, 0) == 0
        case Int32(TJSAMP_GRAY.rawValue):
            // Greyscale (infrared cameras): the luma, and neutral chroma.
            var planes: [UnsafeMutablePointer<UInt8>?] = [y, nil, nil]
            var strides: [Int32] = [yStride, 0, 0]
            guard tjDecompressToYUVPlanes(decompressor, jpeg, count, &planes, jpegWidth, &strides, jpegHeight, 0) == 0 else { return false }
            let (chromaWidth, chromaHeight) = (Int32((width + 1) / 2), Int32((height + 1) / 2))
            SetPlane(u, cStride, chromaWidth, chromaHeight, 128)
            SetPlane(v, cStride, chromaWidth, chromaHeight, 128)
            return true
        default:
            // Any other sampling a JPEG may use (UVC cameras mostly send 4:2:2): chroma decoded at
            // its own size, then scaled to 4:2:0's (as libyuv's I422ToI420 does, without its copy
            // of the luma).
            let (jpegChromaWidth, jpegChromaHeight) = (tjPlaneWidth(1, jpegWidth, subsampling), tjPlaneHeight(1, jpegHeight, subsampling))
            guard jpegChromaWidth > 0, jpegChromaHeight > 0 else { return false }
            let planeSize = Int(jpegChromaWidth) * Int(jpegChromaHeight)
            jpegChroma.ensure(2 * planeSize)
            let (jpegU, jpegV) = (jpegChroma.base!, jpegChroma.base! + planeSize)
            var planes: [UnsafeMutablePointer<UInt8>?] = [y, jpegU, jpegV]
            var strides: [Int32] = [yStride, jpegChromaWidth, jpegChromaWidth]
            guard tjDecompressToYUVPlanes(decompressor, jpeg, count, &planes, jpegWidth, &strides, jpegHeight, 0) == 0 else {
                return false
            }
            let (chromaWidth, chromaHeight) = (Int32((width + 1) / 2), Int32((height + 1) / 2))
            ScalePlane(jpegU, jpegChromaWidth, jpegChromaWidth, jpegChromaHeight, u, cStride, chromaWidth, chromaHeight, kFilterBilinear)
            ScalePlane(jpegV, jpegChromaWidth, jpegChromaWidth, jpegChromaHeight, v, cStride, chromaWidth, chromaHeight, kFilterBilinear)
            return true
        }
    }

    private func makeFrame(_ source: CameraFrame, layout: Layout, fullRange: Bool) -> CameraFrame {
        let base = UnsafeRawPointer(destination.base!)
        func plane(_ offset: Int, _ size: Int, _ stride: Int) -> FramePlane {
            FramePlane(bytes: UnsafeRawBufferPointer(start: base + offset, count: size), stride: stride)
        }
        let (w, h) = (Int(width), Int(height))
        let planes: (FramePlane, FramePlane?, FramePlane?) =
            switch target {
            case .nv12: (plane(0, w * h, w), plane(layout.offsets.1, w * h / 2, w), nil)
            case .i420: (plane(0, w * h, w), plane(layout.offsets.1, w * h / 4, w / 2), plane(layout.offsets.2, w * h / 4, w / 2))
            case .yuyv, .uyvy: (plane(0, w * h * 2, w * 2), nil, nil)
            case .bgr24, .rgb24: (plane(0, w * h * 3, w * 3), nil, nil)
            case .grey: (plane(0, w * h, w), nil, nil)
            default: (plane(0, w * h * 4, w * 4), nil, nil)
            }
        return CameraFrame(
            pixelFormat: target, width: width, height: height, sequence: source.sequence,
            timestampNanoseconds: source.timestampNanoseconds, isCorrupt: source.isCorrupt,
            isFullRange: fullRange, planes: planes.0, planes.1, planes.2)
    }

    struct Layout {
        let total: Int
        let offsets: (Int, Int, Int)
    }

    static func layout(of format: FourCC, width w: Int, height h: Int) -> Layout {
        switch format {
        case .nv12: Layout(total: w * h * 3 / 2, offsets: (0, w * h, 0))
        case .i420: Layout(total: w * h * 3 / 2, offsets: (0, w * h, w * h + w * h / 4))
        case .yuyv, .uyvy: Layout(total: w * h * 2, offsets: (0, 0, 0))
        case .bgr24, .rgb24: Layout(total: w * h * 3, offsets: (0, 0, 0))
        case .grey: Layout(total: w * h, offsets: (0, 0, 0))
        default: Layout(total: w * h * 4, offsets: (0, 0, 0))
        }
    }
}

/// A reusable byte buffer, grown when needed.
struct Buffer {
    private(set) var base: UnsafeMutablePointer<UInt8>?
    private var capacity = 0

    mutating func ensure(_ size: Int) {
        guard size > capacity else { return }
        base?.deallocate()
        base = .allocate(capacity: size)
        capacity = size
    }

    func free() { base?.deallocate() }
}

/// Reusable I420 planes.
struct Planar {
    private var buffer = Buffer()
    private(set) var y: UnsafeMutablePointer<UInt8>!
    private(set) var u: UnsafeMutablePointer<UInt8>!
    private(set) var v: UnsafeMutablePointer<UInt8>!
    private(set) var yStride: Int32 = 0
    private(set) var cStride: Int32 = 0
    private var size = (0, 0)

    init() {}

    /// A view of a decoded picture's planes (nothing to free).
    init(viewing picture: H264Decoder.Picture) {
        y = UnsafeMutablePointer(mutating: picture.y.bytes)
        u = UnsafeMutablePointer(mutating: picture.u.bytes)
        v = UnsafeMutablePointer(mutating: picture.v.bytes)
        (yStride, cStride) = (picture.y.stride, picture.u.stride)
    }

    /// A view of these planes from (`x`, `y`) on, both even (nothing to free).
    func cropped(x: Int, y: Int) -> Planar {
        var view = Planar()
        view.y = self.y + y * Int(yStride) + x
        view.u = u + (y / 2) * Int(cStride) + x / 2
        view.v = v + (y / 2) * Int(cStride) + x / 2
        (view.yStride, view.cStride) = (yStride, cStride)
        return view
    }

    mutating func ensure(width: Int, height: Int) {
        guard size != (width, height) else { return }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        buffer.ensure(width * height + 2 * chromaWidth * chromaHeight)
        y = buffer.base
        u = y + width * height
        v = u + chromaWidth * chromaHeight
        (yStride, cStride, size) = (Int32(width), Int32(chromaWidth), (width, height))
    }

    func free() { buffer.free() }
}

/// The conversions libyuv and libjpeg-turbo give capture sessions.
public struct MediaConversion: FrameConversion {
    public init() {}

    public func canConvert(from source: FourCC, to target: FourCC) -> Bool {
        FrameConverter.canConvert(from: source, to: target)
    }

    public func makeConverter(
        to target: FourCC, width: UInt32, height: UInt32, rotation: Int, mirrored: Bool,
        yuvFullRange: Bool
    ) -> any FrameConverting {
        FrameConverter(target: target, width: width, height: height, rotation: rotation, mirrored: mirrored, yuvFullRange: yuvFullRange)
    }
}
