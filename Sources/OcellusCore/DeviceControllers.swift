/// The controls of the hub's cameras: one controller per device instance, so a configuration lock
/// lasts until unlocked or the instance is gone. A camera whose V4L2 node the V4L2 backend reaches
/// (its own, or the node under a PipeWire camera) is controlled there; otherwise through the
/// backend that found it (a PipeWire camera in a sandbox, another host's node, a libcamera camera).
final class DeviceControllers: @unchecked Sendable {
    private struct Slot {
        weak var device: Device?
        let controller: any CameraControlling
    }

    private let lock = ConditionLock()
    private var slots: [ObjectIdentifier: Slot] = [:]

    func controller(for device: Device, backends: (BackendKind) -> (any DeviceBackend)?) throws(OcellusError) -> any CameraControlling {
        guard device.type.isCamera else { throw OcellusError(.notFound, "\(device.uniqueID) is not a camera") }
        guard device.isConnected else { throw OcellusError(.disconnected, "\(device.uniqueID) is disconnected") }
        if let kept = lock.withLock({ slots[ObjectIdentifier(device)].flatMap { $0.device === device ? $0.controller : nil } }) {
            return kept
        }
        let found: any CameraControlling
        if device.backend != .v4l2, let v4l2 = backends(.v4l2), let direct = try? v4l2.controller(for: device) {
            found = direct
        } else if let own = backends(device.backend) {
            found = try own.controller(for: device)
        } else {
            throw OcellusError(.notFound, "\(device.uniqueID) has no controls Ocellus can reach (its \(device.backend.name) backend is not running)")
        }
        return lock.withLock {
            slots = slots.filter { $0.value.device != nil }
            if let slot = slots[ObjectIdentifier(device)], slot.device === device { return slot.controller }
            slots[ObjectIdentifier(device)] = Slot(device: device, controller: found)
            return found
        }
    }
}

extension DeviceHub {
    /// The controls of one of the hub's cameras (one controller per device instance).
    public func controller(for device: Device) throws(OcellusError) -> any CameraControlling {
        try controllers.controller(for: device) { runningBackend($0) }
    }
}
