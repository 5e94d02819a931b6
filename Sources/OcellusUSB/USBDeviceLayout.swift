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

    public init(videoInputTerminals: [Int: [UInt16]] = [:], audioInputTerminals: [UInt16] = []) {
        self.videoInputTerminals = videoInputTerminals
        self.audioInputTerminals = audioInputTerminals
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

    /// Marks what feeds the video function of `interfaceDirectory` (a sysfs USB interface,
    /// `…/1-2:1.0`) in `facts.details.videoInput` (shown as `device.video-input`: `camera` or `connector`).
    public func describeVideoInput(of interfaceDirectory: String?, in facts: inout DeviceFacts) {
        let interface = interfaceDirectory.flatMap(Self.interfaceNumber)
        guard let connector = feedsFromConnector(interface: interface) else { return }
        facts.details.videoInput = connector ? .connector : .camera
        facts.properties["device.video-input"] = connector ? "connector" : "camera"
    }

    /// `…/1-2.3:1.4` → 4 (the interface number after the configuration).
    public static func interfaceNumber(ofInterfaceDirectory directory: String) -> Int? {
        guard let name = directory.split(separator: "/").last, let colon = name.lastIndex(of: ":"),
              let dot = name[colon...].lastIndex(of: ".") else { return nil }
        return Int(name[name.index(after: dot)...])
    }

    /// Reads the class-specific descriptors after each interface descriptor (libusb's `extra`).
    public static func parse(interfaces: [(number: Int, interfaceClass: UInt8, subclass: UInt8, extra: [UInt8])]) -> USBDeviceLayout {
        var layout = USBDeviceLayout()
        for interface in interfaces where interface.subclass == 1 {   // VideoControl / AudioControl
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
                offset += length
            }
        }
        return layout
    }

    /// The layout of the USB device at sysfs directory `path` (its `busnum` and `devnum`), or nil.
    public static func read(deviceDirectory path: String) -> USBDeviceLayout? {
        guard let bus = readAttribute(path + "/busnum").flatMap(Int.init),
              let address = readAttribute(path + "/devnum").flatMap(Int.init),
              let context = LibUSB.shared.context else { return nil }
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(context, &list)
        guard count > 0, let list else { return nil }
        defer { libusb_free_device_list(list, 1) }
        for index in 0..<count {
            guard let device = list[index], Int(libusb_get_bus_number(device)) == bus,
                  Int(libusb_get_device_address(device)) == address else { continue }
            var config: UnsafeMutablePointer<libusb_config_descriptor>?
            guard libusb_get_active_config_descriptor(device, &config) == 0, let config else { return nil }
            defer { libusb_free_config_descriptor(config) }
            var interfaces: [(number: Int, interfaceClass: UInt8, subclass: UInt8, extra: [UInt8])] = []
            for i in 0..<Int(config.pointee.bNumInterfaces) {
                let interface = config.pointee.interface[i]
                for a in 0..<Int(interface.num_altsetting) {
                    let setting = interface.altsetting[a]
                    let extra = setting.extra.map { Array(UnsafeBufferPointer(start: $0, count: Int(setting.extra_length))) } ?? []
                    interfaces.append((Int(setting.bInterfaceNumber), setting.bInterfaceClass, setting.bInterfaceSubClass, extra))
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
