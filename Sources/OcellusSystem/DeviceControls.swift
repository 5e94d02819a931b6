import OcellusCore
import OcellusV4L2
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Controls of a device, wherever they are reachable: every camera with a V4L2
/// node (its own, or the one under a PipeWire camera) is controlled through that
/// node. One controller per device instance, so its configuration lock lasts
/// until unlocked or the instance is gone.
public enum DeviceControls {
    private final class Slot {
        weak var device: Device?
        let controller: V4L2Controls
        init(device: Device, controller: V4L2Controls) {
            self.device = device
            self.controller = controller
        }
    }

    private static let slots = Mutex<[ObjectIdentifier: Slot]>([:])

    public static func controller(for device: Device) throws(OcellusError) -> any CameraControlling {
        guard device.type.isCamera, let path = device.properties["api.v4l2.path"] else {
            throw OcellusError(.notFound, "\(device.uniqueID) has no controls Ocellus can reach (no V4L2 node)")
        }
        guard device.isConnected else { throw OcellusError(.disconnected, "\(device.uniqueID) is disconnected") }
        // A PipeWire camera's node may be out of reach (another host's path, a sandbox).
        guard device.backend == .v4l2 || access(path, F_OK) == 0 else {
            throw OcellusError(.notFound, "\(device.uniqueID) has no controls Ocellus can reach (\(path) is not here)")
        }
        return slots.withLock { slots in
            slots = slots.filter { $0.value.device != nil }
            if let slot = slots[ObjectIdentifier(device)], slot.device === device { return slot.controller }
            let controller = V4L2Controls(devicePath: path)
            slots[ObjectIdentifier(device)] = Slot(device: device, controller: controller)
            return controller
        }
    }
}
