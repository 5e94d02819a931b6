// The header's "Devices" section: device lists and handles, their facts and formats, pixel
// format names (DeviceHandles.swift holds the device handles themselves).
import COcellus
import OcellusCore
import OcellusSystem

#if canImport(Glibc)
import Glibc
#endif

// MARK: Context

// MARK: Device lists

@c @implementation public func oc_context_copy_devices(
    _ ctx: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_context_copy_devices: out is NULL") }
    out.pointee = nil
    guard let box = ContextBox.lookup(ctx) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    out.pointee = HandleTable.register(DeviceListBox(devices: box.hub.devices()))
    return oc_status(OC_OK)
}

private func lookupList(_ list: OpaquePointer?) -> DeviceListBox? {
    HandleTable.lookup(list, as: DeviceListBox.self, what: "device list")
}

@c @implementation public func oc_device_list_count(_ list: OpaquePointer?) -> Int {
    lookupList(list)?.handles.count ?? 0
}

@c @implementation public func oc_device_list_get(_ list: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    guard let box = lookupList(list) else { return nil }
    guard index >= 0 && index < box.handles.count else {
        LastError.set("oc_device_list_get: index \(index) is out of range (the list has \(box.handles.count) devices)")
        return nil
    }
    return box.handles[index]
}

@c @implementation public func oc_device_list_free(_ list: OpaquePointer?) {
    guard list != nil, let box = lookupList(list) else { return }
    HandleTable.unregister(list!)
    box.releaseAll()
}

// MARK: Devices

@c @implementation public func oc_device_retain(_ device: OpaquePointer?) -> OpaquePointer? {
    guard let box = DeviceBox.lookup(device) else { return nil }
    box.retain()
    return box.handle
}

@c @implementation public func oc_device_release(_ device: OpaquePointer?) {
    guard device != nil, let box = DeviceBox.lookup(device) else { return } // NULL: nothing, like free()
    if !box.release() {
        LastError.set("oc_device_release: the caller holds no reference to this device (it is borrowed from a list or a callback; retain it first)")
    }
}

@c @implementation public func oc_device_unique_id(_ device: OpaquePointer?) -> UnsafePointer<CChar>? {
    DeviceBox.lookup(device).map { UnsafePointer($0.uniqueID.pointer) }
}

@c @implementation public func oc_device_name(_ device: OpaquePointer?) -> UnsafePointer<CChar>? {
    DeviceBox.lookup(device).map(\.name)
}

@c @implementation public func oc_device_get_type(_ device: OpaquePointer?) -> oc_device_type {
    oc_device_type(rawValue: UInt32(DeviceBox.lookup(device)?.device.type.rawValue ?? DeviceType.virtualCamera.rawValue))
}

@c @implementation public func oc_device_get_position(_ device: OpaquePointer?) -> oc_device_position {
    oc_device_position(rawValue: UInt32(DeviceBox.lookup(device)?.device.position.rawValue ?? 0))
}

@c @implementation public func oc_device_get_backend(_ device: OpaquePointer?) -> oc_backend {
    oc_backend(rawValue: UInt32(DeviceBox.lookup(device)?.device.backend.rawValue ?? 0))
}

/// Static C strings for an enum's names, by raw value (the names JSON and the CLI use);
/// NULL with the last error set for a value not in the enum.
final class NameTable {
    private let names: [Int32: CString]
    private let what: String
    init(_ what: String, _ names: [Int32: String]) {
        self.what = what
        self.names = names.mapValues(CString.init)
    }
    func name(_ value: Int32, function: String) -> UnsafePointer<CChar>? {
        guard let name = names[value] else {
            LastError.set("\(function): \(value) is not a known \(what)")
            return nil
        }
        return UnsafePointer(name.pointer)
    }
}

private let deviceTypeNames = NameTable("device type", Dictionary(uniqueKeysWithValues: DeviceType.allCases.map { ($0.rawValue, $0.name) }))
private let positionNames = NameTable(
    "device position", Dictionary(uniqueKeysWithValues: [DevicePosition.unspecified, .front, .back].map { ($0.rawValue, $0.name) }))
private let backendNames = NameTable("backend", Dictionary(uniqueKeysWithValues: [BackendKind.pipewire, .v4l2].map { ($0.rawValue, $0.name) }))

@c @implementation public func oc_device_type_name(_ type: oc_device_type) -> UnsafePointer<CChar>? {
    deviceTypeNames.name(Int32(bitPattern: type.rawValue), function: "oc_device_type_name")
}

@c @implementation public func oc_device_position_name(_ position: oc_device_position) -> UnsafePointer<CChar>? {
    positionNames.name(Int32(bitPattern: position.rawValue), function: "oc_device_position_name")
}

@c @implementation public func oc_backend_name(_ backend: oc_backend) -> UnsafePointer<CChar>? {
    backendNames.name(Int32(bitPattern: backend.rawValue), function: "oc_backend_name")
}

@c @implementation public func oc_device_is_connected(_ device: OpaquePointer?) -> Bool {
    DeviceBox.lookup(device)?.device.isConnected ?? false
}

@c @implementation public func oc_device_supports_multitasking(_ device: OpaquePointer?) -> Bool {
    DeviceBox.lookup(device)?.device.supportsMultitasking ?? false
}

@c @implementation public func oc_device_vendor_id(_ device: OpaquePointer?) -> UInt16 {
    DeviceBox.lookup(device)?.device.vendorID ?? 0
}

@c @implementation public func oc_device_product_id(_ device: OpaquePointer?) -> UInt16 {
    DeviceBox.lookup(device)?.device.productID ?? 0
}

@c @implementation public func oc_device_serial_number(_ device: OpaquePointer?) -> UnsafePointer<CChar>? {
    DeviceBox.lookup(device)?.serial.map { UnsafePointer($0.pointer) }
}

@c @implementation public func oc_device_get_property(
    _ device: OpaquePointer?,
    _ key: UnsafePointer<CChar>?
) -> UnsafePointer<CChar>? {
    guard let box = DeviceBox.lookup(device) else { return nil }
    guard let key else {
        LastError.set("oc_device_get_property: key is NULL")
        return nil
    }
    return box.properties[String(cString: key)].map { UnsafePointer($0.pointer) }
}

@c @implementation public func oc_device_format_count(_ device: OpaquePointer?) -> Int {
    DeviceBox.lookup(device)?.device.formats.count ?? 0
}

@c @implementation public func oc_device_get_format(
    _ device: OpaquePointer?, _ index: Int,
    _ info: UnsafeMutablePointer<oc_format_info>?
) -> oc_status {
    guard let box = DeviceBox.lookup(device) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return describeFormat(index, of: box.device.formats, rates: box.frameRates, into: info, function: "oc_device_get_format")
}

/// Fills `info` with `formats[index]` (oc_device_get_format and oc_device_get_depth_format).
func describeFormat(
    _ index: Int, of formats: [VideoFormat], rates: [UnsafeMutablePointer<oc_fraction>],
    into info: UnsafeMutablePointer<oc_format_info>?, function: String,
    what: String = "formats"
) -> oc_status {
    let checked: UnsafeMutablePointer<oc_format_info>
    do { checked = try oc_format_info.checked(info, "info", in: function) } catch { return LastError.fail(error) }
    guard index >= 0 && index < formats.count else {
        return LastError.fail(
            .invalidArgument,
            "\(function): index \(index) is out of range (the device has \(formats.count) \(what))")
    }
    let format = formats[index], range = format.sizeRange
    var filled = oc_format_info()
    (filled.pixel_format, filled.width, filled.height) = (format.pixelFormat.rawValue, format.width, format.height)
    (filled.frame_rate_count, filled.frame_rates) = (UInt32(format.frameRates.count), UnsafePointer(rates[index]))
    filled.frame_rates_are_range = format.frameRatesAreRange
    filled.sizes_are_range = range != nil
    (filled.min_width, filled.min_height) = (range?.minWidth ?? format.width, range?.minHeight ?? format.height)
    (filled.step_width, filled.step_height) = (range?.stepWidth ?? 0, range?.stepHeight ?? 0)
    oc_format_info.fill(checked, with: filled)
    return oc_status(OC_OK)
}

@c @implementation public func oc_fourcc_string(_ fourcc: UInt32, _ buffer: UnsafeMutablePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    guard let buffer else {
        LastError.set("oc_fourcc_string: buffer is NULL (it needs 5 bytes)")
        return nil
    }
    let text = Array(FourCC(rawValue: fourcc).description.utf8.prefix(4))
    for (index, byte) in text.enumerated() { buffer[index] = CChar(bitPattern: byte) }
    buffer[text.count] = 0
    return buffer
}

@c @implementation public func oc_pixel_format_from_name(_ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt32>?) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_pixel_format_from_name: out is NULL") }
    out.pointee = 0
    guard let name else { return LastError.fail(.invalidArgument, "oc_pixel_format_from_name: name is NULL") }
    let text = String(decoding: UnsafeRawBufferPointer(start: name, count: strlen(name)), as: UTF8.self)
    guard let code = PixelFormatNames.code(text) else {
        return LastError.fail(.invalidArgument, "unknown pixel format \(text); known: \(PixelFormatNames.everyday.joined(separator: ", "))")
    }
    out.pointee = code.rawValue
    return oc_status(OC_OK)
}

@c @implementation public func oc_pixel_format_name(_ fourcc: UInt32, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int {
    copyText(FourCC(rawValue: fourcc).name, into: buffer, size: size)
}

// MARK: Hotplug

@c @implementation public func oc_context_copy_associated_microphone(
    _ ctx: OpaquePointer?, _ camera: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_context_copy_associated_microphone: out is NULL") }
    out.pointee = nil
    guard let box = ContextBox.lookup(ctx), let cameraBox = DeviceBox.lookup(camera) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    out.pointee = box.hub.associatedMicrophone(of: cameraBox.device).map { DeviceBox.retainedHandle(for: $0) }
    return oc_status(OC_OK)
}

@c @implementation public func oc_context_copy_backend_problem(
    _ ctx: OpaquePointer?, _ backend: oc_backend,
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int
) -> Int {
    guard let box = ContextBox.lookup(ctx) else { return copyText(nil, into: buffer, size: size) }
    guard let kind = BackendKind(rawValue: Int32(bitPattern: backend.rawValue)) else {
        LastError.set("oc_context_copy_backend_problem: unknown backend \(Int32(bitPattern: backend.rawValue))")
        return copyText(nil, into: buffer, size: size)
    }
    return copyText(box.hub.backendProblem(kind)?.message, into: buffer, size: size)
}
