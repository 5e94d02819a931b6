// The header's "Hotplug" section: hotplug, disconnection and backend failure callbacks.
import COcellus
import OcellusCore
import OcellusSystem

#if canImport(Glibc)
import Glibc
#endif

@c @implementation public func oc_context_add_hotplug_callback(
    _ ctx: OpaquePointer?, _ callback: oc_hotplug_callback?,
    _ userData: UnsafeMutableRawPointer?,
    _ outID: UnsafeMutablePointer<oc_callback_id>?
) -> oc_status {
    registerCallback(ContextBox.lookup(ctx), callback, "oc_context_add_hotplug_callback", userData, outID) { box, callback, userData in
        let contextHandle = box.handle
        return box.hub.events.addObserver { hubEvent in
            guard case .device(let event, let device) = hubEvent else { return }
            withBorrowedHandle(device) {
                callback(
                    contextHandle, oc_hotplug_event(rawValue: UInt32(event.rawValue)), $0,
                    userData())
            }
        }
    }
}

@c @implementation public func oc_context_remove_callback(_ ctx: OpaquePointer?, _ id: oc_callback_id) -> oc_status {
    guard let box = ContextBox.lookup(ctx) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return removeObserver(id, from: box.hub.events, function: "oc_context_remove_callback")
}

/// Unregisters callback `id` (waiting for a call in flight), or says it is unknown.
func removeObserver<Event>(_ id: oc_callback_id, from events: EventThread<Event>, function: String) -> oc_status {
    guard events.removeObserver(id) else {
        return LastError.fail(.notFound, "\(function): no callback is registered with ID \(id)")
    }
    return oc_status(OC_OK)
}

@c @implementation public func oc_context_add_disconnected_callback(
    _ ctx: OpaquePointer?, _ device: OpaquePointer?,
    _ callback: oc_device_disconnected_callback?,
    _ userData: UnsafeMutableRawPointer?,
    _ outID: UnsafeMutablePointer<oc_callback_id>?
) -> oc_status {
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

@c @implementation public func oc_context_add_backend_failure_callback(
    _ ctx: OpaquePointer?,
    _ callback: oc_backend_failure_callback?,
    _ userData: UnsafeMutableRawPointer?,
    _ outID: UnsafeMutablePointer<oc_callback_id>?
) -> oc_status {
    registerCallback(ContextBox.lookup(ctx), callback, "oc_context_add_backend_failure_callback", userData, outID) { box, callback, userData in
        let contextHandle = box.handle
        return box.hub.events.addObserver { event in
            guard case .backendFailed(let kind, let error) = event else { return }
            error.message.withCString { message in
                callback(
                    contextHandle, oc_backend(rawValue: UInt32(kind.rawValue)), error.code.rawValue, message,
                    userData())
            }
        }
    }
}
