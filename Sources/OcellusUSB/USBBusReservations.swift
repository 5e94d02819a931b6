import OcellusCore
#if canImport(Glibc)
import Glibc
#endif

/// What the kernel has reserved on a USB bus, read from sysfs: every interface of the bus whose
/// current alternate setting (`bAlternateSetting`) has isochronous endpoints (`ep_XX/type`) —
/// cameras and microphones streaming, in this process or any other. Nothing is opened.
public struct USBBusReservations: USBBusReading {
    let sysfsRoot: String

    public init(sysfsRoot: String = "/sys") { self.sysfsRoot = sysfsRoot }

    public func reservations(onBus bus: String) -> [BusReservation] {
        guard bus.hasPrefix("usb"), let number = Int(bus.dropFirst(3)) else { return [] }
        let devices = sysfsRoot + "/bus/usb/devices"
        // Interfaces are named `<bus>-<ports>:<configuration>.<interface>`.
        return Self.entries(of: devices).filter { $0.hasPrefix("\(number)-") && $0.contains(":") }.sorted().compactMap { name in
            let interface = devices + "/" + name
            guard let setting = readAttribute(interface + "/bAlternateSetting").flatMap({ $0.split(separator: " ").first.flatMap { Int($0) } }), setting != 0,
                  let device = realPath(interface).map(Self.parent), let identity = USBIdentity(containing: device),
                  let speed = identity.speedMbps else { return nil }
            let endpoints = Self.entries(of: interface).filter { $0.hasPrefix("ep_") }.sorted().compactMap { entry -> PeriodicEndpoint? in
                let endpoint = interface + "/" + entry
                guard readAttribute(endpoint + "/type") == "Isoc",
                      let size = readAttribute(endpoint + "/wMaxPacketSize").flatMap({ UInt16($0, radix: 16) }),
                      let period = readAttribute(endpoint + "/bInterval").flatMap({ UInt8($0, radix: 16) }) else { return nil }
                return PeriodicEndpoint(wMaxPacketSize: size, bInterval: period, speedMbps: speed,
                                        isInput: readAttribute(endpoint + "/direction") != "out")
            }
            guard !endpoints.isEmpty else { return nil }
            return BusReservation(device: identity.product ?? identity.port, interface: name, speedMbps: speed,
                                  translator: identity.translator, endpoints: endpoints)
        }
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
}
