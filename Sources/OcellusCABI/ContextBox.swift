import COcellus
import OcellusCore

/// What an `oc_context *` points to.
final class ContextBox {
    let hub: DeviceHub
    let appID: CString
    let stateDirectory: CString
    /// The explicit PipeWire remote, for the capture streams of its sessions.
    let pipewireRemote: String?
    var handle: OpaquePointer!

    init(hub: DeviceHub, pipewireRemote: String?) {
        self.pipewireRemote = pipewireRemote
        self.hub = hub
        appID = CString(hub.appID)
        stateDirectory = CString(hub.stateDirectory)
    }

    static func lookup(_ handle: OpaquePointer?) -> ContextBox? {
        HandleTable.lookup(handle, as: ContextBox.self, what: "context")
    }
}
