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

/// Every refusal of a format choice, worded in one place: what the outputs ask, and why the
/// camera cannot give it.
extension FormatRefusal {
    /// What outputs ask, as the app's user reads it ("NV12 at 640x480; any format at any size").
    static func wants(_ outputs: [(pixelFormat: FourCC?, size: (UInt32, UInt32)?)], anyFormat: String = "any format") -> String {
        outputs.map { output in "\(output.pixelFormat?.name ?? anyFormat) at \(output.size.map { "\($0.0)x\($0.1)" } ?? "any size")" }
            .joined(separator: "; ")
    }

    static func wants(_ outputs: [VideoDataOutput]) -> String { wants(outputs.map { ($0.pixelFormat, $0.pinnedSize) }) }

    /// No format of the camera serves every output: a pixel format nobody converts to (NV21, a
    /// typo of four letters) says so, not that sizes disagree; else the sizes say why, or the rule.
    static func noFormatServes(_ choice: PictureChoice, offered: [VideoFormat]) -> OcellusError {
        let (input, outputs, conversion) = (choice.input, choice.outputs, choice.conversion)
        let sent = Set(input.formats.map(\.pixelFormat))
        if let wanted = outputs.compactMap(\.pixelFormat).first(where: { wanted in
            !sent.contains(wanted) && !sent.contains { conversion?.canConvert(from: $0, to: wanted) == true }
        }) {
            return OcellusError(
                .invalidArgument,
                "\(input.uniqueID) cannot give \(wanted.name): it sends \(sent.map(\.name).sorted().joined(separator: ", ")), "
                    + "and \(wanted.name) is not a format Ocellus converts those to (it knows \(PixelFormatNames.everyday.joined(separator: ", ")))")
        }
        let pinnedSizes = outputs.compactMap(\.pinnedSize).map { FrameSize(width: $0.0, height: $0.1) }
        let why =
            conversion == nil
            ? "this session converts nothing"
            : FormatRefusal(formats: offered).explain(pinnedSizes)
                ?? "none of its formats serves them as asked (an MJPEG output takes the camera's own MJPEG sizes: compressed data is passed on, never scaled)"
        return OcellusError(
            .invalidArgument,
            "\(input.uniqueID) offers no format that serves every output (\(wants(outputs))"
                + (choice.wantedRate.map { " at \($0.framesPerSecond) fps" } ?? "") + "): \(why)")
    }

    /// The format another app streams the camera in cannot serve the outputs.
    static func cannotShare(_ choice: PictureChoice) -> OcellusError {
        OcellusError(.busy, "\(wants(choice.outputs)) cannot be made from it (a size smaller than it, in its aspect ratio, can)")
    }

    static func notADepthCamera(_ input: Device) -> OcellusError {
        OcellusError(.invalidArgument, "\(input.uniqueID) is not a depth camera (it offers no depth format)")
    }

    /// A camera whose depth rides in its picture stream runs a picture no depth output takes.
    static func depthNotInPicture(_ input: Device, _ picture: VideoFormat) -> OcellusError {
        OcellusError(
            .invalidArgument,
            "\(input.uniqueID) runs \(picture.pixelFormat.name) \(picture.width)x\(picture.height) for the session's outputs, which no depth output takes")
    }

    static func noDepthFormatServes(_ input: Device, _ outputs: [DepthDataOutput]) -> OcellusError {
        let sizes = outputs.map { output in output.width.flatMap { width in output.height.map { (width, $0) } } }
        let asked = wants(zip(outputs, sizes).map { ($0.pixelFormat, $1) }, anyFormat: "any depth format")
        return OcellusError(
            .invalidArgument, "\(input.uniqueID) offers no depth format that serves every depth output (\(asked)); depth is not scaled")
    }
}
