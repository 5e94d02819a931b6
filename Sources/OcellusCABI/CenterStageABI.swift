// Center Stage in the C ABI (behaviour §4), beside face-driven exposure and focus.
import COcellus
import OcellusCore

/// The settings store and the unique ID of a camera handle, or why not.
private func centerStageCamera(_ box: DeviceBox, _ function: String) throws(OcellusError) -> (CenterStageSettings, String) {
    guard box.device.type.isCamera else { throw OcellusError(.invalidArgument, "\(function): \(box.device.uniqueID) is not a camera") }
    guard let hub = box.device.hub else { throw OcellusError(.disconnected, "\(box.device.uniqueID) is disconnected (its context is gone)") }
    return (hub.centerStage, box.device.uniqueID)
}

@c @implementation public func oc_device_get_center_stage(_ device: OpaquePointer?, _ state: UnsafeMutablePointer<oc_center_stage_state>?) -> oc_status {
    abiCall(DeviceBox.lookup(device)) { (box: DeviceBox) throws(OcellusError) in
        let state = try oc_center_stage_state.checked(state, "state", in: "oc_device_get_center_stage")
        let (settings, uniqueID) = try centerStageCamera(box, "oc_device_get_center_stage")
        let current = settings.state(of: uniqueID)
        oc_center_stage_state.fill(
            state,
            with: oc_center_stage_state(
                struct_size: 0, enabled: current.isEnabled, active: current.isActive,
                window: (current.window.x, current.window.y, current.window.width, current.window.height)))
    }
}

@c @implementation public func oc_device_set_center_stage(_ device: OpaquePointer?, _ enabled: Bool) -> oc_status {
    abiCall(DeviceBox.lookup(device)) { (box: DeviceBox) throws(OcellusError) in
        let (settings, uniqueID) = try centerStageCamera(box, "oc_device_set_center_stage")
        settings.setEnabled(enabled, for: uniqueID)
    }
}
