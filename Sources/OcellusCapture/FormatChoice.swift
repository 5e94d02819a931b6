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
            throw FormatRefusal.notADepthCamera(input)
        }
        if input.depthSharesPictureStream {
            guard outputs.allSatisfy({ $0.isServed(by: picture) }) else {
                throw FormatRefusal.depthNotInPicture(input, picture)
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
        guard let chosen = best else { throw FormatRefusal.noDepthFormatServes(input, outputs) }
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

    /// The camera format that serves every output at least cost (`PictureChoice`'s stages) and
    /// the rate every output asks for; nil without an input. `excluding`: formats the kernel
    /// refused at this start (any rate of them). `sharing`: the format and rate another app
    /// streams the camera in, the only one it can be shared in.
    func picture(
        for configuration: SessionConfiguration, ignoringBus: Bool = false, excluding: [VideoFormat] = [],
        sharing: (format: VideoFormat, rate: FrameRate)? = nil
    ) throws(OcellusError) -> (format: VideoFormat, rate: FrameRate)? {
        guard let input = configuration.input else { return nil }
        let choice = PictureChoice(
            configuration, input: input, conversion: conversion,
            others: ignoringBus ? nil : reservations(besideBusOf: input))
        if let sharing { return try choice.shared(sharing) }
        return try choice.choose(excluding: excluding)
    }
}
