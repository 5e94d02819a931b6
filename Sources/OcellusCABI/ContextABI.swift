// The header's "Context" section (ContextBox.swift holds what a context handle owns).
import COcellus
import OcellusCore
import OcellusSystem

#if canImport(Glibc)
import Glibc
#endif

@c @implementation public func oc_context_options_init(_ options: UnsafeMutablePointer<oc_context_options>?) {
    guard let options else { return LastError.set("oc_context_options_init: options is NULL") }
    options.pointee = oc_context_options()
    options.pointee.struct_size = UInt32(MemoryLayout<oc_context_options>.size)
}

@c @implementation public func oc_context_create(
    _ appID: UnsafePointer<CChar>?,
    _ options: UnsafePointer<oc_context_options>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_context_create: out is NULL") }
    out.pointee = nil
    guard let appID else { return LastError.fail(.invalidArgument, "oc_context_create: app_id is NULL") }
    var remote: String?
    var stateDirectory: String?
    var timeout: UInt32 = 0
    do {
        if options != nil {
            let options = try oc_context_options.checked(options, "options", in: "oc_context_create")
            if let given = options.pointee.pipewire_remote { remote = try stringArgument(given, "oc_context_create: options->pipewire_remote") }
            if let given = options.pointee.state_directory { stateDirectory = try stringArgument(given, "oc_context_create: options->state_directory") }
            timeout = options.pointee.timeout_ms
        }
        let app = try stringArgument(appID, "oc_context_create: app_id")
        let access = CameraAccess(appID: app, pipewireRemote: remote)
        let hub = try DeviceHub.system(
            appID: app, pipewireRemote: remote, access: access,
            stateDirectory: stateDirectory, timeoutMilliseconds: timeout)
        let box = ContextBox(hub: hub, access: access)
        box.handle = HandleTable.register(box)
        out.pointee = box.handle
        return oc_status(OC_OK)
    } catch {
        return LastError.fail(error)
    }
}

@c @implementation public func oc_context_destroy(_ ctx: OpaquePointer?) {
    guard let box = ContextBox.lookup(ctx) else { return }
    if box.hub.events.isEventThread {
        _ = LastError.fail(.wrongState, "oc_context_destroy: called from one of the context's own callbacks")
        return
    }
    HandleTable.unregister(box.handle)
    box.hub.close()
}

@c @implementation public func oc_context_app_id(_ ctx: OpaquePointer?) -> UnsafePointer<CChar>? {
    ContextBox.lookup(ctx).map { UnsafePointer($0.appID.pointer) }
}

@c @implementation public func oc_context_state_directory(_ ctx: OpaquePointer?) -> UnsafePointer<CChar>? {
    ContextBox.lookup(ctx).map { UnsafePointer($0.stateDirectory.pointer) }
}
