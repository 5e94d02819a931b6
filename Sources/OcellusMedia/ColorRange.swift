/// 8-bit BT.601 samples moved between full range (JPEG/JFIF: 0–255 for luma and chroma) and
/// video range (luma 16–235, chroma 16–240, what OpenCV's `COLOR_YUV2BGR_*` codes and
/// libyuv's `I420To*` assume), in place, through 256-entry tables.
enum ColorRange {
    enum Direction { case toVideo, toFull }

    private static let tables: (lumaToVideo: [UInt8], chromaToVideo: [UInt8], lumaToFull: [UInt8], chromaToFull: [UInt8]) = {
        func table(_ map: (Double) -> Double) -> [UInt8] {
            (0..<256).map { UInt8(max(0, min(255, map(Double($0)).rounded()))) }
        }
        return (
            table { 16 + $0 * 219 / 255 }, table { 128 + ($0 - 128) * 224 / 255 },
            table { ($0 - 16) * 255 / 219 }, table { 128 + ($0 - 128) * 255 / 224 }
        )
    }()

    /// Rewrites `height` rows of `width` samples, a row every `stride` bytes.
    static func convert(_ plane: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int, chroma: Bool, _ direction: Direction) {
        if direction == .toVideo {
            compress(plane, stride: stride, width: width, height: height, chroma: chroma)
            return
        }
        let table =
            switch (direction, chroma) {
            case (.toVideo, false): tables.lumaToVideo
            case (.toVideo, true): tables.chromaToVideo
            case (.toFull, false): tables.lumaToFull
            case (.toFull, true): tables.chromaToFull
            }
        table.withUnsafeBufferPointer { lookup in
            let lookup = lookup.baseAddress!
            for row in 0..<height {
                let line = plane + row * stride
                for x in 0..<width { line[x] = lookup[Int(line[x])] }
            }
        }
    }

    /// Full range to video range 16 samples at a time (MJPEG to NV12 does this on every frame; a
    /// table lookup per byte cost a third of the decode): round(16 + y·219/255) for luma and
    /// round(128 + (c − 128)·224/255) for chroma are ⌊(v·k + b)/255⌋ with (k, b) = (219, 4207) and
    /// (224, 4095), the division done as ((x + 1) + ((x + 1) >> 8)) >> 8, exact below 65535.
    private static func compress(_ plane: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int, chroma: Bool) {
        let (k, b): (UInt16, UInt16) = chroma ? (224, 4095) : (219, 4207)
        let lookup = chroma ? tables.chromaToVideo : tables.lumaToVideo
        let vectorWidth = width & ~15
        lookup.withUnsafeBufferPointer { lookup in
            for row in 0..<height {
                let line = plane + row * stride
                var x = 0
                while x < vectorWidth {
                    let raw = UnsafeMutableRawPointer(line + x)
                    let samples = SIMD16<UInt16>(truncatingIfNeeded: raw.loadUnaligned(as: SIMD16<UInt8>.self))
                    let sum = samples &* k &+ (b &+ 1)
                    raw.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: (sum &+ (sum &>> 8)) &>> 8), as: SIMD16<UInt8>.self)
                    x += 16
                }
                while x < width {
                    line[x] = lookup[Int(line[x])]
                    x += 1
                }
            }
        }
    }

    /// Packed 4:2:2 (YUYV when `lumaFirst`, UYVY otherwise): luma and chroma bytes alternate.
    static func convertPacked(_ plane: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int, lumaFirst: Bool, _ direction: Direction) {
        let (luma, chroma) = direction == .toVideo ? (tables.lumaToVideo, tables.chromaToVideo) : (tables.lumaToFull, tables.chromaToFull)
        luma.withUnsafeBufferPointer { lumaLookup in
            chroma.withUnsafeBufferPointer { chromaLookup in
                let (even, odd) = lumaFirst ? (lumaLookup.baseAddress!, chromaLookup.baseAddress!) : (chromaLookup.baseAddress!, lumaLookup.baseAddress!)
                for row in 0..<height {
                    let line = plane + row * stride
                    var x = 0
                    while x + 1 < width * 2 {
                        line[x] = even[Int(line[x])]
                        line[x + 1] = odd[Int(line[x + 1])]
                        x += 2
                    }
                }
            }
        }
    }
}
