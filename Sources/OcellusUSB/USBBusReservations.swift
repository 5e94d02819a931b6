import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// What the kernel has reserved on a USB bus, read from sysfs: every interface of the bus whose
/// current alternate setting (`bAlternateSetting`) has isochronous endpoints — cameras and
/// microphones streaming, in this process or any other. The endpoints come from the device's
/// raw descriptors (`descriptors`): sysfs's own `ep_XX/wMaxPacketSize` leaves out the extra
/// transactions a high-bandwidth endpoint makes each microframe. Nothing is opened.
public struct USBBusReservations: USBBusReading {
    let sysfsRoot: String

    public init(sysfsRoot: String = "/sys") { self.sysfsRoot = sysfsRoot }

    public func reservations(onBus bus: String) -> [BusReservation] {
        guard bus.hasPrefix("usb"), let number = Int(bus.dropFirst(3)) else { return [] }
        let devices = sysfsRoot + "/bus/usb/devices"
        // Interfaces are named `<bus>-<ports>:<configuration>.<interface>`.
        return Self.entries(of: devices).filter { $0.hasPrefix("\(number)-") && $0.contains(":") }.sorted().compactMap { name in
            let interface = devices + "/" + name
            guard let setting = readAttribute(interface + "/bAlternateSetting").flatMap({ $0.split(separator: " ").first.flatMap { Int($0) } }),
                setting != 0, let interfaceNumber = readAttribute(interface + "/bInterfaceNumber").flatMap({ Int($0, radix: 16) }),
                let device = realPath(interface).map(Self.parent), let identity = USBIdentity(containing: device),
                let speed = identity.speedMbps,
                let descriptors = Self.contents(of: device + "/descriptors")
            else { return nil }
            let configuration = readAttribute(device + "/bConfigurationValue").flatMap { Int($0) } ?? 1
            let endpoints = Self.isochronousEndpoints(in: descriptors, configuration: configuration, interface: interfaceNumber, alternate: setting)
                .map { PeriodicEndpoint(wMaxPacketSize: $0.wMaxPacketSize, bInterval: $0.bInterval, speedMbps: speed, isInput: $0.address & 0x80 != 0) }
            guard !endpoints.isEmpty else { return nil }
            return BusReservation(
                device: identity.product ?? identity.port, interface: name, speedMbps: speed,
                translator: identity.translator, endpoints: endpoints)
        }
    }

    /// The isochronous endpoints of one alternate setting of one interface, from a device's raw
    /// descriptors (its device descriptor, then each configuration's descriptors).
    static func isochronousEndpoints(
        in bytes: [UInt8], configuration: Int, interface: Int,
        alternate: Int
    ) -> [(address: UInt8, wMaxPacketSize: UInt16, bInterval: UInt8)] {
        var found: [(address: UInt8, wMaxPacketSize: UInt16, bInterval: UInt8)] = []
        var (inConfiguration, inSetting) = (false, false)
        var offset = 0
        while offset + 2 <= bytes.count {
            let length = Int(bytes[offset])
            guard length >= 2, offset + length <= bytes.count else { break }
            switch bytes[offset + 1] {
            case 2 where length >= 6: // CONFIGURATION: bConfigurationValue at 5
                inConfiguration = Int(bytes[offset + 5]) == configuration
                inSetting = false
            case 4 where length >= 4: // INTERFACE: bInterfaceNumber at 2, bAlternateSetting at 3
                inSetting = inConfiguration && Int(bytes[offset + 2]) == interface && Int(bytes[offset + 3]) == alternate
            case 5 where length >= 7 && inSetting && bytes[offset + 3] & 3 == 1: // ENDPOINT, isochronous
                found.append((bytes[offset + 2], UInt16(bytes[offset + 4]) | UInt16(bytes[offset + 5]) << 8, bytes[offset + 6]))
            default:
                break
            }
            offset += length
        }
        return found
    }

    private static func parent(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? path
    }

    private static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }

    private static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes += chunk.prefix(count)
            if count < chunk.count { break }
        }
        return bytes
    }
}
