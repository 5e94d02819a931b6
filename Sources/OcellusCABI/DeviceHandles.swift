import COcellus
import OcellusCore

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
    let depthFrameRates: [UnsafeMutablePointer<oc_fraction>]
    private(set) var handle: OpaquePointer!
    /// All references: the caller's and the library's own (device lists, callback borrows).
    private var references = 1
    /// The references the caller owns (from retain and the copy functions): only these can be released.
    private var callerReferences = 0

    private static let boxes = Locked<[ObjectIdentifier: DeviceBox]>([:])

    private init(device: Device) {
        self.device = device
        uniqueID = CString(device.uniqueID)
        serial = device.serialNumber.map(CString.init)
        properties = device.properties.mapValues(CString.init)
        frameRates = device.formats.map(Self.rateTable)
        depthFrameRates = device.depthFormats.map(Self.rateTable)
    }

    private static func rateTable(_ format: VideoFormat) -> UnsafeMutablePointer<oc_fraction> {
        let rates = UnsafeMutablePointer<oc_fraction>.allocate(capacity: max(1, format.frameRates.count))
        for (index, rate) in format.frameRates.enumerated() {
            (rates + index).initialize(to: oc_fraction(numerator: rate.numerator, denominator: rate.denominator))
        }
        return rates
    }

    deinit { for rates in frameRates + depthFrameRates { rates.deallocate() } }

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

    /// A new reference to `device` (reusing its live box): the caller's own (`byCaller`),
    /// or the library's for a list or a borrow, released with `releaseInternal`.
    static func retainedHandle(for device: Device, byCaller: Bool = true) -> OpaquePointer {
        boxes.withLock { boxes in
            let box: DeviceBox
            if let live = boxes[ObjectIdentifier(device)] {
                box = live
                box.references += 1
            } else {
                box = DeviceBox(device: device)
                box.handle = HandleTable.register(box)
                boxes[ObjectIdentifier(device)] = box
            }
            if byCaller { box.callerReferences += 1 }
            return box.handle
        }
    }

    /// `oc_device_retain`: one more reference for the caller.
    func retain() {
        Self.boxes.withLock { _ in (references, callerReferences) = (references + 1, callerReferences + 1) }
    }

    /// `oc_device_release`: gives back one of the caller's references; false (nothing released)
    /// when the caller holds none, as for a device borrowed from a list or a callback.
    func release() -> Bool {
        Self.boxes.withLock { boxes in
            guard callerReferences > 0 else { return false }
            callerReferences -= 1
            drop(from: &boxes)
            return true
        }
    }

    /// Gives back a reference the library took for a list or a borrow.
    func releaseInternal() {
        Self.boxes.withLock { drop(from: &$0) }
    }

    private func drop(from boxes: inout [ObjectIdentifier: DeviceBox]) {
        references -= 1
        if references == 0 {
            HandleTable.unregister(handle)
            boxes.removeValue(forKey: ObjectIdentifier(device))
        }
    }

    static func lookup(_ handle: OpaquePointer?) -> DeviceBox? {
        HandleTable.lookup(handle, as: DeviceBox.self, what: "device")
    }
}

/// An immutable snapshot of devices; holds one reference on each.
final class DeviceListBox {
    let handles: [OpaquePointer]
    init(devices: [Device]) { handles = devices.map { DeviceBox.retainedHandle(for: $0, byCaller: false) } }

    func releaseAll() {
        for handle in handles { DeviceBox.lookup(handle)?.releaseInternal() }
    }
}
