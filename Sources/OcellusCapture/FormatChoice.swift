import OcellusCore

/// behaviour §4 format choice: which camera format, size and rate a session's picture stream runs
/// at for its outputs and preset, and where its depth outputs get their maps. Pure: a session asks
/// it at each commit (and `canAddOutput` asks it of a configuration not yet committed).
struct FormatChoice {
    /// What the session can convert (nil: outputs get the camera's own formats only).
    let conversion: (any FrameConversion)?
    /// What USB buses carry now (nil: a stream's share is counted alone).
    var bus: (any USBBusReading)? = nil

    /// The picture stream's format and rate (nil without an input), and where depth comes from
    /// (nil without depth outputs).
    struct Streams {
        var picture: (format: VideoFormat, rate: FrameRate)?
        var depth: DepthSource?

        /// The rate depth outputs get maps at.
        var depthRate: FrameRate? {
            switch depth {
            case .pictureStream: picture?.rate
            case .ownStream(_, let rate): rate
            case nil: nil
            }
        }
    }

    /// The picture stream's format and rate, and where depth comes from.
    func streams(
        for configuration: SessionConfiguration, excluding: [VideoFormat] = [],
        sharing: (format: VideoFormat, rate: FrameRate)? = nil
    ) throws(OcellusError) -> Streams {
        let picture = try self.picture(for: configuration, excluding: excluding, sharing: sharing)
        guard let input = configuration.input, !configuration.depthOutputs.isEmpty, let (format, rate) = picture else {
            return Streams(picture: picture, depth: nil)
        }
        return Streams(picture: picture, depth: try depth(for: configuration.depthOutputs, input: input, beside: format, rate: rate))
    }

    /// The depth format beside `picture`: one every depth output takes (depth is never scaled),
    /// the picture's aspect ratio before others, then the size nearest the picture's, then one
    /// that runs at the picture's rate (so that every frame can have its map), then the fastest.
    func depth(
        for outputs: [DepthDataOutput], input: Device, beside picture: VideoFormat,
        rate: FrameRate
    ) throws(OcellusError) -> DepthSource {
        guard !input.depthFormats.isEmpty else {
            throw OcellusError(.invalidArgument, "\(input.uniqueID) is not a depth camera (it offers no depth format)")
        }
        if input.depthSharesPictureStream {
            guard outputs.allSatisfy({ $0.isServed(by: picture) }) else {
                throw OcellusError(
                    .invalidArgument,
                    "\(input.uniqueID) runs \(picture.pixelFormat.name) \(picture.width)x\(picture.height) for the session's outputs, which no depth output takes"
                )
            }
            return .pictureStream
        }
        let pinned = outputs.compactMap { output in output.width.flatMap { width in output.height.map { (width, $0) } } }
        let concrete = input.depthFormats(beside: picture).flatMap { format -> [VideoFormat] in
            guard let range = format.sizeRange else { return [format] }
            let sizes = pinned.filter { range.contains(width: $0.0, height: $0.1) } + range.sizesToOffer
            return sizes.isEmpty ? [format] : sizes.map { format.sized(width: $0.0, height: $0.1) }
        }
        let candidates = concrete.filter { format in format.maxFrameRate != nil && outputs.allSatisfy { $0.isServed(by: format) } }
        func sameAspect(_ format: VideoFormat) -> Bool {
            UInt64(format.width) * UInt64(picture.height) == UInt64(format.height) * UInt64(picture.width)
        }
        func distance(_ format: VideoFormat) -> UInt64 {
            let (a, b) = (UInt64(format.width) * UInt64(format.height), UInt64(picture.width) * UInt64(picture.height))
            return a > b ? a - b : b - a
        }
        func runs(_ format: VideoFormat, at wanted: FrameRate) -> Bool {
            format.frameRatesAreRange
                ? format.frameRates.last! <= wanted && wanted <= format.frameRates.first!
                : format.frameRates.contains(wanted)
        }
        let best = candidates.min { a, b in
            if sameAspect(a) != sameAspect(b) { return sameAspect(a) }
            if distance(a) != distance(b) { return distance(a) < distance(b) }
            if runs(a, at: rate) != runs(b, at: rate) { return runs(a, at: rate) }
            return a.maxFrameRate! > b.maxFrameRate!
        }
        guard let chosen = best else {
            let wants = outputs.map { output in
                "\(output.pixelFormat?.name ?? "any depth format") at \(output.width.map { "\($0)x\(output.height!)" } ?? "any size")"
            }
            throw OcellusError(
                .invalidArgument,
                "\(input.uniqueID) offers no depth format that serves every depth output (\(wants.joined(separator: "; "))); depth is not scaled")
        }
        return .ownStream(chosen, runs(chosen, at: rate) ? rate : chosen.maxFrameRate!)
    }

    /// What the bus of `device` carries now (every process's streams).
    private func reservations(besideBusOf device: Device) -> [BusReservation] {
        device.details.usbLink.map { bus?.reservations(onBus: $0.bus) ?? [] } ?? []
    }

    /// The share of its bus `device` takes streaming `format` at `rate`, beside what the bus carries now.
    func share(of device: Device, format: VideoFormat, rate: FrameRate) -> HardwareCost.BusShare? {
        HardwareCost.share(of: device, format: format, rate: rate, others: reservations(besideBusOf: device))
    }

    /// The camera format that serves every output at least cost: fewest outputs
    /// needing conversion, raw before MJPEG (no decoding), then the smallest size
    /// covering every pinned size — or, with none pinned, the largest at ≥ 30 fps —
    /// and the rate every output asks for.
    /// `excluding`: formats the kernel refused at this start (any rate of them). `sharing`: the
    /// format and rate another app streams the camera in, the only one it can be shared in.
    func picture(
        for configuration: SessionConfiguration, ignoringBus: Bool = false, excluding: [VideoFormat] = [],
        sharing: (format: VideoFormat, rate: FrameRate)? = nil
    ) throws(OcellusError) -> (format: VideoFormat, rate: FrameRate)? {
        guard let input = configuration.input else { return nil }
        let outputs = configuration.outputs
        // An output without a cap wants every frame the camera has.
        let wantedRate = outputs.contains { $0.maximumFrameRate == nil } ? nil : outputs.compactMap(\.maximumFrameRate).max()
        func size(_ output: VideoDataOutput) -> (UInt32, UInt32)? {
            output.width.flatMap { width in output.height.map { (width, $0) } }
        }
        func serves(_ format: VideoFormat, _ output: VideoDataOutput) -> Bool {
            if let wanted = output.pixelFormat, wanted != format.pixelFormat,
                conversion?.canConvert(from: format.pixelFormat, to: wanted) != true
            {
                return false
            }
            guard let (width, height) = size(output), width != format.width || height != format.height else { return true }
            // Scaling keeps the aspect ratio: "aspect must match the active format"; compressed
            // MJPEG cannot be scaled (an output taking the camera's format then needs that size).
            return conversion != nil && (output.pixelFormat ?? format.pixelFormat) != .mjpeg
                && width <= format.width && height <= format.height
                && UInt64(width) * UInt64(format.height) == UInt64(height) * UInt64(format.width)
        }
        func conversions(_ format: VideoFormat) -> Int {
            outputs.filter { output in
                (output.pixelFormat.map { $0 != format.pixelFormat } ?? false)
                    || (size(output).map { $0 != (format.width, format.height) } ?? false)
            }.count
        }
        /// A rate the camera offers: the wanted one within a range, else the lowest listed rate at
        /// or above it (outputs thin the rest), else the top rate; none wanted, the one the
        /// producer prefers, or the top rate.
        func streamRate(_ format: VideoFormat) -> FrameRate {
            let top = format.maxFrameRate ?? FrameRate(30)
            guard let wanted = wantedRate else { return format.preferredFrameRate ?? top }
            guard wanted < top else { return top }
            if format.frameRatesAreRange { return max(wanted, format.frameRates.last ?? wanted) }
            return format.frameRates.filter { $0 >= wanted }.min() ?? top
        }
        // A format whose sizes are a range stands for the sizes outputs pin within it and the
        // common sizes it holds; then every candidate has one size, as discrete formats do.
        let pinned = outputs.compactMap(size)
        let concrete = input.formats.flatMap { format -> [VideoFormat] in
            guard let range = format.sizeRange else { return [format] }
            let sizes = pinned.filter { range.contains(width: $0.0, height: $0.1) } + range.sizesToOffer
            return sizes.isEmpty ? [format] : sizes.map { format.sized(width: $0.0, height: $0.1) }
        }
        // A rate cap is a maximum: a camera slower than the cap still serves the output.
        // A depth-only camera's picture stream carries its depth: the depth outputs must take it too.
        let depthOutputs = input.depthSharesPictureStream ? configuration.depthOutputs : []
        let served = concrete.filter { format in
            outputs.allSatisfy { serves(format, $0) } && depthOutputs.allSatisfy { $0.isServed(by: format) }
        }
        if let sharing {
            // What the camera runs for another app, whatever it lists: the bus carries it already.
            guard outputs.allSatisfy({ serves(sharing.format, $0) }) && depthOutputs.allSatisfy({ $0.isServed(by: sharing.format) }) else {
                let wants = outputs.map { output in
                    "\(output.pixelFormat?.name ?? "any format") at \(size(output).map { "\($0.0)x\($0.1)" } ?? "any size")"
                }
                throw OcellusError(
                    .busy,
                    "\(wants.joined(separator: "; ")) cannot be made from it "
                        + "(a size smaller than it, in its aspect ratio, can)")
            }
            return sharing
        }
        // Formats the kernel refused for this start are out. With fitting on, a format runs at the
        // fastest of its rates up to the wanted one that fits the USB bus beside what it carries now,
        // and formats that fit at no rate are out (MJPEG then wins where raw would not fit, and a
        // lower rate comes last); with it off, the outputs' choice stands or is refused.
        let others = ignoringBus ? [] : reservations(besideBusOf: input)
        func share(_ format: VideoFormat, at rate: FrameRate? = nil) -> HardwareCost.BusShare? {
            HardwareCost.share(of: input, format: format, rate: rate ?? streamRate(format), others: others)
        }
        let allowed = served.filter { format in !excluding.contains { $0.sameStream(as: format) } }
        func refuse(_ refused: VideoFormat) -> OcellusError {
            // What would fit: the largest format at the fastest of its rates that does, whatever the outputs ask.
            let offered: [(VideoFormat, FrameRate)] = concrete.flatMap { format in format.frameRates.map { (format, $0) } }
            let fitting = offered.filter { format, rate in
                !excluding.contains { $0.sameStream(as: format) } && share(format, at: rate)?.fits ?? true
            }.max { a, b in
                let (areaA, areaB) = (UInt64(a.0.width) * UInt64(a.0.height), UInt64(b.0.width) * UInt64(b.0.height))
                return areaA != areaB ? areaA < areaB : a.1 < b.1
            }
            return OcellusError(
                .noResources,
                HardwareCost.refusal(
                    of: input.uniqueID, share(refused)!, format: refused,
                    rate: streamRate(refused), fitting: fitting))
        }
        let fits = !ignoringBus && configuration.fitsBus
        var rates: [VideoFormat: FrameRate] = [:]
        for format in allowed {
            let wanted = streamRate(format)
            rates[format] =
                !fits
                ? wanted
                : ([wanted] + format.frameRates.filter { $0 < wanted }.sorted(by: >)).first { rate in
                    share(format, at: rate)?.fits ?? true
                }
        }
        let candidates = allowed.filter { rates[$0] != nil }
        if candidates.isEmpty, let cheapest = allowed.min(by: { (share($0)?.own ?? 0) < (share($1)?.own ?? 0) }), share(cheapest) != nil {
            throw refuse(cheapest)
        }
        func slowed(_ format: VideoFormat) -> Bool { rates[format]! < streamRate(format) }
        let pinsSize = outputs.contains { size($0) != nil }
        func area(_ format: VideoFormat) -> UInt64 { UInt64(format.width) * UInt64(format.height) }
        func fast(_ format: VideoFormat) -> Bool { (format.maxFrameRate ?? FrameRate(0)) >= FrameRate(30) }
        // Without a pinned size the preset decides: a fixed size, the largest (photo),
        // the largest at ≥ 30 fps (high, input priority), about VGA (medium), the smallest (low).
        let preset = configuration.preset
        let presetSized =
            pinsSize
            ? candidates
            : candidates.filter { format in
                preset.size.map { $0 == (format.width, format.height) } ?? true
            }
        func presetRank(_ format: VideoFormat) -> Int64 {
            switch preset {
            case .photo: -Int64(area(format))
            case .medium: abs(Int64(area(format)) - 640 * 480)
            case .low: Int64(area(format))
            default: (fast(format) ? 0 : 1 << 40) - Int64(area(format))
            }
        }
        let best = presetSized.min { a, b in
            if slowed(a) != slowed(b) { return slowed(b) }
            if conversions(a) != conversions(b) { return conversions(a) < conversions(b) }
            if (a.pixelFormat == .mjpeg) != (b.pixelFormat == .mjpeg) { return b.pixelFormat == .mjpeg }
            if pinsSize && area(a) != area(b) { return area(a) < area(b) }
            if !pinsSize && presetRank(a) != presetRank(b) { return presetRank(a) < presetRank(b) }
            return (a.maxFrameRate ?? FrameRate(0)) > (b.maxFrameRate ?? FrameRate(0))
        }
        guard let chosen = best, chosen.maxFrameRate != nil else {
            // A name nobody makes (NV21, a typo of four letters) says so, not that sizes disagree.
            let sent = Set(input.formats.map(\.pixelFormat))
            if let wanted = outputs.compactMap(\.pixelFormat).first(where: { wanted in
                !sent.contains(wanted) && !sent.contains { conversion?.canConvert(from: $0, to: wanted) == true }
            }) {
                throw OcellusError(
                    .invalidArgument,
                    "\(input.uniqueID) cannot give \(wanted.name): it sends \(sent.map(\.name).sorted().joined(separator: ", ")), "
                        + "and \(wanted.name) is not a format Ocellus converts those to (it knows \(PixelFormatNames.everyday.joined(separator: ", ")))")
            }
            let wants = outputs.map { output in
                "\(output.pixelFormat?.name ?? "any format") at \(size(output).map { "\($0.0)x\($0.1)" } ?? "any size")"
            }
            let pinnedSizes = outputs.compactMap(size).map { FrameSize(width: $0.0, height: $0.1) }
            let why =
                conversion == nil
                ? "this session converts nothing"
                : FormatRefusal(formats: concrete).explain(pinnedSizes)
                    ?? "none of its formats serves them as asked (an MJPEG output takes the camera's own MJPEG sizes: compressed data is passed on, never scaled)"
            throw OcellusError(
                .invalidArgument,
                "\(input.uniqueID) offers no format that serves every output (\(wants.joined(separator: "; "))"
                    + (wantedRate.map { " at \($0.framesPerSecond) fps" } ?? "") + "): \(why)")
        }
        if !ignoringBus, let cost = share(chosen, at: rates[chosen]), !cost.fits { throw refuse(chosen) }
        return (chosen, rates[chosen]!)
    }
}
