import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The USB device behind a video node, read from sysfs (no permissions needed,
/// unlike opening the device with libusb): the identity behaviour §1 unique IDs and
/// the built-in/external decision rest on.
public struct USBIdentity: Equatable, Sendable {
    public var vendorID: UInt16
    public var productID: UInt16
    public var serial: String?
    public var manufacturer: String?
    public var product: String?
    /// Kernel port path, `1-2.3`: stable for a physical port across replug and reboot.
    public var port: String
    /// Bus speed in Mbit/s (`speed`: 1.5, 12, 480, 5000, …).
    public var speedMbps: Double?
    /// The bus, by its root hub's name (`usb3`, from `busnum`).
    public var bus: String?
    /// The transaction translator a full- or low-speed device shares behind a high-speed hub
    /// (`3-1`; `3-1:2` when the hub has one per port), nil elsewhere.
    public var translator: String?
    public var removable: DeviceFacts.Removable
    /// `port/connect_type` of the port the device is plugged into.
    public var portConnection: DeviceFacts.PortConnection?
    /// `physical_location/panel` and `/lid` (ACPI _PLD), where the firmware describes the port.
    public var panel: String?
    public var inLid: Bool?
    /// The device's sysfs directory.
    public var sysfsPath: String

    /// Walks up from `sysfsPath` (an interface or anything below the device) to the
    /// directory holding `idVendor`: the USB device.
    public init?(containing sysfsPath: String, attributes read: (String) -> String? = readAttribute) {
        var path = sysfsPath
        while path.count > 1 {
            if let vendor = read(path + "/idVendor").flatMap({ UInt16($0, radix: 16) }) {
                vendorID = vendor
                productID = read(path + "/idProduct").flatMap { UInt16($0, radix: 16) } ?? 0
                serial = read(path + "/serial")
                manufacturer = read(path + "/manufacturer")
                product = read(path + "/product")
                port = String(path.split(separator: "/").last ?? "")
                speedMbps = read(path + "/speed").flatMap(Double.init)
                bus = read(path + "/busnum").map { "usb" + $0 }
                translator = speedMbps.flatMap { $0 < 480 ? Self.translator(above: path, read: read) : nil }
                removable =
                    switch read(path + "/removable") {
                    case "fixed": .fixed
                    case "removable": .removable
                    default: .unknown
                    }
                portConnection =
                    switch read(path + "/port/connect_type") {
                    case "hardwired": .hardwired
                    case "hotplug": .hotplug
                    default: nil
                    }
                panel = read(path + "/physical_location/panel").flatMap { $0 == "unknown" ? nil : $0 }
                inLid = read(path + "/physical_location/lid").map { $0 == "yes" }
                self.sysfsPath = path
                return
            }
            guard let slash = path.lastIndex(of: "/") else { break }
            path = String(path[..<slash])
        }
        return nil
    }

    /// The nearest high-speed hub above the device at `path` (not a root hub: a full-speed device on
    /// a root port has a bus of its own, or the controller schedules it without a translator).
    private static func translator(above path: String, read: (String) -> String?) -> String? {
        var child = path
        while let slash = child.lastIndex(of: "/") {
            let parent = String(child[..<slash])
            let name = parent.split(separator: "/").last.map(String.init) ?? ""
            guard read(parent + "/idVendor") != nil, !name.hasPrefix("usb") else { return nil }
            if let speed = read(parent + "/speed").flatMap(Double.init), speed >= 480 {
                guard read(parent + "/bDeviceProtocol") == "02" else { return name } // one translator for the hub
                let port = child.split(separator: "/").last?.split(whereSeparator: { $0 == "." || $0 == "-" }).last ?? ""
                return "\(name):\(port)"
            }
            child = parent
        }
        return nil
    }

    /// The USB device of `/dev/videoN` (or `videoN`), through `/sys/class/video4linux`.
    public init?(videoNode: String, sysfsRoot: String = "/sys") {
        guard let node = videoNode.split(separator: "/").last, node.hasPrefix("video"),
            let resolved = realPath("\(sysfsRoot)/class/video4linux/\(node)/device")
        else { return nil }
        self.init(containing: resolved)
    }

    /// What a libcamera camera ID for a UVC camera names,
    /// `<controller firmware path>-<bus>-<port>:<config>.<interface>-<vendor>:<product>`:
    /// the interface (`1-7:1.0`) and the model; nil for other cameras' IDs.
    public static func libcameraUSBCamera(_ id: String) -> (interface: String, vendorID: UInt16, productID: UInt16)? {
        guard let model = id.lastIndex(of: "-") else { return nil }
        let ids = id[id.index(after: model)...].split(separator: ":")
        guard ids.count == 2, ids.allSatisfy({ $0.count == 4 }), let vendor = UInt16(ids[0], radix: 16),
            let product = UInt16(ids[1], radix: 16)
        else { return nil }
        // Read from its end: `1.0`, `:`, ports `7` or `2.3`, `-`, bus `1`, and the `-` that
        // ends the controller path.
        let head = Array(id[..<model].utf8)
        func run(endingAt end: Int, of allowed: (UInt8) -> Bool) -> Int {
            var start = end
            while start > 0 && allowed(head[start - 1]) { start -= 1 }
            return start
        }
        let digit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let configuration = run(endingAt: head.count) { digit($0) || $0 == UInt8(ascii: ".") }
        guard configuration > 0, configuration < head.count, head[configuration - 1] == UInt8(ascii: ":") else { return nil }
        let ports = run(endingAt: configuration - 1) { digit($0) || $0 == UInt8(ascii: ".") }
        guard ports > 0, ports < configuration - 1, head[ports - 1] == UInt8(ascii: "-") else { return nil }
        let bus = run(endingAt: ports - 1, of: digit)
        guard bus < ports - 1, bus == 0 || head[bus - 1] == UInt8(ascii: "-") else { return nil }
        return (String(decoding: head[bus...], as: UTF8.self), vendor, product)
    }

    /// The USB device of a libcamera camera ID for a UVC camera, when the interface it names
    /// is there and belongs to that model.
    public init?(libcameraID: String, sysfsRoot: String = "/sys") {
        guard let camera = Self.libcameraUSBCamera(libcameraID),
            let resolved = realPath("\(sysfsRoot)/bus/usb/devices/\(camera.interface)")
        else { return nil }
        self.init(containing: resolved)
        guard vendorID == camera.vendorID, productID == camera.productID else { return nil }
    }

    /// Writes the identity into `facts`, over whatever the backend reported: sysfs is the
    /// kernel's own record, while daemons re-format it (Debian 12's PipeWire publishes
    /// vendor 0x1d6b as "0x1d6", and udev's composite ID_SERIAL as the serial).
    public func apply(to facts: inout DeviceFacts) {
        facts.vendorID = vendorID
        facts.productID = productID
        facts.serial = serial
        facts.usbPort = port
        facts.removable = removable
        facts.portConnection = portConnection
        facts.panel = panel
        facts.inLid = inLid
        facts.bus = "usb"
        facts.properties["device.usb.port"] = port
        if let speedMbps { facts.properties["device.speed.mbps"] = String(speedMbps) }
        if let manufacturer {
            facts.details.vendorName = manufacturer
            facts.properties["device.vendor.name"] = manufacturer
        }
        if let product {
            facts.details.productName = product
            facts.properties["device.product.name"] = product
        }
    }
}

public func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// A sysfs attribute without its trailing newline, or nil when absent.
public func readAttribute(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count >= 0 else { return nil }
    var text = String(decoding: buffer[0..<count], as: UTF8.self)
    while text.last == "\n" || text.last == " " { text.removeLast() }
    return text
}
