// The header's "Discovery sessions" section (behaviour §1).
import COcellus
import OcellusCore
import OcellusSystem

#if canImport(Glibc)
import Glibc
#endif

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
                callback(
                    sessionHandle, oc_hotplug_event(rawValue: UInt32(change.rawValue)), $0,
                    UnsafeMutableRawPointer(bitPattern: userDataBits))
            }
        }
        lock.withLock { callbackID = id }
    }
}

private let deviceTypeBits: [(UInt32, DeviceType)] = [
    (UInt32(OC_DEVICE_TYPES_BUILT_IN_CAMERA), .builtInCamera), (UInt32(OC_DEVICE_TYPES_EXTERNAL_CAMERA), .externalCamera),
    (UInt32(OC_DEVICE_TYPES_VIRTUAL_CAMERA), .virtualCamera), (UInt32(OC_DEVICE_TYPES_DEPTH_CAMERA), .depthCamera),
    (UInt32(OC_DEVICE_TYPES_MICROPHONE), .microphone)
]

@c @implementation public func oc_discovery_session_create(
    _ ctx: OpaquePointer?, _ deviceTypes: UInt32,
    _ mediaType: oc_media_type, _ position: oc_device_position,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
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
    let sessionBox = DiscoverySessionBox(
        session: DiscoverySession(
            hub: box.hub,
            filter: DeviceFilter(types: types, media: media, position: filterPosition)))
    sessionBox.handle = HandleTable.register(sessionBox)
    out.pointee = sessionBox.handle
    return oc_status(OC_OK)
}

@c @implementation public func oc_discovery_session_copy_devices(
    _ session: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_discovery_session_copy_devices: out is NULL") }
    out.pointee = nil
    guard let box = DiscoverySessionBox.lookup(session) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    out.pointee = HandleTable.register(DeviceListBox(devices: box.session.devices))
    return oc_status(OC_OK)
}

@c @implementation public func oc_discovery_session_set_callback(
    _ session: OpaquePointer?, _ callback: oc_discovery_callback?,
    _ userData: UnsafeMutableRawPointer?
) -> oc_status {
    guard let box = DiscoverySessionBox.lookup(session) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    box.setCallback(callback, userData: userData)
    return oc_status(OC_OK)
}

@c @implementation public func oc_discovery_session_destroy(_ session: OpaquePointer?) {
    guard let box = DiscoverySessionBox.lookup(session) else { return }
    HandleTable.unregister(box.handle)
    box.setCallback(nil, userData: nil)
}
