import CLibPipeWire
import CPipeWire
import OcellusCore
import OcellusUSB

/// Maps PipeWire node and device properties to backend-neutral `DeviceFacts`.
enum PipeWireFacts {
    static func media(ofClass mediaClass: String) -> DeviceFacts.Media? {
        if mediaClass == "Video/Source" { return .video }
        if mediaClass == "Audio/Source" || mediaClass.hasPrefix("Audio/Source/") { return .audio }
        return nil
    }

    /// Properties that only a node backed by hardware carries (libcamera publishes only
    /// cameras it found, with or without a location).
    private static let hardwareKeys = [
        "device.bus", "device.bus-path", "device.vendor.id", "device.product.id",
        "api.v4l2.path", "api.v4l2.cap.bus_info", "api.libcamera.location",
        "api.libcamera.path", "api.alsa.card", "api.alsa.path"
    ]

    /// `V4L2_CAP_IO_MC`: a node whose format a media-controller pipeline sets.
    private static let mediaControllerCentric: UInt32 = 0x2000_0000
    /// `V4L2_CAP_VIDEO_CAPTURE`, `V4L2_CAP_VIDEO_CAPTURE_MPLANE`.
    private static let videoCapture: UInt32 = 0x0000_0001 | 0x0000_1000

    /// Whether a node is a camera an app can stream. PipeWire's V4L2 monitor also publishes
    /// nodes that are not: an ISP's raw capture queues (IPU6/IPU7 laptops show dozens, all
    /// with card "ipu6"; libcamera publishes the real camera beside them) and nodes that
    /// capture no video. Their device capabilities, which the monitor publishes, say so.
    static func isCamera(properties: [String: String]) -> Bool {
        guard let text = properties["api.v4l2.cap.device-caps"], let caps = UInt32(text, radix: 16) else { return true }
        return caps & mediaControllerCentric == 0 && caps & videoCapture != 0
    }

    static func make(node: BoundNode, deviceProperties: [String: String]) -> DeviceFacts {
        // Node properties win over the device's where both have a key.
        let all = deviceProperties.merging(node.properties) { _, nodeValue in nodeValue }
        let nodeName = all["node.name"] ?? "node-\(node.globalID)"
        let name =
            node.properties["node.description"] ?? deviceProperties["device.description"]
            ?? all["node.nick"] ?? nodeName
        var facts = DeviceFacts(media: node.media, name: name, backendKey: node.serial ?? "", fallbackName: nodeName)
        facts.bus = all["device.bus"] ?? (all["api.v4l2.cap.bus_info"]?.hasPrefix("usb-") == true ? "usb" : nil)
        facts.busPath = all["device.bus-path"]
        facts.vendorID = all["device.vendor.id"].flatMap(parseUSBID)
        facts.productID = all["device.product.id"].flatMap(parseUSBID)
        facts.serial = all["device.serial"]
        facts.location = all["api.libcamera.location"]
        facts.pluggedMicroseconds = all["device.plugged.usec"].flatMap { UInt64($0) }
        facts.formats = node.formats
        facts.details.soundFormat = node.soundFormat
        facts.properties = all
        facts.details.defaultDeviceName = all["node.name"]
        facts.details.videoNodes = all["api.v4l2.path"].map { [$0] } ?? []
        facts.details.objectPath = all["object.path"].map { String($0.drop { $0 != "/" }) }
        facts.details.sensorRotation = all["api.libcamera.rotation"].flatMap { Int($0) }
        (facts.details.vendorName, facts.details.productName) = (all["device.vendor.name"], all["device.product.name"])
        facts.deviceNumbers = deviceNumbers(all)
        if let path = all["api.v4l2.path"], let usb = USBIdentity(videoNode: path) {
            describeUSBCamera(usb, in: &facts)
            let node = path.split(separator: "/").last.map(String.init) ?? path
            USBDeviceLayout.read(deviceDirectory: usb.sysfsPath)?
                .describeVideoFunction(of: realPath("/sys/class/video4linux/\(node)/device"), identity: usb, in: &facts)
        } else if let card = all["api.alsa.card"], let directory = realPath("/sys/class/sound/card\(card)/device"),
            let usb = USBIdentity(containing: directory)
        {
            usb.apply(to: &facts) // a USB microphone, e.g. the one built into a webcam
        }
        if let camera = all["api.libcamera.path"], facts.vendorID == nil {
            describeLibcameraCamera(camera, in: &facts)
        }
        let loopback = all["api.v4l2.cap.driver"] == "v4l2 loopback"
        facts.isSoftwareSource = loopback || (node.media == .video && !hardwareKeys.contains { all[$0] != nil })
        return facts
    }

    /// What libcamera's camera ID says: a USB camera's names its USB interface and model
    /// (`<controller>-1-7:1.0-046d:0825`), which sysfs turns into the same identity the V4L2
    /// monitor's node of that camera has (so the two are one camera); any other is a
    /// platform camera known by its firmware path (`\_SB_.PC00.I2C2.CAMR`,
    /// `/base/soc/i2c0mux/i2c@1/imx708@1a`), built in whether or not libcamera gives a location.
    static func describeLibcameraCamera(_ camera: String, in facts: inout DeviceFacts) {
        if let usb = USBIdentity(libcameraID: camera) {
            describeUSBCamera(usb, in: &facts)
        } else if let usb = USBIdentity.libcameraUSBCamera(camera) {
            // sysfs out of reach (a sandbox): the model and port the ID names.
            (facts.vendorID, facts.productID, facts.bus) = (usb.vendorID, usb.productID, "usb")
            facts.usbPort = String(usb.interface.prefix { $0 != ":" })
        } else {
            facts.firmwarePath = camera
        }
    }

    /// The identity sysfs gives, and the camera's own name as the V4L2 backend gives it
    /// (not "<card> (V4L2)" or libcamera's sensor name).
    private static func describeUSBCamera(_ usb: USBIdentity, in facts: inout DeviceFacts) {
        usb.apply(to: &facts)
        if let product = usb.product, !product.isEmpty { facts.name = product }
    }

    /// A USB vendor or product ID as PipeWire writes it: "0x046d" (current versions), a decimal
    /// integer ("1133": 0.3.4x, e.g. Ubuntu 22.04's 0.3.48, wrote the number itself), or udev's
    /// bare hex ("046d", "0825": four digits, a letter or a leading zero show it).
    static func parseUSBID(_ text: String) -> UInt16? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt16(text.dropFirst(2), radix: 16) }
        let bareHex = text.count == 4 && (text.hasPrefix("0") || text.contains { $0.isLetter })
        return bareHex ? UInt16(text, radix: 16) : UInt16(text)
    }

    /// The kernel nodes a node streams from: what PipeWire's V4L2 monitor (`device.devids`) and
    /// its libcamera monitor (`api.libcamera.SystemDevices`) say, and sysfs for the V4L2 path.
    static func deviceNumbers(_ properties: [String: String]) -> [UInt64] {
        var numbers: [UInt64] = []
        for key in ["device.devids", "api.libcamera.SystemDevices"] {
            numbers += properties[key].map(DeviceNumbers.parse(list:)) ?? []
        }
        if let path = properties["api.v4l2.path"], let node = path.split(separator: "/").last,
            let number = readAttribute("/sys/class/video4linux/\(node)/dev").flatMap(DeviceNumbers.parse(majorMinor:))
        {
            numbers.append(number)
        }
        var unique: [UInt64] = []
        for number in numbers where !unique.contains(number) { unique.append(number) }
        return unique
    }
}

/// SPA format pods → `VideoFormat`s.
enum PipeWireFormats {
    static func fourCC(subtype: UInt32, format: UInt32) -> FourCC? {
        switch subtype {
        case SPA_MEDIA_SUBTYPE_mjpg.rawValue: return .mjpeg
        case SPA_MEDIA_SUBTYPE_h264.rawValue: return .h264
        case SPA_MEDIA_SUBTYPE_raw.rawValue: break
        default: return nil
        }
        switch format {
        case SPA_VIDEO_FORMAT_YUY2.rawValue: return .yuyv
        case SPA_VIDEO_FORMAT_UYVY.rawValue: return .uyvy
        case SPA_VIDEO_FORMAT_NV12.rawValue: return .nv12
        case SPA_VIDEO_FORMAT_I420.rawValue: return .i420
        case SPA_VIDEO_FORMAT_RGB.rawValue: return .rgb24
        case SPA_VIDEO_FORMAT_BGRx.rawValue: return .bgrx
        case SPA_VIDEO_FORMAT_BGRA.rawValue: return .bgra
        case SPA_VIDEO_FORMAT_GRAY8.rawValue: return .grey
        case SPA_VIDEO_FORMAT_GRAY16_LE.rawValue: return .z16
        default: return nil
        }
    }

    /// The pixel format a parsed format names, for messages ("YUYV", or the SPA numbers).
    static func describe(_ parsed: ocpw_video_format) -> String {
        let format = parsed.n_formats > 0 ? parsed.formats.0 : 0
        return fourCC(subtype: parsed.media_subtype, format: format)?.description
            ?? "subtype \(parsed.media_subtype) format \(format)"
    }

    /// The format and rate a fixed (agreed) format names, where Ocellus knows its pixel format.
    static func running(_ parsed: ocpw_video_format) -> (format: VideoFormat, rate: FrameRate)? {
        guard let fourCC = fourCC(subtype: parsed.media_subtype, format: parsed.n_formats > 0 ? parsed.formats.0 : 0),
            parsed.n_sizes > 0, parsed.sizes.0.width > 0, parsed.sizes.0.height > 0
        else { return nil }
        let rate = parsed.n_rates > 0 ? FrameRate(parsed.rates.0.num, parsed.rates.0.denom) : FrameRate(0, 1)
        return (VideoFormat(pixelFormat: fourCC, width: parsed.sizes.0.width, height: parsed.sizes.0.height, frameRates: [rate]), rate)
    }

    /// The SPA (subtype, video format) of a fourcc, for building a format pod.
    static func spaFormat(for fourCC: FourCC) -> (subtype: UInt32, format: UInt32)? {
        if fourCC == .mjpeg { return (SPA_MEDIA_SUBTYPE_mjpg.rawValue, SPA_VIDEO_FORMAT_UNKNOWN.rawValue) }
        if fourCC == .h264 { return (SPA_MEDIA_SUBTYPE_h264.rawValue, SPA_VIDEO_FORMAT_UNKNOWN.rawValue) }
        let raw: [UInt32] = [
            SPA_VIDEO_FORMAT_YUY2, SPA_VIDEO_FORMAT_UYVY, SPA_VIDEO_FORMAT_NV12, SPA_VIDEO_FORMAT_I420,
            SPA_VIDEO_FORMAT_RGB, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRA, SPA_VIDEO_FORMAT_GRAY8,
            SPA_VIDEO_FORMAT_GRAY16_LE
        ].map(\.rawValue)
        return raw.first { self.fourCC(subtype: SPA_MEDIA_SUBTYPE_raw.rawValue, format: $0) == fourCC }
            .map { (SPA_MEDIA_SUBTYPE_raw.rawValue, $0) }
    }

    static func videoFormats(_ parsed: ocpw_video_format) -> [VideoFormat] {
        let pixelFormats: [FourCC]
        if parsed.media_subtype == SPA_MEDIA_SUBTYPE_raw.rawValue {
            let formatIDs: [UInt32] = values(parsed.formats, count: parsed.n_formats)
            pixelFormats = formatIDs.compactMap {
                fourCC(subtype: parsed.media_subtype, format: $0)
            }
        } else {
            pixelFormats = fourCC(subtype: parsed.media_subtype, format: 0).map { [$0] } ?? []
        }
        let sizes: [spa_rectangle] = values(parsed.sizes, count: parsed.n_sizes)
        let fractions: [spa_fraction] = values(parsed.rates, count: parsed.n_rates)
        let isRange = parsed.rate_choice == OCPW_CHOICE_RANGE.rawValue && fractions.count == 3
        let rates: [FrameRate]
        var preferredRate: FrameRate?
        if isRange {
            // A rate range (PipeWire's own videotestsrc: 0/1 to 2^31-1/1, 25/1 by default) held to
            // what a camera could deliver, from at least one frame a second; its default is what
            // the producer streams when nothing asks otherwise.
            let (low, high) = (FrameRate(fractions[1].num, fractions[1].denom), FrameRate(fractions[2].num, fractions[2].denom))
            rates = [min(max(high, FrameRate(1)), maximumRate), min(max(low, FrameRate(1)), maximumRate)]
            let stated = FrameRate(fractions[0].num, fractions[0].denom)
            preferredRate = fractions[0].num > 0 && rates[1] <= stated && stated <= rates[0] ? stated : nil
        } else {
            let positive = fractions.filter { $0.num > 0 }.map { FrameRate($0.num, $0.denom) }
            // A producer that fixes no rate (GStreamer's framerate=0/1: frames when they come) is
            // offered back exactly that, listed as rate 0/1.
            rates = positive.isEmpty && fractions.contains { $0.num == 0 } ? [FrameRate(0, 1)] : positive
        }
        var result: [VideoFormat] = []
        for pixelFormat in pixelFormats {
            if parsed.size_choice == OCPW_CHOICE_RANGE.rawValue && sizes.count == 3 {
                // Sizes as a range (1x1 to 2^31-1 squared, 320x240 by default): one format with its
                // range, its maximum held to 1080p, instead of its two ends as sizes.
                let (stated, low, high) = (sizes[0], sizes[1], sizes[2])
                let (maxWidth, maxHeight) = (min(high.width, maximumSize.width), min(high.height, maximumSize.height))
                let (minWidth, minHeight) = (min(max(1, low.width), maxWidth), min(max(1, low.height), maxHeight))
                guard maxWidth > 0 && maxHeight > 0 else { continue }
                var range: SizeRange?
                if minWidth != maxWidth || minHeight != maxHeight {
                    range = SizeRange(minWidth: minWidth, minHeight: minHeight, maxWidth: maxWidth, maxHeight: maxHeight, stepWidth: 1, stepHeight: 1)
                    range!.preferred = range!.contains(width: stated.width, height: stated.height) ? FrameSize(width: stated.width, height: stated.height) : nil
                }
                result.append(
                    VideoFormat(
                        pixelFormat: pixelFormat, width: maxWidth, height: maxHeight,
                        frameRates: rates, frameRatesAreRange: isRange, sizeRange: range, preferredFrameRate: preferredRate))
                continue
            }
            for size in sizes where size.width > 0 && size.height > 0 {
                result.append(
                    VideoFormat(
                        pixelFormat: pixelFormat, width: size.width, height: size.height,
                        frameRates: rates, frameRatesAreRange: isRange, preferredFrameRate: preferredRate))
            }
        }
        return result
    }

    /// The most a producer's range is taken to offer: 1080p at 60 frames a second. A range is
    /// what software sources publish (any size, any rate); streamed at its largest it would make
    /// frames no machine converts in time.
    static let maximumSize = (width: UInt32(1920), height: UInt32(1080))
    static let maximumRate = FrameRate(60)

    /// Reads the first `count` entries of a fixed-size C array imported as a tuple.
    private static func values<Tuple, Element>(_ tuple: Tuple, count: UInt32) -> [Element] {
        withUnsafeBytes(of: tuple) { raw in
            Array(raw.bindMemory(to: Element.self).prefix(Int(count)))
        }
    }
}
