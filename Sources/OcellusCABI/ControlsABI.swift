// Camera controls in the C ABI (behaviour §1).
import COcellus
import OcellusCore
import OcellusSystem

#if canImport(Glibc)
import Glibc
#endif

/// A snapshot of controls with the C strings its infos point to.
final class ControlListBox {
    let controls: [CameraControl]
    let names: [CString]
    let menuNames: [[CString]]

    init(controls: [CameraControl]) {
        self.controls = controls
        names = controls.map { CString($0.name) }
        menuNames = controls.map { $0.menu.map { CString($0.name) } }
    }

    static func lookup(_ handle: OpaquePointer?) -> ControlListBox? {
        HandleTable.lookup(handle, as: ControlListBox.self, what: "control list")
    }
}

private func withController(_ device: OpaquePointer?, _ body: (any CameraControlling) throws(OcellusError) -> Void) -> oc_status {
    abiCall(DeviceBox.lookup(device)) { (box: DeviceBox) throws(OcellusError) in try body(try box.device.controller()) }
}

@c @implementation public func oc_device_copy_controls(_ device: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_device_copy_controls: out is NULL") }
    out.pointee = nil
    return withController(device) { (controller: any CameraControlling) throws(OcellusError) in
        out.pointee = HandleTable.register(ControlListBox(controls: try controller.controls()))
    }
}

@c @implementation public func oc_control_list_count(_ list: OpaquePointer?) -> Int {
    ControlListBox.lookup(list)?.controls.count ?? 0
}

@c @implementation public func oc_control_list_get(
    _ list: OpaquePointer?, _ index: Int,
    _ given: UnsafeMutablePointer<oc_control_info>?
) -> oc_status {
    guard let box = ControlListBox.lookup(list) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    let info: UnsafeMutablePointer<oc_control_info>
    do { info = try oc_control_info.checked(given, "info", in: "oc_control_list_get") } catch { return LastError.fail(error) }
    guard index >= 0 && index < box.controls.count else {
        return LastError.fail(.invalidArgument, "oc_control_list_get: index \(index) is out of range (\(box.controls.count) controls)")
    }
    let control = box.controls[index]
    var filled = oc_control_info()
    filled.id = control.id
    filled.name = UnsafePointer(box.names[index].pointer)
    filled.type = oc_control_type(rawValue: UInt32(control.kind.rawValue))
    (filled.minimum, filled.maximum, filled.step) = (control.minimum, control.maximum, control.step)
    (filled.default_value, filled.flags) = (control.defaultValue, control.flags.rawValue)
    (filled.has_value, filled.value) = (control.value != nil, control.value ?? 0)
    filled.menu_count = UInt32(control.menu.count)
    filled.has_payload = control.hasPayload
    (filled.element_size, filled.element_count) = (UInt32(control.elementSize), UInt32(control.elementCount))
    filled.dimension_count = UInt32(control.dimensions.count)
    withUnsafeMutableBytes(of: &filled.dimensions) { raw in
        let slots = raw.bindMemory(to: UInt32.self)
        for index in 0..<min(slots.count, control.dimensions.count) { slots[index] = control.dimensions[index] }
    }
    oc_control_info.fill(info, with: filled)
    return oc_status(OC_OK)
}

/// The control at `index` of a list, or nil with the last error set.
private func listedControl(_ list: OpaquePointer?, _ index: Int, _ function: String) -> CameraControl? {
    guard let box = ControlListBox.lookup(list) else { return nil }
    guard index >= 0 && index < box.controls.count else {
        LastError.set("\(function): index \(index) is out of range (\(box.controls.count) controls)")
        return nil
    }
    return box.controls[index]
}

@c @implementation public func oc_control_list_get_payload(
    _ list: OpaquePointer?, _ index: Int,
    _ buffer: UnsafeMutableRawPointer?, _ size: Int
) -> Int {
    guard let control = listedControl(list, index, "oc_control_list_get_payload") else { return 0 }
    guard let payload = control.payload else { return 0 }
    if let buffer, size > 0 { payload.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: min(size, $0.count)) } }
    return payload.count
}

@c @implementation public func oc_control_list_get_string(
    _ list: OpaquePointer?, _ index: Int,
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int
) -> Int {
    copyText(listedControl(list, index, "oc_control_list_get_string")?.stringValue, into: buffer, size: size)
}

@c @implementation public func oc_control_list_get_menu_item(
    _ list: OpaquePointer?, _ index: Int, _ item: Int,
    _ value: UnsafeMutablePointer<Int64>?,
    _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> oc_status {
    guard let box = ControlListBox.lookup(list) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    guard index >= 0 && index < box.controls.count, item >= 0 && item < box.controls[index].menu.count else {
        return LastError.fail(.invalidArgument, "oc_control_list_get_menu_item: control \(index), item \(item) does not exist")
    }
    value?.pointee = box.controls[index].menu[item].value
    name?.pointee = UnsafePointer(box.menuNames[index][item].pointer)
    return oc_status(OC_OK)
}

@c @implementation public func oc_control_list_free(_ list: OpaquePointer?) {
    guard list != nil, ControlListBox.lookup(list) != nil else { return }
    HandleTable.unregister(list!)
}

@c @implementation public func oc_device_set_control(_ device: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: Int64) -> oc_status {
    guard let name else { return LastError.fail(.invalidArgument, "oc_device_set_control: name is NULL") }
    let controlName = String(cString: name)
    return withController(device) { (controller: any CameraControlling) throws(OcellusError) in
        try controller.setControl(named: controlName, to: value)
    }
}

@c @implementation public func oc_device_set_control_string(
    _ device: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> oc_status {
    guard let name else { return LastError.fail(.invalidArgument, "oc_device_set_control_string: name is NULL") }
    guard let value else { return LastError.fail(.invalidArgument, "oc_device_set_control_string: value is NULL") }
    let controlName = String(cString: name)
    let bytes = Array(UnsafeRawBufferPointer(start: value, count: strlen(value)))
    guard String(validating: bytes, as: UTF8.self) != nil else {
        return LastError.fail(.invalidArgument, "oc_device_set_control_string: value is not UTF-8")
    }
    return withController(device) { (controller: any CameraControlling) throws(OcellusError) in
        guard let control = try controller.controls().first(where: { $0.name == controlName }) else {
            throw OcellusError(.notFound, "\(DeviceBox.lookup(device)?.device.uniqueID ?? "the device") has no control named \(controlName)")
        }
        guard control.kind == .string else {
            throw OcellusError(.invalidArgument, "control \(controlName) is not a string (it is \(control.kind.name))")
        }
        try controller.setControl(named: controlName, payload: bytes)
    }
}

@c @implementation public func oc_device_set_control_payload(
    _ device: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ data: UnsafeRawPointer?, _ size: Int
) -> oc_status {
    guard let name else { return LastError.fail(.invalidArgument, "oc_device_set_control_payload: name is NULL") }
    guard let data, size > 0 else { return LastError.fail(.invalidArgument, "oc_device_set_control_payload: no data") }
    let controlName = String(cString: name)
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    return withController(device) { (controller: any CameraControlling) throws(OcellusError) in
        try controller.setControl(named: controlName, payload: bytes)
    }
}

@c @implementation public func oc_device_lock_for_configuration(_ device: OpaquePointer?) -> oc_status {
    withController(device) { (controller: any CameraControlling) throws(OcellusError) in try controller.lockForConfiguration() }
}

@c @implementation public func oc_device_unlock_for_configuration(_ device: OpaquePointer?) -> oc_status {
    abiCall(DeviceBox.lookup(device)) { (box: DeviceBox) throws(OcellusError) in
        let controller: any CameraControlling
        do throws(OcellusError) { controller = try box.device.controller() } catch {
            // Nothing to lock means nothing locked: the header's answer for "not locked".
            guard error.code == .notFound else { throw error }
            throw OcellusError(.wrongState, "not locked for configuration (\(error.message))")
        }
        try controller.unlockForConfiguration()
    }
}

private let controlTypeNames = NameTable(
    "control type",
    Dictionary(
        uniqueKeysWithValues: [CameraControl.Kind.integer, .boolean, .menu, .button, .integer64, .string, .bitmask, .integerMenu, .u8, .u16, .u32, .area, .rect]
            .map { ($0.rawValue, $0.name) }))

@c @implementation public func oc_control_type_name(_ type: oc_control_type) -> UnsafePointer<CChar>? {
    controlTypeNames.name(Int32(bitPattern: type.rawValue), function: "oc_control_type_name")
}

private let controlFlagNames: [UInt32: CString] = Dictionary(
    uniqueKeysWithValues:
        CameraControl.Flags.names.map { ($0.flag.rawValue, CString($0.name)) })

@c @implementation public func oc_control_flag_name(_ flag: UInt32) -> UnsafePointer<CChar>? {
    controlFlagNames[flag].map { UnsafePointer($0.pointer) }
}
