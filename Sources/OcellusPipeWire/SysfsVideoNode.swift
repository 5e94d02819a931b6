import OcellusCore
#if canImport(Glibc)
import Glibc
#endif

/// The sysfs view of a `/dev/videoN` node, enough to tell built-in from
/// external when PipeWire gives only the device path.
struct SysfsVideoNode {
    struct USBDevice {
        var removable: DeviceFacts.Removable
        var port: String
        var vendorID: UInt16?
        var productID: UInt16?
        var serial: String?
    }

    let sysfsPath: String

    init?(devicePath: String, sysfsRoot: String = "/sys") {
        guard let node = devicePath.split(separator: "/").last, node.hasPrefix("video") else { return nil }
        guard let resolved = realPath("\(sysfsRoot)/class/video4linux/\(node)/device") else { return nil }
        sysfsPath = resolved
    }

    /// Walks up from the interface to the USB device (the directory with `idVendor`).
    var usbDevice: USBDevice? {
        var path = sysfsPath
        while path.count > 1 {
            if let vendor = readAttribute(path + "/idVendor") {
                let port = String(path.split(separator: "/").last ?? "")
                let removable: DeviceFacts.Removable = switch readAttribute(path + "/removable") {
                case "fixed": .fixed
                case "removable": .removable
                default: .unknown
                }
                return USBDevice(removable: removable, port: port, vendorID: UInt16(vendor, radix: 16),
                                 productID: readAttribute(path + "/idProduct").flatMap { UInt16($0, radix: 16) },
                                 serial: readAttribute(path + "/serial"))
            }
            guard let slash = path.lastIndex(of: "/") else { break }
            path = String(path[..<slash])
        }
        return nil
    }
}

func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// A sysfs attribute without its trailing newline, or nil when absent.
func readAttribute(_ path: String) -> String? {
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
