import OcellusCore

/// behaviour §4 hardware cost: the share of its USB bus's periodic time a camera stream takes,
/// counted with everything else the bus carries. A USB 2 bus gives isochronous and interrupt
/// transfers 100 of every 125 µs microframe (full speed: 900 of every 1 ms frame); a camera
/// reserves the alternate setting uvcvideo picks for its stream whether it sends that much or
/// not, and the host controller refuses the stream (ENOSPC) when the reservations do not fit.
/// Refusing above 1.0 up front, with what would fit, beats that error at stream-on.
public enum HardwareCost {
    /// Periodic bus time per interval in µs: USB 2.0 §5.7.4 (80% of a microframe at high
    /// speed, EHCI's uframe_periodic_max; 90% of a frame at full and low speed).
    static func periodicBudget(speedMbps: Double) -> Double { speedMbps < 480 ? 900 : 100 }

    /// µs of bus time one isochronous service of `bytes` takes, by USB 2.0 §5.11.3 as the
    /// kernel's usb_calc_bus_time (which host controllers schedule with: bit stuffing (7/6),
    /// token and handshake overhead, host delay), rounded up to whole µs as EHCI keeps it.
    static func transactionMicroseconds(bytes: Int, speedMbps: Double, isInput: Bool) -> Double {
        let bitTime = Double(7 * 8 * bytes / 6)
        let nanoseconds =
            speedMbps >= 480
            ? (38 * 8 * 2083 + 2083 * (3 + bitTime)) / 1000 + 5 // HS_NSECS_ISO
            : (isInput ? 7268 : 6265) + 1000 + (8354 * (31 + 10 * bitTime) / 1000) // full speed, isochronous
        return (nanoseconds.rounded(.down) / 1000).rounded(.up)
    }

    /// The share of the periodic budget `endpoint` takes on a link of `speedMbps` (1.0 = all of it).
    /// SuperSpeed has no such formula in the kernel: its share is of the bytes a 90% budget carries.
    public static func load(of endpoint: PeriodicEndpoint, speedMbps: Double) -> Double {
        if speedMbps > 480 {
            let bytesPerMicroframe = speedMbps * 1e6 / 8 / 8000 * 0.8 * 0.9 // 8b/10b or 128b/132b, roughly
            return Double(endpoint.bytesPerService) / Double(endpoint.interval) / bytesPerMicroframe
        }
        let microseconds = transactionMicroseconds(bytes: endpoint.bytesPerService, speedMbps: speedMbps, isInput: endpoint.isInput)
        return microseconds / Double(endpoint.interval) / periodicBudget(speedMbps: speedMbps)
    }

    /// The alternate setting uvcvideo reserves for `format` at `rate`: the smallest whose
    /// bytes per service carry the format's payload (with its 12-byte UVC header), as a camera
    /// that asks for what the format needs gets it; when none does, the largest, which does not
    /// carry the stream (`carries` false: uvcvideo refuses it). nil for a camera that streams
    /// over bulk (it reserves no periodic time).
    public static func reservation(on link: USBLink, format: VideoFormat, rate: FrameRate) -> (endpoint: PeriodicEndpoint, carries: Bool)? {
        guard let largest = link.streamingSettings.last else { return nil }
        func carries(_ setting: PeriodicEndpoint) -> Bool {
            let servicesPerSecond = (link.speedMbps >= 480 ? 8000.0 : 1000.0) / Double(setting.interval)
            return Double(setting.bytesPerService) >= (bytesPerSecond(format, rate: rate) / servicesPerSecond).rounded(.up) + 12
        }
        return link.streamingSettings.first(where: carries).map { ($0, true) } ?? (largest, false)
    }

    /// Bytes per second a camera sends for `format`; compressed formats at typical UVC ratios
    /// (MJPEG ≈ 3 bits per pixel).
    public static func bytesPerSecond(_ format: VideoFormat, rate: FrameRate) -> Double {
        let pixels = Double(format.width) * Double(format.height)
        let bytesPerPixel: Double =
            switch format.pixelFormat {
            case .mjpeg: 0.375
            case .h264: 0.05
            case .nv12, .i420: 1.5
            case .rgb24: 3
            case .bgrx, .bgra: 4
            case .grey: 1
            default: 2
            }
        return pixels * bytesPerPixel * rate.framesPerSecond
    }

    /// A stream's share of its bus, beside what the bus already carries.
    public struct BusShare: Sendable, Equatable {
        public var bus: String
        /// The whole bus with the stream (1.0 = all its periodic time): above 1.0 the stream does not fit.
        public var load: Double
        /// The stream's own part of `load`.
        public var own: Double
        /// The transaction translator's load with the stream, for a full-speed camera behind a high-speed hub.
        public var translatorLoad: Double?
        /// What else reserves time on the bus now.
        public var others: [BusReservation]
        /// The reservation the stream would make (nil over bulk), and whether it carries the
        /// stream at all (false when even the camera's largest alternate setting is too small).
        public var reservation: PeriodicEndpoint?
        public var carried: Bool

        public var fits: Bool { carried && load <= 1.0 && (translatorLoad ?? 0) <= 1.0 }
    }

    /// `device` streaming `format` at `rate` beside `others` (the bus's reservations now; the
    /// device's own streaming interface among them is not counted twice). nil off USB.
    public static func share(of device: Device, format: VideoFormat, rate: FrameRate, others: [BusReservation]) -> BusShare? {
        guard let link = device.details.usbLink else { return nil }
        let others = others.filter { $0.interface != link.streamingInterface }
        let chosen = reservation(on: link, format: format, rate: rate)
        let endpoint = chosen?.endpoint
        let own = endpoint.map { load(onBusOf: $0, speedMbps: link.speedMbps, translated: link.translator != nil) } ?? 0
        let total = others.reduce(own) { total, other in
            total + other.endpoints.reduce(0) { $0 + load(onBusOf: $1, speedMbps: other.speedMbps, translated: other.translator != nil) }
        }
        let translatorLoad = link.translator.map { translator in
            (others.filter { $0.translator == translator }.flatMap(\.endpoints) + (endpoint.map { [$0] } ?? []))
                .reduce(0) { $0 + load(of: $1, speedMbps: link.speedMbps) }
        }
        return BusShare(
            bus: link.bus, load: total, own: own, translatorLoad: translatorLoad, others: others,
            reservation: endpoint, carried: chosen?.carries ?? true)
    }

    /// An endpoint's load on its bus: a full-speed endpoint behind a hub's translator reaches
    /// the high-speed bus as split transactions spread over a frame's eight microframes.
    static func load(onBusOf endpoint: PeriodicEndpoint, speedMbps: Double, translated: Bool) -> Double {
        guard translated else { return load(of: endpoint, speedMbps: speedMbps) }
        let split = PeriodicEndpoint(bytesPerService: endpoint.bytesPerService, interval: endpoint.interval * 8, isInput: endpoint.isInput)
        return load(of: split, speedMbps: 480)
    }

    /// A load as the app's user reads it ("61%").
    static func percent(_ load: Double) -> String { "\(Int((load * 100).rounded()))%" }

    /// A stream as the app's user reads it ("YUYV 640x480 at 30 fps").
    static func describe(_ format: VideoFormat, _ rate: FrameRate) -> String {
        "\(format.pixelFormat.name) \(format.width)x\(format.height) at \(rate.framesPerSecond) fps"
    }

    /// Why a stream is refused, for the app's user: the bus, who else holds it, the cheapest
    /// format that serves the outputs and its share, and the largest format that would fit.
    static func refusal(
        of camera: String, _ cost: BusShare, format: VideoFormat, rate: FrameRate,
        fitting: (VideoFormat, FrameRate)?
    ) -> String {
        var message = "not enough USB bandwidth on \(cost.bus) for \(camera): "
        if !cost.carried, let largest = cost.reservation {
            message += "\(describe(format, rate)) needs more than the camera's largest alternate setting (\(largest))"
        } else {
            message += "\(describe(format, rate)) would take \(percent(cost.own)) of its periodic time"
        }
        if !cost.others.isEmpty {
            let holders = cost.others.map { "\($0.device) (\($0.interface))" }
            message += ", beside \(percent(cost.load - cost.own)) that \(holders.joined(separator: ", ")) already reserve"
        }
        if let translator = cost.translatorLoad, translator > 1 {
            message += "; the hub's transaction translator would be at \(percent(translator))"
        }
        if let (format, rate) = fitting {
            message += "; \(describe(format, rate)) would fit"
        } else {
            message +=
                cost.others.isEmpty
                ? "; nothing the camera offers fits this bus"
                : "; nothing the camera offers fits while they stream: stop one, or plug the camera into another bus"
        }
        return message
    }
}
