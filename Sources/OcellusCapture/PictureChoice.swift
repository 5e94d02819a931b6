import OcellusCore

/// One choice of the picture stream for a configuration, in named stages: what the camera offers
/// → what can serve the outputs → what fits the bus, at which rate → the best by one comparator.
/// The texts of its refusals are `FormatRefusal`'s.
struct PictureChoice {
    let input: Device
    let outputs: [VideoDataOutput]
    /// A depth-only camera's picture stream carries its depth: its depth outputs must take it too.
    let depthOutputs: [DepthDataOutput]
    let conversion: (any FrameConversion)?
    let preset: CaptureSession.Preset
    /// The bus's reservations beside the camera (none when the bus is ignored).
    let others: [BusReservation]
    /// Whether the bus is ignored (the choice on an idle bus).
    let ignoresBus: Bool
    /// Whether a format may run slower, or be left out, to fit the bus.
    let fitsBus: Bool
    /// The rate every output takes: the highest cap, nil when an output has none (it wants every frame).
    let wantedRate: FrameRate?

    /// `others`: what the camera's bus carries now; nil ignores the bus.
    init(_ configuration: SessionConfiguration, input: Device, conversion: (any FrameConversion)?, others: [BusReservation]?) {
        self.input = input
        outputs = configuration.outputs
        depthOutputs = input.depthSharesPictureStream ? configuration.depthOutputs : []
        self.conversion = conversion
        preset = configuration.preset
        self.others = others ?? []
        ignoresBus = others == nil
        fitsBus = !ignoresBus && configuration.fitsBus
        wantedRate = outputs.contains { $0.maximumFrameRate == nil } ? nil : outputs.compactMap(\.maximumFrameRate).max()
    }

    // MARK: What the camera offers

    /// The camera's formats, each of one size: a range of sizes stands for the sizes outputs pin
    /// within it and the common sizes it holds.
    var offered: [VideoFormat] {
        let pinned = outputs.compactMap(\.pinnedSize)
        return input.formats.flatMap { format -> [VideoFormat] in
            guard let range = format.sizeRange else { return [format] }
            let sizes = pinned.filter { range.contains(width: $0.0, height: $0.1) } + range.sizesToOffer
            return sizes.isEmpty ? [format] : sizes.map { format.sized(width: $0.0, height: $0.1) }
        }
    }

    // MARK: What can serve the outputs

    /// Whether `output` can be made from `format`: its pixel format converted to, its size the
    /// same or scaled down in the same aspect ratio (compressed MJPEG is never scaled). A rate cap
    /// is a maximum: a camera slower than the cap still serves the output.
    func serves(_ format: VideoFormat, _ output: VideoDataOutput) -> Bool {
        if let wanted = output.pixelFormat, wanted != format.pixelFormat,
            conversion?.canConvert(from: format.pixelFormat, to: wanted) != true
        {
            return false
        }
        guard let (width, height) = output.pinnedSize, width != format.width || height != format.height else { return true }
        return conversion != nil && (output.pixelFormat ?? format.pixelFormat) != .mjpeg
            && width <= format.width && height <= format.height
            && UInt64(width) * UInt64(format.height) == UInt64(height) * UInt64(format.width)
    }

    func servesAll(_ format: VideoFormat) -> Bool {
        outputs.allSatisfy { serves(format, $0) } && depthOutputs.allSatisfy { $0.isServed(by: format) }
    }

    // MARK: What fits, at which rate

    /// A rate the camera offers: the wanted one within a range, else the lowest listed rate at or
    /// above it (outputs thin the rest), else the top rate; none wanted, the one the producer
    /// prefers, or the top rate.
    func streamRate(_ format: VideoFormat) -> FrameRate {
        let top = format.maxFrameRate ?? FrameRate(30)
        guard let wanted = wantedRate else { return format.preferredFrameRate ?? top }
        guard wanted < top else { return top }
        if format.frameRatesAreRange { return max(wanted, format.frameRates.last ?? wanted) }
        return format.frameRates.filter { $0 >= wanted }.min() ?? top
    }

    func share(_ format: VideoFormat, at rate: FrameRate? = nil) -> HardwareCost.BusShare? {
        HardwareCost.share(of: input, format: format, rate: rate ?? streamRate(format), others: others)
    }

    /// Each format's rate: with fitting, the fastest of its rates up to the wanted one that fits
    /// the bus (a format that fits at none is left out); without, the wanted rate.
    func rates(_ formats: [VideoFormat]) -> [VideoFormat: FrameRate] {
        var rates: [VideoFormat: FrameRate] = [:]
        for format in formats {
            let wanted = streamRate(format)
            guard fitsBus else {
                rates[format] = wanted
                continue
            }
            rates[format] = ([wanted] + format.frameRates.filter { $0 < wanted }.sorted(by: >)).first { share(format, at: $0)?.fits ?? true }
        }
        return rates
    }

    // MARK: The best

    /// Whether `a` is preferred to `b`, at their `rates`: not slowed for the bus, then the fewest
    /// outputs converted, raw before MJPEG (no decoding), then the smallest size covering every
    /// pinned size — or, with none pinned, the preset's size — then the fastest.
    func prefers(_ a: VideoFormat, to b: VideoFormat, rates: [VideoFormat: FrameRate]) -> Bool {
        func slowed(_ format: VideoFormat) -> Bool { rates[format]! < streamRate(format) }
        func conversions(_ format: VideoFormat) -> Int {
            outputs.filter { output in
                (output.pixelFormat.map { $0 != format.pixelFormat } ?? false)
                    || (output.pinnedSize.map { $0 != (format.width, format.height) } ?? false)
            }.count
        }
        if slowed(a) != slowed(b) { return slowed(b) }
        if conversions(a) != conversions(b) { return conversions(a) < conversions(b) }
        if (a.pixelFormat == .mjpeg) != (b.pixelFormat == .mjpeg) { return b.pixelFormat == .mjpeg }
        if pinsSize && a.area != b.area { return a.area < b.area }
        if !pinsSize && presetRank(a) != presetRank(b) { return presetRank(a) < presetRank(b) }
        return (a.maxFrameRate ?? FrameRate(0)) > (b.maxFrameRate ?? FrameRate(0))
    }

    var pinsSize: Bool { outputs.contains { $0.pinnedSize != nil } }

    /// Without a pinned size the preset decides: a fixed size (`presetSized`), the largest (photo),
    /// the largest at ≥ 30 fps (high, input priority), about VGA (medium), the smallest (low).
    func presetRank(_ format: VideoFormat) -> Int64 {
        let area = Int64(format.area)
        switch preset {
        case .photo: return -area
        case .medium: return abs(area - 640 * 480)
        case .low: return area
        default: return ((format.maxFrameRate ?? FrameRate(0)) >= FrameRate(30) ? 0 : 1 << 40) - area
        }
    }

    func presetSized(_ format: VideoFormat) -> Bool {
        pinsSize || preset.size.map { $0 == (format.width, format.height) } ?? true
    }

    // MARK: The stages together

    /// The format and rate to run: `excluding` formats the kernel refused at this start.
    func choose(excluding: [VideoFormat]) throws(OcellusError) -> (format: VideoFormat, rate: FrameRate) {
        let offered = self.offered
        let allowed = offered.filter { format in servesAll(format) && !excluding.contains { $0.sameStream(as: format) } }
        let rates = self.rates(allowed)
        let candidates = allowed.filter { rates[$0] != nil }
        if candidates.isEmpty, let cheapest = allowed.min(by: { (share($0)?.own ?? 0) < (share($1)?.own ?? 0) }), share(cheapest) != nil {
            throw busRefusal(cheapest, offered: offered, excluding: excluding)
        }
        guard let chosen = candidates.filter(presetSized).min(by: { prefers($0, to: $1, rates: rates) }), chosen.maxFrameRate != nil else {
            throw FormatRefusal.noFormatServes(self, offered: offered)
        }
        if !ignoresBus, let cost = share(chosen, at: rates[chosen]), !cost.fits {
            throw busRefusal(chosen, offered: offered, excluding: excluding)
        }
        return (chosen, rates[chosen]!)
    }

    /// The format and rate another app streams the camera in, when it serves the outputs: the
    /// only one it can be shared in, whatever the camera lists (the bus carries it already).
    func shared(_ running: (format: VideoFormat, rate: FrameRate)) throws(OcellusError) -> (format: VideoFormat, rate: FrameRate) {
        guard servesAll(running.format) else { throw FormatRefusal.cannotShare(self) }
        return running
    }

    /// Why `refused` does not fit the bus, and the largest format, at the fastest of its rates, that would.
    func busRefusal(_ refused: VideoFormat, offered: [VideoFormat], excluding: [VideoFormat]) -> OcellusError {
        let runs: [(VideoFormat, FrameRate)] = offered.flatMap { format in format.frameRates.map { (format, $0) } }
        let fit = runs.filter { format, rate in
            !excluding.contains { $0.sameStream(as: format) } && share(format, at: rate)?.fits ?? true
        }
        let fitting = fit.max { a, b in a.0.area != b.0.area ? a.0.area < b.0.area : a.1 < b.1 }
        return OcellusError(
            .noResources,
            HardwareCost.refusal(of: input.uniqueID, share(refused)!, format: refused, rate: streamRate(refused), fitting: fitting))
    }
}

extension VideoDataOutput {
    /// The size the output pins, if it pins one.
    var pinnedSize: (UInt32, UInt32)? { width.flatMap { width in height.map { (width, $0) } } }
}

extension VideoFormat {
    var area: UInt64 { UInt64(width) * UInt64(height) }
}
