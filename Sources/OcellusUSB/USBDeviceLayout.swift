import CLibUSB
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// What a USB device's configuration descriptors say feeds its video and audio
/// functions: the UVC input terminals (a camera sensor, or a connector such as an
/// HDMI, composite or vendor-specific input) and the USB Audio input terminals (a
/// microphone, or an external connector carrying a source's sound). Read through
/// libusb from the kernel's cached copy of the descriptors: no device is opened.
public struct USBDeviceLayout: Equatable, Sendable {
    /// UVC `wTerminalType` of each input terminal, by the VideoControl interface it belongs to.
    public var videoInputTerminals: [Int: [UInt16]]
    /// USB Audio `wTerminalType` of the input terminals (0x02xx microphones, 0x06xx external connectors).
    public var audioInputTerminals: [UInt16]
    /// The VideoStreaming interfaces of each VideoControl interface (its class header's baInterfaceNr).
    public var videoStreamingInterfaces: [Int: [Int]]
    /// Each VideoStreaming interface's isochronous IN endpoints, one per alternate setting that has one.
    public var isochronousSettings: [Int: [IsochronousSetting]]

    /// An isochronous endpoint as an alternate setting declares it.
    public struct IsochronousSetting: Equatable, Sendable {
        public var wMaxPacketSize: UInt16
        public var bInterval: UInt8

        public init(wMaxPacketSize: UInt16, bInterval: UInt8) {
            self.wMaxPacketSize = wMaxPacketSize
            self.bInterval = bInterval
        }
    }

    public init(
        videoInputTerminals: [Int: [UInt16]] = [:], audioInputTerminals: [UInt16] = [],
        videoStreamingInterfaces: [Int: [Int]] = [:], isochronousSettings: [Int: [IsochronousSetting]] = [:]
    ) {
        self.videoInputTerminals = videoInputTerminals
        self.audioInputTerminals = audioInputTerminals
        self.videoStreamingInterfaces = videoStreamingInterfaces
        self.isochronousSettings = isochronousSettings
    }

    /// One alternate setting of one interface, as its descriptors give it.
    public struct InterfaceSetting {
        public var number: Int
        public var interfaceClass: UInt8
        public var subclass: UInt8
        /// The class-specific descriptors after the interface descriptor (libusb's `extra`).
        public var extra: [UInt8]
        /// Its endpoints: bEndpointAddress, bmAttributes, wMaxPacketSize, bInterval.
        public var endpoints: [(address: UInt8, attributes: UInt8, wMaxPacketSize: UInt16, bInterval: UInt8)]

        public init(
            number: Int, interfaceClass: UInt8, subclass: UInt8, extra: [UInt8] = [],
            endpoints: [(address: UInt8, attributes: UInt8, wMaxPacketSize: UInt16, bInterval: UInt8)] = []
        ) {
            (self.number, self.interfaceClass, self.subclass, self.extra, self.endpoints) = (number, interfaceClass, subclass, extra, endpoints)
        }
    }

    /// UVC 1.5 §B.2: ITT_CAMERA. Anything else (ITT_VENDOR_SPECIFIC, ITT_MEDIA_TRANSPORT_INPUT,
    /// COMPOSITE/SVIDEO/COMPONENT connectors) brings pictures from a cable.
    static let cameraTerminal: UInt16 = 0x0201

    /// Whether the video function of VideoControl interface `interface` (nil: any of the
    /// device's) shows a camera's pictures or a connected source's (an HDMI or AV grabber):
    /// a function without a camera terminal is a grabber, and so is a device whose sound
    /// comes in through an external connector (HDMI audio), whatever its terminal claims.
    /// nil when the descriptors say nothing.
    public func feedsFromConnector(interface: Int?) -> Bool? {
        let terminals = interface.flatMap { videoInputTerminals[$0] } ?? videoInputTerminals.values.flatMap { $0 }
        guard !terminals.isEmpty else { return nil }
        if !terminals.contains(Self.cameraTerminal) { return true }
        return audioInputTerminals.contains { $0 & 0xff00 == 0x0600 }
    }

    /// Describes the video function of `interfaceDirectory` (a sysfs USB interface, `…/1-2:1.0`)
    /// of the device `identity`: what feeds it, in `facts.details.videoInput` (shown as
    /// `device.video-input`: `camera` or `connector`), and the bus it streams on with what it
    /// can reserve there, in `facts.details.usbLink`.
    public func describeVideoFunction(of interfaceDirectory: String?, identity: USBIdentity, in facts: inout DeviceFacts) {
        let interface = interfaceDirectory.flatMap(Self.interfaceNumber)
        if let connector = feedsFromConnector(interface: interface) {
            facts.details.videoInput = connector ? .connector : .camera
            facts.properties["device.video-input"] = connector ? "connector" : "camera"
        }
        guard let bus = identity.bus, let speed = identity.speedMbps else { return }
        // The function's first streaming interface carries its picture.
        let streaming = (interface.flatMap { videoStreamingInterfaces[$0] } ?? videoStreamingInterfaces.values.sorted { $0.first ?? 0 < $1.first ?? 0 }.first)?
            .first
        let settings = streaming.flatMap { isochronousSettings[$0] } ?? []
        facts.properties["device.usb.bus"] = bus
        facts.properties["device.usb.streaming-settings"] =
            settings.isEmpty
            ? "bulk"
            : settings.map { PeriodicEndpoint(wMaxPacketSize: $0.wMaxPacketSize, bInterval: $0.bInterval, speedMbps: speed, isInput: true).description }
                .joined(separator: ", ")
        facts.details.usbLink = USBLink(
            bus: bus, speedMbps: speed, translator: identity.translator,
            streamingInterface: streaming.map { number in
                // `1-2:1.0` (the control interface) → `1-2:1.1`: same device and configuration.
                let control = interfaceDirectory?.split(separator: "/").last.map(String.init) ?? "\(identity.port):1.0"
                return control.lastIndex(of: ".").map { "\(control[..<$0]).\(number)" } ?? control
            },
            streamingSettings: settings.map { PeriodicEndpoint(wMaxPacketSize: $0.wMaxPacketSize, bInterval: $0.bInterval, speedMbps: speed, isInput: true) })
    }

    /// `…/1-2.3:1.4` → 4 (the interface number after the configuration).
    public static func interfaceNumber(ofInterfaceDirectory directory: String) -> Int? {
        guard let name = directory.split(separator: "/").last, let colon = name.lastIndex(of: ":"),
            let dot = name[colon...].lastIndex(of: ".")
        else { return nil }
        return Int(name[name.index(after: dot)...])
    }

    /// Reads the class-specific descriptors after each interface descriptor, and the video
    /// streaming interfaces' isochronous endpoints.
    public static func parse(interfaces: [InterfaceSetting]) -> USBDeviceLayout {
        var layout = USBDeviceLayout()
        for interface in interfaces {
            if interface.interfaceClass == 14 && interface.subclass == 2,
                let endpoint = interface.endpoints.first(where: { $0.attributes & 3 == 1 && $0.address & 0x80 != 0 })
            {
                layout.isochronousSettings[interface.number, default: []].append(
                    IsochronousSetting(wMaxPacketSize: endpoint.wMaxPacketSize, bInterval: endpoint.bInterval))
            }
            guard interface.subclass == 1 else { continue } // VideoControl / AudioControl
            var offset = 0
            let bytes = interface.extra
            while offset + 2 < bytes.count {
                let length = Int(bytes[offset])
                guard length >= 3, offset + length <= bytes.count else { break }
                // CS_INTERFACE INPUT_TERMINAL: bTerminalID at 3, wTerminalType at 4 (UVC, UAC1 and UAC2 alike).
                if bytes[offset + 1] == 0x24, bytes[offset + 2] == 0x02, length >= 6 {
                    let type = UInt16(bytes[offset + 4]) | UInt16(bytes[offset + 5]) << 8
                    if interface.interfaceClass == 14 {
                        layout.videoInputTerminals[interface.number, default: []].append(type)
                    } else if interface.interfaceClass == 1 {
                        layout.audioInputTerminals.append(type)
                    }
                }
                // UVC CS_INTERFACE VC_HEADER: bInCollection at 11, then baInterfaceNr.
                if interface.interfaceClass == 14, bytes[offset + 1] == 0x24, bytes[offset + 2] == 0x01, length >= 12 {
                    let count = min(Int(bytes[offset + 11]), length - 12)
                    layout.videoStreamingInterfaces[interface.number] = (0..<count).map { Int(bytes[offset + 12 + $0]) }
                }
                offset += length
            }
        }
        return layout
    }

    /// The layout of the USB device at sysfs directory `path` (its `busnum` and `devnum`), or nil.
    public static func read(deviceDirectory path: String) -> USBDeviceLayout? {
        guard let bus = readAttribute(path + "/busnum").flatMap(Int.init),
            let address = readAttribute(path + "/devnum").flatMap(Int.init),
            let context = LibUSB.shared.context
        else { return nil }
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(context, &list)
        guard count > 0, let list else { return nil }
        defer { libusb_free_device_list(list, 1) }
        for index in 0..<count {
            guard let device = list[index], Int(libusb_get_bus_number(device)) == bus,
                Int(libusb_get_device_address(device)) == address
            else { continue }
            var config: UnsafeMutablePointer<libusb_config_descriptor>?
            guard libusb_get_active_config_descriptor(device, &config) == 0, let config else { return nil }
            defer { libusb_free_config_descriptor(config) }
            var interfaces: [InterfaceSetting] = []
            for i in 0..<Int(config.pointee.bNumInterfaces) {
                let interface = config.pointee.interface[i]
                for a in 0..<Int(interface.num_altsetting) {
                    let setting = interface.altsetting[a]
                    let extra = setting.extra.map { Array(UnsafeBufferPointer(start: $0, count: Int(setting.extra_length))) } ?? []
                    let endpoints = (0..<Int(setting.bNumEndpoints)).map { index in
                        let endpoint = setting.endpoint[index]
                        return (endpoint.bEndpointAddress, endpoint.bmAttributes, endpoint.wMaxPacketSize, endpoint.bInterval)
                    }
                    interfaces.append(
                        InterfaceSetting(
                            number: Int(setting.bInterfaceNumber), interfaceClass: setting.bInterfaceClass,
                            subclass: setting.bInterfaceSubClass, extra: extra, endpoints: endpoints))
                }
            }
            return parse(interfaces: interfaces)
        }
        return nil
    }
}

/// One libusb context for the process, made on first use (libusb_init enumerates the
/// buses; once is enough, and later reads see devices plugged since).
private final class LibUSB: @unchecked Sendable {
    static let shared = LibUSB()
    let context: OpaquePointer?

    private init() {
        var made: OpaquePointer?
        context = libusb_init(&made) == 0 ? made : nil
    }
}
