/// What a backend learned about a device, in backend-neutral terms. The core
/// turns it into a `Device` (unique ID, type, position) with the behaviour §1 rules,
/// so every backend classifies the same way.
public struct DeviceFacts: Sendable, Equatable {
    public enum Media: Sendable { case video, audio }
    /// USB `removable` attribute of the device in sysfs.
    public enum Removable: Sendable { case fixed, removable, unknown }
    /// The kernel's `connect_type` of a USB port.
    public enum PortConnection: Sendable { case hardwired, hotplug }

    public var media: Media
    public var name: String
    /// Key of this instance inside its backend (PipeWire `object.serial`).
    public var backendKey: String
    /// Used as `<backend>-<fallbackName>` when the device has no hardware identity (PipeWire `node.name`).
    public var fallbackName: String
    /// Bus kind as the system reports it: "usb", "pci", "platform", …
    public var bus: String?
    /// udev ID_PATH-style path, e.g. `pci-0000:00:14.0-usb-0:2.3:1.0`.
    public var busPath: String?
    /// USB port in kernel notation (`1-2.3`), when sysfs tells it.
    public var usbPort: String?
    public var vendorID: UInt16?
    public var productID: UInt16?
    public var serial: String?
    public var removable: Removable
    /// How the USB port is wired (`port/connect_type`): a hard-wired port holds a built-in device.
    public var portConnection: PortConnection?
    /// The ACPI physical location of the port (`physical_location/`): the panel it is on, and
    /// whether it is in the lid (a laptop's or tablet's display).
    public var panel: String?
    public var inLid: Bool?
    /// Firmware node of a platform (MIPI) camera.
    public var firmwarePath: String?
    /// The kernel device numbers of the nodes it streams from (`DeviceNumbers`): two views
    /// that share one are one camera, whatever else they say.
    public var deviceNumbers: [UInt64] = []
    /// Location reported by libcamera or `V4L2_CID_CAMERA_ORIENTATION`: front, back, external.
    public var location: String?
    /// Set by the backend for software sources (v4l2loopback, PipeWire nodes with no device).
    public var isSoftwareSource: Bool
    /// Picture formats; for a depth-only device its depth formats, which are then its picture too.
    public var formats: [VideoFormat]
    /// Formats of the device's depth function (empty for other cameras). A device whose
    /// `formats` are not these runs a depth format beside any of its picture formats.
    public var depthFormats: [VideoFormat]
    /// The formats that carry depth, wherever the backend listed them: the depth function's,
    /// else depth-coded formats (Z16) listed among the picture's — one UVC function can list
    /// Z16 beside MJPEG; it is a depth camera all the same, its depth on the picture's stream.
    public var depthFormatsListed: [VideoFormat] {
        depthFormats.isEmpty ? formats.filter { $0.pixelFormat.isDepth } : depthFormats
    }
    public var pluggedMicroseconds: UInt64?
    /// What policies read beyond identity (`DeviceDetails`).
    public var details = DeviceDetails()
    /// For display only (`oc_device_get_property`, `list --json`): no policy reads it.
    public var properties: [String: String]

    public init(media: Media, name: String, backendKey: String, fallbackName: String) {
        self.media = media
        self.name = name
        self.backendKey = backendKey
        self.fallbackName = fallbackName
        removable = .unknown
        isSoftwareSource = false
        formats = []
        depthFormats = []
        properties = [:]
    }

    /// How much of the hardware's identity these facts carry: a USB model (2), a firmware
    /// node (1), nothing (0, a backend's own name).
    public var identityStrength: Int {
        vendorID != nil && productID != nil ? 2 : firmwarePath != nil ? 1 : 0
    }

    /// Whether both name a kernel node in common.
    public func sharesDeviceNumber(with other: DeviceFacts) -> Bool {
        deviceNumbers.contains { other.deviceNumbers.contains($0) }
    }

    /// Takes the hardware identity of another view of the same camera (one that reaches the
    /// same kernel node and knows more: libcamera names a USB webcam by an ACPI path where
    /// sysfs is out of reach, the V4L2 monitor by its USB model and port).
    public mutating func adoptIdentity(of other: DeviceFacts) {
        (vendorID, productID, serial, usbPort, busPath, bus) = (
            other.vendorID, other.productID, other.serial, other.usbPort,
            other.busPath, other.bus
        )
        (removable, portConnection, panel, inLid, firmwarePath) = (
            other.removable, other.portConnection, other.panel,
            other.inLid, other.firmwarePath
        )
    }
}

/// behaviour §1 classification rules.
public enum DeviceClassifier {
    /// A serial that may stand for the unit (see `SerialNumber`).
    public static func isIdentifyingSerial(_ serial: String?) -> Bool {
        guard let serial = serial?.trimmingSpaces, !serial.isEmpty else { return false }
        return SerialNumber.identifiesUnit(serial)
    }

    public static func type(of facts: DeviceFacts) -> DeviceType {
        if facts.media == .audio { return .microphone }
        if !facts.depthFormatsListed.isEmpty { return .depthCamera }
        if facts.isSoftwareSource { return .virtualCamera }
        switch facts.location {
        case "front", "back": return .builtInCamera
        case "external": return .externalCamera
        default: break
        }
        if facts.firmwarePath != nil || facts.bus == "platform" { return .builtInCamera }
        if facts.bus == "usb" || facts.vendorID != nil {
            return isBuiltIn(facts) ? .builtInCamera : .externalCamera
        }
        if facts.bus == nil && facts.busPath == nil { return .virtualCamera }
        return .externalCamera
    }

    /// Where a USB device sits, in the order the kernel knows it best: the port's wiring
    /// (hard-wired is inside the machine, hot-plug a socket a user reaches), then the ACPI
    /// location (a port in the lid is the display's), then `removable` — which internal hubs
    /// often leave `unknown`, and unknown counts as external.
    static func isBuiltIn(_ facts: DeviceFacts) -> Bool {
        switch facts.portConnection {
        case .hardwired: return true
        case .hotplug: return false
        case nil: break
        }
        if facts.inLid == true { return true }
        return facts.removable == .fixed
    }

    public static func position(of facts: DeviceFacts, type: DeviceType) -> DevicePosition {
        guard type == .builtInCamera || type == .depthCamera else { return .unspecified }
        switch facts.location ?? facts.panel {
        case "front": return .front
        case "back": return .back
        default:
            // A fixed UVC camera is a laptop's or display's user-facing camera; a sensor on the
            // board without a location (libcamera leaves it out on some rear cameras) faces
            // either way.
            return type == .builtInCamera && facts.bus == "usb" ? .front : .unspecified
        }
    }

    /// The stable ID of behaviour §1. `serialTaken` says whether another connected
    /// device of the same vendor/product already uses this serial.
    public static func uniqueID(of facts: DeviceFacts, backend: BackendKind, serialTaken: Bool) -> String {
        let suffix = facts.media == .audio ? "-audio" : ""
        if let vendor = facts.vendorID, let product = facts.productID {
            let model = "usb-\(hex4(vendor)):\(hex4(product))"
            if isIdentifyingSerial(facts.serial) && !serialTaken, let serial = facts.serial?.trimmingSpaces {
                return "\(model)-\(sanitize(serial))\(suffix)"
            }
            if let port = port(of: facts) {
                return "\(model)@\(sanitize(port))\(suffix)"
            }
        }
        if let firmware = facts.firmwarePath {
            return "platform-\(sanitize(firmware))\(suffix)"
        }
        // A node without a name (anyone can publish one) is known by its backend key instead.
        let name = sanitize(facts.fallbackName)
        return "\(backend.name)-\(name.isEmpty ? "node" + sanitize(facts.backendKey) : name)"
    }

    /// Whether `uniqueID(of:)` falls back to the backend's name for the device (nothing in the
    /// hardware identifies it): two such devices can ask for one ID.
    public static func hasFallbackID(_ facts: DeviceFacts) -> Bool {
        (facts.vendorID == nil || facts.productID == nil || (!isIdentifyingSerial(facts.serial) && port(of: facts) == nil))
            && facts.firmwarePath == nil
    }

    /// `pci-0000:00:14.0-usb-0:2.3:1.0` → `pci-0000:00:14.0-usb-0:2.3`: the port chain without the interface,
    /// so both the camera and its microphone interface name the same port.
    public static func portFromBusPath(_ busPath: String) -> String {
        guard let usb = busPath.range(of: "-usb-") else { return busPath }
        let tail = busPath[usb.upperBound...]
        let parts = tail.split(separator: ":", omittingEmptySubsequences: false)
        // usb-<bus>:<ports>[:<config>.<interface>]
        guard parts.count >= 3 else { return busPath }
        return String(busPath[..<usb.upperBound]) + parts[0] + ":" + parts[1]
    }

    /// The port a device hangs off: the kernel's when sysfs told it, else from the udev bus path.
    public static func port(of facts: DeviceFacts) -> String? {
        facts.usbPort ?? facts.busPath.map(portFromBusPath)
    }

    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Keeps IDs printable, path-safe and one line, whatever another process put in the string:
    /// ASCII letters, digits and `._-:@`, anything else `_`; past 96 characters, the first 80
    /// and a hash of the whole, so that long names stay apart.
    static func sanitize(_ text: String) -> String {
        let safe = String(
            text.unicodeScalars.map { scalar -> Character in
                scalar.isASCII
                    && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                        || "._-:@".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            })
        guard safe.count > 96 else { return safe }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 // FNV-1a over the original bytes
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return safe.prefix(80) + "~" + String(hash, radix: 16)
    }
}

/// behaviour §2 app IDs: `[A-Za-z0-9._-]`, 1–255 characters, no leading dot.
public enum AppID {
    public static func validate(_ id: String) throws(OcellusError) {
        let bytes = Array(id.utf8)
        guard !bytes.isEmpty else { throw OcellusError(.invalidArgument, "app ID is empty") }
        guard bytes.count <= 255 else {
            throw OcellusError(.invalidArgument, "app ID is \(bytes.count) characters long; at most 255 are allowed")
        }
        guard bytes[0] != UInt8(ascii: ".") else {
            throw OcellusError(.invalidArgument, "app ID \"\(id)\" starts with '.'")
        }
        for byte in bytes {
            let ok =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            guard ok else {
                throw OcellusError(
                    .invalidArgument,
                    "app ID \"\(id)\" contains a character outside [A-Za-z0-9._-]")
            }
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

extension StringProtocol {
    func range(of needle: String) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        var index = startIndex
        while index != endIndex {
            if self[index...].hasPrefix(needle) {
                return index..<self.index(index, offsetBy: needle.count)
            }
            index = self.index(after: index)
        }
        return nil
    }
}
