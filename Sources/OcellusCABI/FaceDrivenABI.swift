// Face-driven exposure and focus in the C ABI (behaviour §4), beside the controls.
import COcellus
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The settings store and the unique ID of a camera handle, or why not.
private func faceDrivenCamera(_ box: DeviceBox, _ function: String) throws(OcellusError) -> (FaceDrivenSettings, String) {
    guard box.device.type.isCamera else { throw OcellusError(.invalidArgument, "\(function): \(box.device.uniqueID) is not a camera") }
    guard let hub = box.device.hub else { throw OcellusError(.disconnected, "\(box.device.uniqueID) is disconnected (its context is gone)") }
    return (hub.faceDriven, box.device.uniqueID)
}

private func adjustment(_ value: oc_face_driven_adjustment, _ function: String) throws(OcellusError) -> Bool {
    switch value {
    case OC_FACE_DRIVEN_EXPOSURE: return true
    case OC_FACE_DRIVEN_FOCUS: return false
    default: throw OcellusError(.invalidArgument, "\(function): \(value.rawValue) is not OC_FACE_DRIVEN_EXPOSURE or OC_FACE_DRIVEN_FOCUS")
    }
}

@c @implementation public func oc_device_get_face_driven(
    _ device: OpaquePointer?, _ which: oc_face_driven_adjustment,
    _ state: UnsafeMutablePointer<oc_face_driven_state>?
) -> oc_status {
    abiCall(DeviceBox.lookup(device)) { (box: DeviceBox) throws(OcellusError) in
        let state = try oc_face_driven_state.checked(state, "state", in: "oc_device_get_face_driven")
        let isExposure = try adjustment(which, "oc_device_get_face_driven")
        let (settings, uniqueID) = try faceDrivenCamera(box, "oc_device_get_face_driven")
        // A camera whose controls cannot be reached cannot be steered: tier none, not an error.
        let controller = try? box.device.controller()
        let tiers = (try? controller?.controls()).map { FaceDrivenTiers(controls: $0) } ?? FaceDrivenTiers(exposure: .none, focus: .none)
        let current = settings.state(of: uniqueID)
        let setting = isExposure ? current.exposure : current.focus
        oc_face_driven_state.fill(
            state,
            with: oc_face_driven_state(
                struct_size: 0, automatically_adjusts: setting.automaticallyAdjusts,
                enabled: setting.allows(appHoldsConfigurationLock: controller?.holdsConfigurationLock ?? false),
                tier: oc_face_driven_tier(rawValue: UInt32((isExposure ? tiers.exposure : tiers.focus).rawValue)),
                active: isExposure ? current.exposureActive : current.focusActive))
    }
}

@c @implementation public func oc_device_set_face_driven(
    _ device: OpaquePointer?, _ which: oc_face_driven_adjustment,
    _ automaticallyAdjusts: Bool, _ enabled: Bool
) -> oc_status {
    abiCall(DeviceBox.lookup(device)) { (box: DeviceBox) throws(OcellusError) in
        let isExposure = try adjustment(which, "oc_device_set_face_driven")
        let (settings, uniqueID) = try faceDrivenCamera(box, "oc_device_set_face_driven")
        let setting = FaceDrivenSetting(automaticallyAdjusts: automaticallyAdjusts, isEnabled: enabled)
        settings.update(uniqueID) { state in
            if isExposure { state.exposure = setting } else { state.focus = setting }
        }
    }
}

private let tierNames = NameTable("face-driven tier", Dictionary(uniqueKeysWithValues: FaceDrivenTier.allCases.map { ($0.rawValue, $0.name) }))

@c @implementation public func oc_face_driven_tier_name(_ tier: oc_face_driven_tier) -> UnsafePointer<CChar>? {
    tierNames.name(Int32(bitPattern: tier.rawValue), function: "oc_face_driven_tier_name")
}
