import OcellusCore
import OcellusPipeWire
import OcellusV4L2

extension DeviceHub {
    /// A hub over the system's backends: PipeWire (preferred for a camera both see)
    /// and raw V4L2. Without a reachable daemon it runs on V4L2 alone and
    /// `backendProblem(.pipewire)` says why — unless `pipewireRemote` names a
    /// daemon explicitly, whose absence is then an error.
    public static func system(appID: String, pipewireRemote: String? = nil, stateDirectory: String? = nil,
                              timeoutMilliseconds: UInt32 = 0) throws(OcellusError) -> DeviceHub {
        try DeviceHub(appID: appID, backends: [PipeWireBackend(remote: pipewireRemote), V4L2Backend()],
                      timeoutMilliseconds: timeoutMilliseconds, stateDirectory: stateDirectory,
                      required: pipewireRemote == nil ? [] : [.pipewire])
    }
}
