import OcellusCore
import OcellusPipeWire
import OcellusV4L2
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Controls of a device, wherever they are reachable: a camera whose V4L2 node is here
/// (its own, or the one under a PipeWire camera) through that node, else a PipeWire
/// camera through its PipeWire node. One controller per device instance, so its
/// configuration lock lasts until unlocked or the instance is gone.
public enum DeviceControls {
    private final class Slot {
        weak var device: Device?
        let controller: any CameraControlling
        init(device: Device, controller: any CameraControlling) {
            self.device = device
            self.controller = controller
        }
    }

    private static let slots = Mutex<[ObjectIdentifier: Slot]>([:])

    /// The V4L2 node when it is reachable here; else, for a PipeWire camera, its node's
    /// controls through PipeWire (a sandboxed app, another host's path, a libcamera camera).
    public static func controller(for device: Device) throws(OcellusError) -> any CameraControlling {
        guard device.type.isCamera else { throw OcellusError(.notFound, "\(device.uniqueID) is not a camera") }
        guard device.isConnected else { throw OcellusError(.disconnected, "\(device.uniqueID) is disconnected") }
        let path = device.details.videoNodes.first
        let nodeHere = path.map { device.backend == .v4l2 || access($0, F_OK) == 0 } ?? false
        let throughPipeWire = !nodeHere && device.backend == .pipewire
            ? PipeWireBackend.backend(havingNode: device.backendKey) : nil
        guard nodeHere || throughPipeWire != nil else {
            throw OcellusError(.notFound, "\(device.uniqueID) has no controls Ocellus can reach (\(path.map { "\($0) is not here" } ?? "no V4L2 node"))")
        }
        return slots.withLock { slots in
            slots = slots.filter { $0.value.device != nil }
            if let slot = slots[ObjectIdentifier(device)], slot.device === device { return slot.controller }
            let controller: any CameraControlling = if let path, nodeHere {
                V4L2Controls(devicePath: path)
            } else {
                PipeWireControls(backend: throughPipeWire!, nodeSerial: device.backendKey)
            }
            slots[ObjectIdentifier(device)] = Slot(device: device, controller: controller)
            return controller
        }
    }
}
