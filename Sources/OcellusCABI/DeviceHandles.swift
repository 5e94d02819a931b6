import COcellus
import OcellusCore
import Synchronization

/// The C view of one `Device`: reference counted, with its strings and format
/// tables kept alive for as long as any C reference exists. One box per device
/// at a time, so the same device is the same `oc_device *` while referenced.
final class DeviceBox {
    let device: Device
    let uniqueID: CString
    /// Every name the device has had: the `microphone` device's changes with its route,
    /// and a name handed out stays valid while the device is retained.
    private var names: [String: CString] = [:]
    let serial: CString?
    let properties: [String: CString]
    let frameRates: [UnsafeMutablePointer<oc_fraction>]
    private(set) var handle: OpaquePointer!
    private var references = 1

    private static let boxes = Mutex<[ObjectIdentifier: DeviceBox]>([:])

    private init(device: Device) {
        self.device = device
        uniqueID = CString(device.uniqueID)
        serial = device.serialNumber.map(CString.init)
        properties = device.properties.mapValues(CString.init)
        frameRates = device.formats.map { format in
            let rates = UnsafeMutablePointer<oc_fraction>.allocate(capacity: max(1, format.frameRates.count))
            for (index, rate) in format.frameRates.enumerated() {
                (rates + index).initialize(to: oc_fraction(numerator: rate.numerator, denominator: rate.denominator))
            }
            return rates
        }
    }

    deinit { frameRates.forEach { $0.deallocate() } }

    /// The device's current name, owned by the box.
    var name: UnsafePointer<CChar> {
        let current = device.name
        return Self.boxes.withLock { _ in
            if let known = names[current] { return UnsafePointer(known.pointer) }
            let copy = CString(current)
            names[current] = copy
            return UnsafePointer(copy.pointer)
        }
    }

    /// A new C reference to `device` (reusing its live box); the caller owns it.
    static func retainedHandle(for device: Device) -> OpaquePointer {
        boxes.withLock { boxes in
            if let box = boxes[ObjectIdentifier(device)] {
                box.references += 1
                return box.handle
            }
            let box = DeviceBox(device: device)
            box.handle = HandleTable.register(box)
            boxes[ObjectIdentifier(device)] = box
            return box.handle
        }
    }

    func retain() {
        Self.boxes.withLock { _ in references += 1 }
    }

    func release() {
        Self.boxes.withLock { boxes in
            references -= 1
            if references == 0 {
                HandleTable.unregister(handle)
                boxes.removeValue(forKey: ObjectIdentifier(device))
            }
        }
    }

    static func lookup(_ handle: OpaquePointer?) -> DeviceBox? {
        HandleTable.lookup(handle, as: DeviceBox.self, what: "device")
    }
}

/// An immutable snapshot of devices; holds one reference on each.
final class DeviceListBox {
    let handles: [OpaquePointer]
    init(devices: [Device]) { handles = devices.map(DeviceBox.retainedHandle(for:)) }

    func releaseAll() {
        for handle in handles { DeviceBox.lookup(handle)?.release() }
    }
}
