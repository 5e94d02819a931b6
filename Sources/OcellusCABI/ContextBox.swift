import COcellus
import OcellusCore

/// What an `oc_context *` points to.
final class ContextBox {
    let hub: DeviceHub
    let appID: CString
    let stateDirectory: CString
    var handle: OpaquePointer!

    init(hub: DeviceHub) {
        self.hub = hub
        appID = CString(hub.appID)
        stateDirectory = CString(hub.stateDirectory)
    }

    static func lookup(_ handle: OpaquePointer?) -> ContextBox? {
        HandleTable.lookup(handle, as: ContextBox.self, what: "context")
    }
}
