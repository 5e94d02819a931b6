import OcellusCore

/// What a configuration will run, against what it asks, before anything streams: libcamera's
/// `validate()` answer. "As asked" is what the outputs and preset would have from the camera on an
/// idle bus, at the rate the outputs ask (the fastest the chosen format has when one takes every
/// frame); "adjusted" says what differs and why. A configuration that cannot run at all is not a
/// check but the error committing it gives.
public struct ConfigurationCheck: Sendable, CustomStringConvertible {
    public struct Adjustments: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// The camera sends another pixel format than as asked (MJPEG where raw would not fit).
        public static let pixelFormat = Adjustments(rawValue: 1 << 0)
        /// The camera runs another size than as asked.
        public static let size = Adjustments(rawValue: 1 << 1)
        /// The stream runs slower than the outputs ask: the camera has no faster rate for the
        /// format, or a faster one would not fit the bus.
        public static let rate = Adjustments(rawValue: 1 << 2)
        /// Why: the camera's USB bus (behaviour §4 fit instead of fail).
        public static let busFit = Adjustments(rawValue: 1 << 3)
    }

    /// What the camera will run.
    public let runs: (format: VideoFormat, rate: FrameRate)
    /// What it would run as asked: the format, and the rate the outputs ask (a stream faster than
    /// the outputs' caps is as asked: they thin it).
    public let asked: (format: VideoFormat, rate: FrameRate)
    public let adjustments: Adjustments
    /// Why, for the app's user ("" when nothing is adjusted).
    public let reason: String

    public var isAsAsked: Bool { adjustments.isEmpty }

    public var description: String {
        isAsAsked
            ? "runs \(HardwareCost.describe(runs.format, runs.rate)) as asked"
            : "runs \(HardwareCost.describe(runs.format, runs.rate)) instead of \(HardwareCost.describe(asked.format, asked.rate)): \(reason)"
    }
}

extension FormatChoice {
    /// The check of `configuration` as committing it now would run it; nil without an input.
    /// Throws what committing would.
    func check(_ configuration: SessionConfiguration) throws(OcellusError) -> ConfigurationCheck? {
        guard let input = configuration.input, let runs = try picture(for: configuration),
            let idle = try? picture(for: configuration, ignoringBus: true)
        else { return nil }
        let outputs = configuration.outputs
        let askedRate =
            !outputs.isEmpty && outputs.allSatisfy({ $0.maximumFrameRate != nil })
            ? outputs.compactMap(\.maximumFrameRate).max()! : idle.rate
        var adjustments: ConfigurationCheck.Adjustments = []
        if runs.format.pixelFormat != idle.format.pixelFormat { adjustments.insert(.pixelFormat) }
        if (runs.format.width, runs.format.height) != (idle.format.width, idle.format.height) { adjustments.insert(.size) }
        if runs.rate < askedRate { adjustments.insert(.rate) }
        let byBus = !(runs.format.sameStream(as: idle.format) && runs.rate == idle.rate)
        if byBus { adjustments.insert(.busFit) }
        var reasons: [String] = []
        if byBus { reasons.append(busReason(camera: input, for: idle)) }
        if runs.rate < askedRate && idle.rate < askedRate {
            reasons.append(
                "\(input.uniqueID) sends \(idle.format.pixelFormat.name) \(idle.format.width)x\(idle.format.height) "
                    + "at \(idle.rate.framesPerSecond) fps at most, and the outputs ask \(askedRate.framesPerSecond)")
        }
        return ConfigurationCheck(
            runs: runs, asked: (idle.format, askedRate), adjustments: adjustments,
            reason: reasons.joined(separator: "; "))
    }

    /// Why `wanted` does not run on the bus of `camera` beside what the bus carries now.
    func busReason(camera: Device, for wanted: (format: VideoFormat, rate: FrameRate)) -> String {
        guard let cost = share(of: camera, format: wanted.format, rate: wanted.rate) else { return "it does not fit the camera's bus" }
        return "it would take \(HardwareCost.percent(cost.load)) of \(cost.bus)"
            + (cost.others.isEmpty ? "" : " beside \(cost.others.map(\.device).joined(separator: ", "))")
    }
}
