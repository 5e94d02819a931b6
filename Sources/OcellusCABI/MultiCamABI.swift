// Multi-camera sessions in the C ABI (behaviour §4).
import COcellus
import OcellusCapture
import OcellusCore
import OcellusSystem

final class MultiCamBox {
    let session: MultiCamSession
    let context: ContextBox
    var handle: OpaquePointer!
    /// Each camera's branch, as the app reaches it: a session handle the multi-camera session owns.
    /// Locked: apps may add and remove cameras from several threads.
    let branches = Locked<[SessionBox]>([])

    init(session: MultiCamSession, context: ContextBox) {
        self.session = session
        self.context = context
    }

    static func lookup(_ handle: OpaquePointer?) -> MultiCamBox? {
        HandleTable.lookup(handle, as: MultiCamBox.self, what: "multi-camera session")
    }
}

@c @implementation public func oc_multi_cam_session_create(_ ctx: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    createInContext(ctx, out, function: "oc_multi_cam_session_create") { context in
        let box = MultiCamBox(session: .system(hub: context.hub), context: context)
        box.handle = HandleTable.register(box)
        return box.handle
    }
}

@c @implementation public func oc_multi_cam_session_destroy(_ session: OpaquePointer?) {
    guard let box = MultiCamBox.lookup(session) else { return }
    do {
        try box.session.stopRunning()
    } catch {
        _ = LastError.fail(error)
        return
    }
    for branch in box.branches.withLock({ branches in
        defer { branches = [] }; return branches
    }) {
        try? box.session.removeCamera(branch.session.input!)
        HandleTable.unregister(branch.handle)
    }
    HandleTable.unregister(box.handle)
    box.session.events.stop(deliveringQueued: true) // STOPPED, posted by the stop above, included
}

@c @implementation public func oc_multi_cam_session_can_add_camera(_ session: OpaquePointer?, _ camera: OpaquePointer?) -> Bool {
    guard let box = MultiCamBox.lookup(session), let device = DeviceBox.lookup(camera)?.device else { return false }
    return box.session.canAddCamera(device)
}

@c @implementation public func oc_multi_cam_session_add_camera(
    _ session: OpaquePointer?, _ camera: OpaquePointer?,
    _ outBranch: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    guard let outBranch else { return LastError.fail(.invalidArgument, "oc_multi_cam_session_add_camera: out_branch is NULL") }
    outBranch.pointee = nil
    guard let device = DeviceBox.lookup(camera)?.device else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return abiCall(MultiCamBox.lookup(session)) { (box: MultiCamBox) throws(OcellusError) in
        let branch = SessionBox(session: try box.session.addCamera(device), context: box.context)
        branch.handle = HandleTable.register(branch)
        box.branches.withLock { $0.append(branch) }
        outBranch.pointee = branch.handle
    }
}

@c @implementation public func oc_multi_cam_session_remove_camera(_ session: OpaquePointer?, _ camera: OpaquePointer?) -> oc_status {
    guard let device = DeviceBox.lookup(camera)?.device else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return abiCall(MultiCamBox.lookup(session)) { (box: MultiCamBox) throws(OcellusError) in
        try box.session.removeCamera(device)
        let removed = box.branches.withLock { branches in
            branches.firstIndex { $0.session.input === device }.map { branches.remove(at: $0) }
        }
        if let removed { HandleTable.unregister(removed.handle) }
    }
}

@c @implementation public func oc_multi_cam_session_start_running(_ session: OpaquePointer?) -> oc_status {
    abiCall(MultiCamBox.lookup(session)) { (box: MultiCamBox) throws(OcellusError) in try box.session.startRunning() }
}

@c @implementation public func oc_multi_cam_session_stop_running(_ session: OpaquePointer?) -> oc_status {
    abiCall(MultiCamBox.lookup(session)) { (box: MultiCamBox) throws(OcellusError) in try box.session.stopRunning() }
}

@c @implementation public func oc_multi_cam_session_is_running(_ session: OpaquePointer?) -> Bool {
    MultiCamBox.lookup(session)?.session.isRunning ?? false
}

@c @implementation public func oc_multi_cam_session_get_hardware_cost(_ session: OpaquePointer?, _ cost: UnsafeMutablePointer<oc_hardware_cost>?) -> oc_status {
    abiCall(MultiCamBox.lookup(session)) { (box: MultiCamBox) throws(OcellusError) in
        let cost = try oc_hardware_cost.checked(cost, "cost", in: "oc_multi_cam_session_get_hardware_cost")
        let total = box.session.hardwareCost
        guard let busiest = total.buses.max(by: { $0.load < $1.load }) else {
            throw OcellusError(.notFound, "oc_multi_cam_session_get_hardware_cost: no camera of the session is on USB (or no format serves its outputs)")
        }
        fillHardwareCost(cost, bus: busiest.bus, fits: total.fits, total: busiest.load, own: busiest.own, others: busiest.others.count)
    }
}

@c @implementation public func oc_multi_cam_session_add_event_callback(
    _ session: OpaquePointer?, _ callback: oc_multi_cam_event_callback?,
    _ userData: UnsafeMutableRawPointer?,
    _ outID: UnsafeMutablePointer<oc_callback_id>?
) -> oc_status {
    registerCallback(MultiCamBox.lookup(session), callback, "oc_multi_cam_session_add_event_callback", userData, outID) { box, callback, userData in
        let handle = box.handle
        return box.session.events.addObserver { event in
            let (camera, (kind, code, message)): (Device?, (oc_session_event, oc_status, String)) =
                switch event {
                case .started: (nil, sessionEventFields(.started))
                case .stopped: (nil, sessionEventFields(.stopped))
                case .runtimeError(let camera, let error): (camera, sessionEventFields(.runtimeError(error)))
                case .camera(let camera, let event): (camera, sessionEventFields(event))
                }
            message.withCString { text in
                guard let camera else { return callback(handle, kind, nil, code, text, userData()) }
                camera.uniqueID.withCString { id in callback(handle, kind, id, code, text, userData()) }
            }
        }
    }
}

@c @implementation public func oc_multi_cam_session_remove_callback(_ session: OpaquePointer?, _ id: oc_callback_id) -> oc_status {
    guard let box = MultiCamBox.lookup(session) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return removeObserver(id, from: box.session.events, function: "oc_multi_cam_session_remove_callback")
}
