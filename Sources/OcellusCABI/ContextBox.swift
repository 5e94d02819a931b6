import COcellus
import OcellusCore
import OcellusPipeWire
import OcellusSystem

/// What an `oc_context *` points to.
final class ContextBox {
    let hub: DeviceHub
    let appID: CString
    let stateDirectory: CString
    /// How the context reaches cameras (directly, or through the camera portal).
    let access: CameraAccess
    var handle: OpaquePointer!

    init(hub: DeviceHub, access: CameraAccess) {
        self.access = access
        self.hub = hub
        appID = CString(hub.appID)
        stateDirectory = CString(hub.stateDirectory)
    }

    static func lookup(_ handle: OpaquePointer?) -> ContextBox? {
        HandleTable.lookup(handle, as: ContextBox.self, what: "context")
    }
}
