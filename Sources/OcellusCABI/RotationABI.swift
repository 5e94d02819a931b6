// The rotation coordinator in the C ABI (behaviour §3).
import COcellus
import OcellusCore
import OcellusSensors

final class CoordinatorBox {
    let coordinator: RotationCoordinator
    let device: Device
    let corrections: MountingCorrections
    /// The accelerometer feeding H, when followed.
    var sensor: SensorProxyOrientation?
    var handle: OpaquePointer!

    init(coordinator: RotationCoordinator, device: Device, corrections: MountingCorrections) {
        self.coordinator = coordinator
        self.device = device
        self.corrections = corrections
    }

    static func lookup(_ handle: OpaquePointer?) -> CoordinatorBox? {
        HandleTable.lookup(handle, as: CoordinatorBox.self, what: "rotation coordinator")
    }
}

private func coordinatorCall(_ handle: OpaquePointer?, _ body: (CoordinatorBox) throws(OcellusError) -> Void) -> oc_status {
    abiCall(CoordinatorBox.lookup(handle), body)
}

@c @implementation public func oc_rotation_coordinator_create(
    _ ctx: OpaquePointer?, _ camera: OpaquePointer?, _ mirrored: Int32,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_rotation_coordinator_create: out is NULL") }
    out.pointee = nil
    guard let context = ContextBox.lookup(ctx), let device = DeviceBox.lookup(camera)?.device else {
        return oc_status(OC_ERROR_INVALID_HANDLE)
    }
    guard (-1...1).contains(mirrored) else {
        return LastError.fail(.invalidArgument, "oc_rotation_coordinator_create: mirrored must be 1, 0 or -1, not \(mirrored)")
    }
    do {
        let corrections = MountingCorrections(directory: context.hub.stateDirectory)
        let coordinator = try RotationCoordinator(
            device: device, mountingCorrection: corrections.correction(for: device.uniqueID),
            previewMirrored: mirrored < 0 ? nil : mirrored == 1)
        let box = CoordinatorBox(coordinator: coordinator, device: device, corrections: corrections)
        box.handle = HandleTable.register(box)
        out.pointee = box.handle
        return oc_status(OC_OK)
    } catch {
        return LastError.fail(error)
    }
}

@c @implementation public func oc_rotation_coordinator_destroy(_ coordinator: OpaquePointer?) {
    guard let box = CoordinatorBox.lookup(coordinator) else { return }
    HandleTable.unregister(box.handle)
    box.sensor?.stop()
    box.coordinator.changes.stop()
}

@c @implementation public func oc_rotation_coordinator_follow_host_sensor(
    _ coordinator: OpaquePointer?,
    _ busAddress: UnsafePointer<CChar>?
) -> oc_status {
    coordinatorCall(coordinator) { (box: CoordinatorBox) throws(OcellusError) in
        let target = box.coordinator
        let address = try busAddress.map { (text) throws(OcellusError) in try stringArgument(text, "oc_rotation_coordinator_follow_host_sensor: bus_address") }
        let sensor = try SensorProxyOrientation(busAddress: address) { degrees in
            try? target.setHostOrientation(degrees)
        }
        try target.setHostOrientation(sensor.orientation)
        box.sensor?.stop()
        box.sensor = sensor
    }
}

@c @implementation public func oc_rotation_coordinator_get_angles(
    _ coordinator: OpaquePointer?, _ preview: UnsafeMutablePointer<Int32>?,
    _ capture: UnsafeMutablePointer<Int32>?
) -> oc_status {
    coordinatorCall(coordinator) { (box: CoordinatorBox) throws(OcellusError) in
        let angles = box.coordinator.angles
        preview?.pointee = Int32(angles.preview)
        capture?.pointee = Int32(angles.capture)
    }
}

@c @implementation public func oc_rotation_coordinator_is_mirrored(_ coordinator: OpaquePointer?) -> Bool {
    CoordinatorBox.lookup(coordinator)?.coordinator.previewMirrored ?? false
}

@c @implementation public func oc_rotation_coordinator_set_host_orientation(_ coordinator: OpaquePointer?, _ degrees: Int32) -> oc_status {
    coordinatorCall(coordinator) { (box: CoordinatorBox) throws(OcellusError) in try box.coordinator.setHostOrientation(Int(degrees)) }
}

@c @implementation public func oc_rotation_coordinator_set_interface_orientation(_ coordinator: OpaquePointer?, _ degrees: Int32) -> oc_status {
    coordinatorCall(coordinator) { (box: CoordinatorBox) throws(OcellusError) in
        try box.coordinator.setInterfaceOrientation(degrees == Int32(OC_INTERFACE_FOLLOWS_DEVICE) ? .followsDevice : .fixed(Int(degrees)))
    }
}

@c @implementation public func oc_rotation_coordinator_set_mounting_correction(_ coordinator: OpaquePointer?, _ degrees: Int32) -> oc_status {
    coordinatorCall(coordinator) { (box: CoordinatorBox) throws(OcellusError) in
        try RotationCoordinator.checkTakesMountingCorrection(box.device)
        try box.coordinator.setMountingCorrection(Int(degrees))
        try box.corrections.setCorrection(Int(degrees), for: box.device.uniqueID)
    }
}

@c @implementation public func oc_rotation_coordinator_add_callback(
    _ coordinator: OpaquePointer?, _ callback: oc_rotation_callback?,
    _ userData: UnsafeMutableRawPointer?,
    _ outID: UnsafeMutablePointer<oc_callback_id>?
) -> oc_status {
    registerCallback(CoordinatorBox.lookup(coordinator), callback, "oc_rotation_coordinator_add_callback", userData, outID) { box, callback, userData in
        let handle = box.handle
        return box.coordinator.changes.addObserver { angles in
            callback(handle, Int32(angles.preview), Int32(angles.capture), userData())
        }
    }
}

@c @implementation public func oc_rotation_coordinator_remove_callback(_ coordinator: OpaquePointer?, _ id: oc_callback_id) -> oc_status {
    guard let box = CoordinatorBox.lookup(coordinator) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return removeObserver(id, from: box.coordinator.changes, function: "oc_rotation_coordinator_remove_callback")
}
