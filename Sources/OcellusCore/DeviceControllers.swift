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

    /// A camera's controls through the kernel's own view of its node where a backend offers that
    /// view (it reaches every control the driver has), else through the camera's own backend.
    func controller(for device: Device, backends: [any DeviceBackend]) throws(OcellusError) -> any CameraControlling {
        guard device.type.isCamera else { throw OcellusError(.notFound, "\(device.uniqueID) is not a camera") }
        guard device.isConnected else { throw OcellusError(.disconnected, "\(device.uniqueID) is disconnected") }
        if let kept = lock.withLock({ slots[ObjectIdentifier(device)].flatMap { $0.device === device ? $0.controller : nil } }) {
            return kept
        }
        let found: any CameraControlling
        if !device.capabilities.isKernelView, let kernel = backends.last(where: \.capabilities.isKernelView),
            let direct = try? kernel.controller(for: device)
        {
            found = direct
        } else if let own = backends.last(where: { $0.kind == device.backend }) {
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
        try controllers.controller(for: device, backends: runningBackends())
    }
}
