import Foundation
import OcellusCore
import OcellusUSB
import Testing

/// What the kernel holds on a bus, read from a sysfs tree laid out as the kernel lays it out
/// (devices below their hubs, `bus/usb/devices` links to them).
@Suite struct USBBusReservationsTests {
    @Test func streamingInterfacesOfTheBusWithTheirTranslators() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sysfs-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        /// A device's raw descriptors: the device descriptor, then configuration 1 with one
        /// interface per (number, alternate setting, isochronous IN endpoint's wMaxPacketSize, bInterval).
        func descriptors(_ settings: [(Int, Int, UInt16?, UInt8)]) -> Data {
            var bytes: [UInt8] = [18, 1] + [UInt8](repeating: 0, count: 16)
            bytes += [9, 2, 0, 0, 2, 1, 0, 0x80, 250]
            for (number, alternate, size, interval) in settings {
                bytes += [9, 4, UInt8(number), UInt8(alternate), size == nil ? 0 : 1, 14, 2, 0, 0]
                if let size { bytes += [7, 5, 0x81, 5, UInt8(size & 0xFF), UInt8(size >> 8), interval] }
            }
            return Data(bytes)
        }
        func write(_ path: String, _ attributes: [String: String]) throws {
            try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
            for (name, value) in attributes {
                try FileManager.default.createDirectory(
                    atPath: root + "/" + path + "/" + (name as NSString).deletingLastPathComponent,
                    withIntermediateDirectories: true)
                try (value + "\n").write(toFile: root + "/" + path + "/" + name, atomically: true, encoding: .utf8)
            }
            let name = (path as NSString).lastPathComponent
            try FileManager.default.createDirectory(atPath: root + "/bus/usb/devices", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: root + "/bus/usb/devices/" + name, withDestinationPath: root + "/" + path)
        }
        let bus1 = "devices/pci0000:00/0000:00:14.0/usb1"
        try write(bus1, ["idVendor": "1d6b", "speed": "480", "busnum": "1"])
        // A webcam streaming at 3 × 1024 bytes a microframe, and its control interface (no endpoints of note).
        try write(bus1 + "/1-1", ["idVendor": "046d", "product": "Webcam A", "speed": "480", "busnum": "1"])
        try descriptors([(1, 0, nil, 0), (1, 5, 0x0400, 1), (1, 6, 0x1400, 1)]).write(to: URL(fileURLWithPath: root + "/" + bus1 + "/1-1/descriptors"))
        try write(bus1 + "/1-1/1-1:1.0", ["bAlternateSetting": " 0", "bInterfaceNumber": "00"])
        // sysfs's own endpoint attribute says 0400: the two extra transactions are only in the descriptors.
        try write(bus1 + "/1-1/1-1:1.1", ["bAlternateSetting": " 6", "bInterfaceNumber": "01", "ep_81/wMaxPacketSize": "0400"])
        // A high-speed hub (one translator) with a full-speed webcam streaming 512 bytes a frame…
        try write(bus1 + "/1-2", ["idVendor": "05e3", "speed": "480", "busnum": "1", "bDeviceProtocol": "01"])
        try write(bus1 + "/1-2/1-2.3", ["idVendor": "0c45", "product": "Old Webcam", "speed": "12", "busnum": "1"])
        try descriptors([(1, 1, 0x0100, 1), (1, 2, 0x0200, 1)]).write(to: URL(fileURLWithPath: root + "/" + bus1 + "/1-2/1-2.3/descriptors"))
        try write(bus1 + "/1-2/1-2.3/1-2.3:1.1", ["bAlternateSetting": " 2", "bInterfaceNumber": "01"])
        // …and a camera not streaming (alternate setting 0).
        try write(bus1 + "/1-2/1-2.4", ["idVendor": "0c45", "product": "Idle Webcam", "speed": "480", "busnum": "1"])
        try write(bus1 + "/1-2/1-2.4/1-2.4:1.1", ["bAlternateSetting": " 0", "bInterfaceNumber": "01"])
        // Another bus's webcam.
        try write("devices/pci0000:00/0000:00:14.0/usb2/2-1", ["idVendor": "046d", "product": "Elsewhere", "speed": "480", "busnum": "2"])
        try descriptors([(1, 1, 0x1400, 1)]).write(to: URL(fileURLWithPath: root + "/devices/pci0000:00/0000:00:14.0/usb2/2-1/descriptors"))
        try write("devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.1", ["bAlternateSetting": " 1", "bInterfaceNumber": "01"])

        let held = USBBusReservations(sysfsRoot: root).reservations(onBus: "usb1")
        #expect(
            held == [
                BusReservation(device: "Webcam A", interface: "1-1:1.1", speedMbps: 480, endpoints: [PeriodicEndpoint(bytesPerService: 3072)]),
                BusReservation(
                    device: "Old Webcam", interface: "1-2.3:1.1", speedMbps: 12, translator: "1-2",
                    endpoints: [PeriodicEndpoint(bytesPerService: 512)])
            ])
        // A hub with a translator per port names the port.
        try "02\n".write(toFile: root + "/" + bus1 + "/1-2/bDeviceProtocol", atomically: true, encoding: .utf8)
        #expect(USBBusReservations(sysfsRoot: root).reservations(onBus: "usb1").last?.translator == "1-2:3")
        #expect(USBBusReservations(sysfsRoot: root).reservations(onBus: "usb9").isEmpty)
    }
}

/// A video function's streaming interfaces and their isochronous settings, from descriptor bytes.
@Suite struct USBDeviceLayoutStreamingTests {
    @Test func theHeaderNamesTheStreamingInterfaceAndItsSettingsAreRead() {
        // UVC 1.00 VC_HEADER: bLength 13, CS_INTERFACE, HEADER, bcdUVC, wTotalLength, dwClockFrequency,
        // bInCollection 1, baInterfaceNr 1 (the Surface Pro 3 rear camera's layout).
        let header: [UInt8] = [13, 0x24, 0x01, 0x00, 0x01, 0x4D, 0x00, 0x80, 0x8D, 0x5B, 0x00, 1, 1]
        let layout = USBDeviceLayout.parse(interfaces: [
            .init(number: 0, interfaceClass: 14, subclass: 1, extra: header, endpoints: [(0x83, 3, 0x0040, 6)]),
            .init(number: 1, interfaceClass: 14, subclass: 2),
            .init(number: 1, interfaceClass: 14, subclass: 2, endpoints: [(0x81, 5, 0x1400, 1)]),
            .init(number: 1, interfaceClass: 14, subclass: 2, endpoints: [(0x81, 5, 0x0400, 1)]),
            .init(number: 1, interfaceClass: 14, subclass: 2, endpoints: [(0x01, 5, 0x0100, 1)]), // OUT: not a camera's
            .init(number: 3, interfaceClass: 1, subclass: 2, endpoints: [(0x84, 5, 0x00C0, 4)]) // audio streaming
        ])
        #expect(layout.videoStreamingInterfaces == [0: [1]])
        #expect(layout.isochronousSettings[1]?.map(\.wMaxPacketSize) == [0x1400, 0x0400] && layout.isochronousSettings.count == 1)
    }
}
