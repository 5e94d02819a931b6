// The header's "Camera selection" section (behaviour §2): finding cameras, the user and system
// preferred cameras, and where selection state lives.
import COcellus
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// Hands `device` to a C callback as a handle valid for the call.
func withBorrowedHandle(_ device: Device?, _ body: (OpaquePointer?) -> Void) {
    guard let device else { return body(nil) }
    let handle = DeviceBox.retainedHandle(for: device, byCaller: false)
    body(handle)
    DeviceBox.lookup(handle)?.releaseInternal()
}

// MARK: Discovery sessions

// MARK: Selection

func copyContextDevice(
    _ ctx: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?, function: String,
    _ pick: (DeviceHub) -> Device?
) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "\(function): out is NULL") }
    out.pointee = nil
    guard let box = ContextBox.lookup(ctx) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    out.pointee = pick(box.hub).map { DeviceBox.retainedHandle(for: $0) }
    return oc_status(OC_OK)
}

/// `oc_context_copy_device_*`: a device found by a string, or NOT_FOUND (never OK with NULL).
private func copyDevice(
    _ ctx: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
    function: String, _ find: (DeviceHub, String) throws(OcellusError) -> Device
) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "\(function): out is NULL") }
    out.pointee = nil
    guard let box = ContextBox.lookup(ctx) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    guard let text else { return LastError.fail(.invalidArgument, "\(function): the name is NULL") }
    do {
        let device = try find(box.hub, stringArgument(text, function))
        out.pointee = DeviceBox.retainedHandle(for: device)
        return oc_status(OC_OK)
    } catch {
        return LastError.fail(error)
    }
}

@c @implementation public func oc_context_copy_device_by_unique_id(
    _ ctx: OpaquePointer?, _ uniqueID: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    copyDevice(ctx, uniqueID, out, function: "oc_context_copy_device_by_unique_id") { (hub, id) throws(OcellusError) in
        guard let device = hub.device(uniqueID: id) else { throw OcellusError(.notFound, "no connected device has the unique ID \(id)") }
        return device
    }
}

@c @implementation public func oc_context_copy_device_matching(
    _ ctx: OpaquePointer?, _ spec: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    copyDevice(ctx, spec, out, function: "oc_context_copy_device_matching") { (hub, spec) throws(OcellusError) in
        try hub.device(matching: spec)
    }
}

@c @implementation public func oc_context_copy_user_preferred_camera(
    _ ctx: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    copyContextDevice(ctx, out, function: "oc_context_copy_user_preferred_camera") { $0.userPreferredCamera }
}

@c @implementation public func oc_context_copy_system_preferred_camera(
    _ ctx: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    copyContextDevice(ctx, out, function: "oc_context_copy_system_preferred_camera") { $0.systemPreferredCamera }
}

@c @implementation public func oc_context_set_user_preferred_camera(_ ctx: OpaquePointer?, _ camera: OpaquePointer?) -> oc_status {
    guard let box = ContextBox.lookup(ctx), let deviceBox = DeviceBox.lookup(camera) else {
        return oc_status(OC_ERROR_INVALID_HANDLE)
    }
    do {
        try box.hub.setUserPreferredCamera(deviceBox.device)
        return oc_status(OC_OK)
    } catch {
        return LastError.fail(error)
    }
}

/// snprintf-style copy of `text` into a caller's buffer; returns the full length.
/// No text (no problem, or a failed lookup) is written as the empty string.
func copyText(_ text: String?, into buffer: UnsafeMutablePointer<CChar>?, size: Int) -> Int {
    let bytes = Array((text ?? "").utf8)
    if let buffer, size > 0 {
        let count = min(bytes.count, size - 1)
        for index in 0..<count { buffer[index] = CChar(bitPattern: bytes[index]) }
        buffer[count] = 0
    }
    return bytes.count
}

@c @implementation public func oc_context_copy_state_problem(
    _ ctx: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?,
    _ size: Int
) -> Int {
    let problems = ContextBox.lookup(ctx).map { box in
        [box.hub.selectionStateProblem, MountingCorrections(directory: box.hub.stateDirectory).problem].compactMap { $0 }
    }
    return copyText(problems.flatMap { $0.isEmpty ? nil : $0.joined(separator: "; ") }, into: buffer, size: size)
}

@c @implementation public func oc_context_selection_is_unsaved(_ ctx: OpaquePointer?) -> Bool {
    ContextBox.lookup(ctx)?.hub.selectionIsUnsaved ?? false
}

@c @implementation public func oc_context_add_preferred_camera_callback(
    _ ctx: OpaquePointer?,
    _ callback: oc_preferred_camera_callback?,
    _ userData: UnsafeMutableRawPointer?,
    _ outID: UnsafeMutablePointer<oc_callback_id>?
) -> oc_status {
    registerCallback(ContextBox.lookup(ctx), callback, "oc_context_add_preferred_camera_callback", userData, outID) { box, callback, userData in
        let contextHandle = box.handle
        return box.hub.events.addObserver { event in
            let kind: oc_preferred_camera_kind
            let camera: Device?
            switch event {
            case .userPreferredChanged(let device): (kind, camera) = (OC_PREFERRED_CAMERA_USER, device)
            case .systemPreferredChanged(let device): (kind, camera) = (OC_PREFERRED_CAMERA_SYSTEM, device)
            default: return
            }
            withBorrowedHandle(camera) { callback(contextHandle, kind, $0, userData()) }
        }
    }
}
