/// Whether a frame's bytes hold the picture its format, size and strides claim. A producer can
/// send less than it negotiated — another app renegotiated the camera, a buffer cut short by an
/// unplug, a producer that lies — and every reader of raw pixels (libyuv, the depth conversion,
/// an app's callback) reads width × height at the stated strides without looking: a frame that
/// fails here is dropped as corrupt before anything reads it.
extension CameraFrame {
    public var holdsItsPicture: Bool {
        let (w, h) = (Int(width), Int(height))
        guard w > 0, h > 0 else { return false }
        let (chromaWidth, chromaHeight) = ((w + 1) / 2, (h + 1) / 2)
        switch pixelFormat {
        case .yuyv, .uyvy, .z16, .y16, .y12:
            return plane(0, holdsRows: h, of: 2 * w)
        case .grey:
            return plane(0, holdsRows: h, of: w)
        case .rgb24, .bgr24:
            return plane(0, holdsRows: h, of: 3 * w)
        case .bgrx, .bgra, .rgba, .depthMetres:
            return plane(0, holdsRows: h, of: 4 * w)
        case .nv12:
            return plane(0, holdsRows: h, of: w) && plane(1, holdsRows: chromaHeight, of: 2 * chromaWidth)
        case .i420:
            return plane(0, holdsRows: h, of: w) && plane(1, holdsRows: chromaHeight, of: chromaWidth)
                && plane(2, holdsRows: chromaHeight, of: chromaWidth)
        case .mjpeg, .h264:
            // Compressed: any bytes at all; the decoder checks the picture's own header.
            return plane(0).map { $0.bytes.baseAddress != nil && !$0.bytes.isEmpty } ?? false
        default:
            // A format the library never reads the pixels of (passed on as it is).
            return true
        }
    }

    /// Whether plane `index` is there with `rows` rows of `rowBytes` bytes at its stride
    /// (the last row need not be padded).
    private func plane(_ index: Int, holdsRows rows: Int, of rowBytes: Int) -> Bool {
        guard let plane = plane(index), plane.bytes.baseAddress != nil, plane.stride >= rowBytes else { return false }
        let (padded, overflow) = plane.stride.multipliedReportingOverflow(by: rows - 1)
        return !overflow && plane.bytes.count >= padded + rowBytes
    }
}
