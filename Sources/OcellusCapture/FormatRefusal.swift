import OcellusCore

/// Why no camera format serves a session's outputs, and what would (issue 52: "--size 800x600" on a
/// 640x480 camera was refused for its aspect ratio, and no refusal said what would work).
///
/// The rule: an output is served from a camera format of its own size, or scaled down from a
/// larger one of the same shape; never scaled up, never stretched. So a pinned size is refused
/// when the camera streams nothing as large in that shape, and several pinned sizes are refused
/// together when no one format is as large as each in its shape.
struct FormatRefusal {
    /// The camera's picture sizes (each once, largest first).
    let sizes: [FrameSize]

    init(formats: [VideoFormat]) {
        var seen = Set<FrameSize>()
        sizes = formats.map { FrameSize(width: $0.width, height: $0.height) }
            .filter { seen.insert($0).inserted }
            .sorted { UInt64($0.width) * UInt64($0.height) > UInt64($1.width) * UInt64($1.height) }
    }

    /// Whether `wanted` can be made from `size`: the same size, or smaller in the same shape.
    static func fits(_ wanted: FrameSize, in size: FrameSize) -> Bool {
        wanted.width <= size.width && wanted.height <= size.height
            && UInt64(wanted.width) * UInt64(size.height) == UInt64(wanted.height) * UInt64(size.width)
    }

    /// The reason and the sizes that would work, for outputs pinning `pinned` sizes; nil when
    /// sizes are not the reason (one of the camera's sizes serves them all).
    func explain(_ pinned: [FrameSize]) -> String? {
        guard !pinned.isEmpty else { return nil }
        let streamed = "(" + sizes.map(Self.text).joined(separator: ", ") + ")"
        let rule = "an output takes one of those sizes, or a smaller one of the same shape: Ocellus scales down, never up or out of shape"
        if let alone = pinned.first(where: { wanted in !sizes.contains { Self.fits(wanted, in: $0) } }) {
            let larger = !sizes.contains { $0.width >= alone.width && $0.height >= alone.height }
            let why =
                larger
                ? "\(Self.text(alone)) is larger than every size it streams \(streamed)"
                : "\(Self.text(alone)) (\(Self.shape(alone))) cannot be cut from any size it streams \(streamed)"
            return "\(why); \(rule)"
        }
        // Each fits some size, but no one size serves all: say the sizes that would go together.
        guard
            let best = sizes.max(by: { a, b in
                pinned.filter { Self.fits($0, in: a) }.count < pinned.filter { Self.fits($0, in: b) }.count
            }), !pinned.allSatisfy({ Self.fits($0, in: best) })
        else { return nil }
        let together = pinned.map { wanted in Self.fits(wanted, in: best) ? wanted : Self.scaled(wanted, into: best) }
        return "no size it streams \(streamed) serves " + pinned.map { "\(Self.text($0)) (\(Self.shape($0)))" }.joined(separator: " and ")
            + " together; \(rule); e.g. " + together.map(Self.text).joined(separator: " and ") + " from \(Self.text(best))"
    }

    /// `wanted`'s width (or less) in `size`'s shape, even in both dimensions.
    static func scaled(_ wanted: FrameSize, into size: FrameSize) -> FrameSize {
        var width = min(wanted.width, size.width) & ~1
        while width > 2 {
            let height = UInt64(width) * UInt64(size.height) / UInt64(size.width)
            if UInt64(width) * UInt64(size.height) % UInt64(size.width) == 0 && height % 2 == 0 {
                return FrameSize(width: width, height: UInt32(height))
            }
            width -= 2
        }
        return size
    }

    static func text(_ size: FrameSize) -> String { "\(size.width)x\(size.height)" }

    /// The aspect ratio in lowest terms ("4:3", "16:9").
    static func shape(_ size: FrameSize) -> String {
        func gcd(_ a: UInt32, _ b: UInt32) -> UInt32 { b == 0 ? a : gcd(b, a % b) }
        let divisor = max(1, gcd(size.width, size.height))
        return "\(size.width / divisor):\(size.height / divisor)"
    }
}
