// Discovery sessions, per-device observation and camera selection (behaviour §1, §2).
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

@c @implementation public func oc_context_add_disconnected_callback(_ ctx: OpaquePointer?, _ device: OpaquePointer?,
                                                                    _ callback: oc_device_disconnected_callback?,
                                                                    _ userData: UnsafeMutableRawPointer?,
                                                                    _ outID: UnsafeMutablePointer<oc_callback_id>?) -> oc_status {
    outID?.pointee = 0
    guard let box = ContextBox.lookup(ctx), let deviceBox = DeviceBox.lookup(device) else {
        return oc_status(OC_ERROR_INVALID_HANDLE)
    }
    guard let callback else { return LastError.fail(.invalidArgument, "oc_context_add_disconnected_callback: callback is NULL") }
    let watched = deviceBox.device
    let contextHandle = box.handle
    let userDataBits = UInt(bitPattern: userData)
    let id = box.hub.events.addObserver { event in
        guard case .device(.removed, let device) = event, device === watched else { return }
        withBorrowedHandle(device) { callback(contextHandle, $0, UnsafeMutableRawPointer(bitPattern: userDataBits)) }
    }
    outID?.pointee = id
    return oc_status(OC_OK)
}

@c @implementation public func oc_context_copy_associated_microphone(_ ctx: OpaquePointer?, _ camera: OpaquePointer?,
                                                                     _ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_context_copy_associated_microphone: out is NULL") }
    out.pointee = nil
    guard let box = ContextBox.lookup(ctx), let cameraBox = DeviceBox.lookup(camera) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    out.pointee = box.hub.associatedMicrophone(of: cameraBox.device).map { DeviceBox.retainedHandle(for: $0) }
    return oc_status(OC_OK)
}

// MARK: Discovery sessions

final class DiscoverySessionBox {
    let session: DiscoverySession
    var handle: OpaquePointer!
    private var callbackID: UInt64?
    private let lock = ConditionLock()

    init(session: DiscoverySession) { self.session = session }

    static func lookup(_ handle: OpaquePointer?) -> DiscoverySessionBox? {
        HandleTable.lookup(handle, as: DiscoverySessionBox.self, what: "discovery session")
    }

    /// Replaces the callback; the old one is removed (waiting for a call in flight) first.
    func setCallback(_ callback: oc_discovery_callback?, userData: UnsafeMutableRawPointer?) {
        let previous: UInt64? = lock.withLock {
            defer { callbackID = nil }
            return callbackID
        }
        if let previous { session.hub.events.removeObserver(previous) }
        guard let callback else { return }
        let sessionHandle = handle
        let userDataBits = UInt(bitPattern: userData)
        let id = session.observe { change, device in
            withBorrowedHandle(device) {
                callback(sessionHandle, oc_hotplug_event(rawValue: UInt32(change.rawValue)), $0,
                         UnsafeMutableRawPointer(bitPattern: userDataBits))
            }
        }
        lock.withLock { callbackID = id }
    }
}

private let deviceTypeBits: [(UInt32, DeviceType)] = [
    (UInt32(OC_DEVICE_TYPES_BUILT_IN_CAMERA), .builtInCamera), (UInt32(OC_DEVICE_TYPES_EXTERNAL_CAMERA), .externalCamera),
    (UInt32(OC_DEVICE_TYPES_VIRTUAL_CAMERA), .virtualCamera), (UInt32(OC_DEVICE_TYPES_DEPTH_CAMERA), .depthCamera),
    (UInt32(OC_DEVICE_TYPES_MICROPHONE), .microphone),
]

@c @implementation public func oc_discovery_session_create(_ ctx: OpaquePointer?, _ deviceTypes: UInt32,
                                                           _ mediaType: oc_media_type, _ position: oc_device_position,
                                                           _ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_discovery_session_create: out is NULL") }
    out.pointee = nil
    guard let box = ContextBox.lookup(ctx) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    let known = deviceTypeBits.reduce(0) { $0 | $1.0 }
    guard deviceTypes & ~known == 0 else {
        return LastError.fail(.invalidArgument, "oc_discovery_session_create: unknown device type bits 0x\(String(deviceTypes & ~known, radix: 16))")
    }
    let media: DeviceFilter.Media?
    switch mediaType {
    case OC_MEDIA_TYPE_ANY: media = nil
    case OC_MEDIA_TYPE_VIDEO: media = .video
    case OC_MEDIA_TYPE_AUDIO: media = .audio
    default: return LastError.fail(.invalidArgument, "oc_discovery_session_create: unknown media type \(mediaType.rawValue)")
    }
    guard let filterPosition = DevicePosition(rawValue: Int32(bitPattern: position.rawValue)) else {
        return LastError.fail(.invalidArgument, "oc_discovery_session_create: unknown position \(position.rawValue)")
    }
    let types = Set(deviceTypeBits.filter { deviceTypes & $0.0 != 0 }.map(\.1))
    let sessionBox = DiscoverySessionBox(session: DiscoverySession(hub: box.hub,
        filter: DeviceFilter(types: types, media: media, position: filterPosition)))
    sessionBox.handle = HandleTable.register(sessionBox)
    out.pointee = sessionBox.handle
    return oc_status(OC_OK)
}

@c @implementation public func oc_discovery_session_copy_devices(_ session: OpaquePointer?,
                                                                 _ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_discovery_session_copy_devices: out is NULL") }
    out.pointee = nil
    guard let box = DiscoverySessionBox.lookup(session) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    out.pointee = HandleTable.register(DeviceListBox(devices: box.session.devices))
    return oc_status(OC_OK)
}

@c @implementation public func oc_discovery_session_set_callback(_ session: OpaquePointer?, _ callback: oc_discovery_callback?,
                                                                 _ userData: UnsafeMutableRawPointer?) -> oc_status {
    guard let box = DiscoverySessionBox.lookup(session) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    box.setCallback(callback, userData: userData)
    return oc_status(OC_OK)
}

@c @implementation public func oc_discovery_session_destroy(_ session: OpaquePointer?) {
    guard let box = DiscoverySessionBox.lookup(session) else { return }
    HandleTable.unregister(box.handle)
    box.setCallback(nil, userData: nil)
}

// MARK: Selection

func copyContextDevice(_ ctx: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?, function: String,
                           _ pick: (DeviceHub) -> Device?) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "\(function): out is NULL") }
    out.pointee = nil
    guard let box = ContextBox.lookup(ctx) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    out.pointee = pick(box.hub).map { DeviceBox.retainedHandle(for: $0) }
    return oc_status(OC_OK)
}

/// `oc_context_copy_device_*`: a device found by a string, or NOT_FOUND (never OK with NULL).
private func copyDevice(_ ctx: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
                        function: String, _ find: (DeviceHub, String) throws(OcellusError) -> Device) -> oc_status {
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

@c @implementation public func oc_context_copy_device_by_unique_id(_ ctx: OpaquePointer?, _ uniqueID: UnsafePointer<CChar>?,
                                                                   _ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    copyDevice(ctx, uniqueID, out, function: "oc_context_copy_device_by_unique_id") { (hub, id) throws(OcellusError) in
        guard let device = hub.device(uniqueID: id) else { throw OcellusError(.notFound, "no connected device has the unique ID \(id)") }
        return device
    }
}

@c @implementation public func oc_context_copy_device_matching(_ ctx: OpaquePointer?, _ spec: UnsafePointer<CChar>?,
                                                               _ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    copyDevice(ctx, spec, out, function: "oc_context_copy_device_matching") { (hub, spec) throws(OcellusError) in
        try hub.device(matching: spec)
    }
}

@c @implementation public func oc_context_copy_user_preferred_camera(_ ctx: OpaquePointer?,
                                                                     _ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    copyContextDevice(ctx, out, function: "oc_context_copy_user_preferred_camera") { $0.userPreferredCamera }
}

@c @implementation public func oc_context_copy_system_preferred_camera(_ ctx: OpaquePointer?,
                                                                       _ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
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

@c @implementation public func oc_context_copy_state_problem(_ ctx: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?,
                                                             _ size: Int) -> Int {
    let problems = ContextBox.lookup(ctx).map { box in
        [box.hub.selectionStateProblem, MountingCorrections(directory: box.hub.stateDirectory).problem].compactMap { $0 }
    }
    return copyText(problems.flatMap { $0.isEmpty ? nil : $0.joined(separator: "; ") }, into: buffer, size: size)
}

@c @implementation public func oc_context_copy_backend_problem(_ ctx: OpaquePointer?, _ backend: oc_backend,
                                                               _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int {
    guard let box = ContextBox.lookup(ctx) else { return copyText(nil, into: buffer, size: size) }
    guard let kind = BackendKind(rawValue: Int32(bitPattern: backend.rawValue)) else {
        LastError.set("oc_context_copy_backend_problem: unknown backend \(Int32(bitPattern: backend.rawValue))")
        return copyText(nil, into: buffer, size: size)
    }
    return copyText(box.hub.backendProblem(kind)?.message, into: buffer, size: size)
}

@c @implementation public func oc_context_selection_is_unsaved(_ ctx: OpaquePointer?) -> Bool {
    ContextBox.lookup(ctx)?.hub.selectionIsUnsaved ?? false
}

@c @implementation public func oc_context_add_backend_failure_callback(_ ctx: OpaquePointer?,
                                                                       _ callback: oc_backend_failure_callback?,
                                                                       _ userData: UnsafeMutableRawPointer?,
                                                                       _ outID: UnsafeMutablePointer<oc_callback_id>?) -> oc_status {
    registerCallback(ContextBox.lookup(ctx), callback, "oc_context_add_backend_failure_callback", userData, outID) { box, callback, userData in
        let contextHandle = box.handle
        return box.hub.events.addObserver { event in
            guard case .backendFailed(let kind, let error) = event else { return }
            error.message.withCString { message in
                callback(contextHandle, oc_backend(rawValue: UInt32(kind.rawValue)), error.code.rawValue, message,
                         userData())
            }
        }
    }
}

@c @implementation public func oc_context_add_preferred_camera_callback(_ ctx: OpaquePointer?,
                                                                        _ callback: oc_preferred_camera_callback?,
                                                                        _ userData: UnsafeMutableRawPointer?,
                                                                        _ outID: UnsafeMutablePointer<oc_callback_id>?) -> oc_status {
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
