import OcellusCore
import OcellusPipeWire
import OcellusV4L2

#if canImport(Glibc)
import Glibc
#endif

extension DeviceHub {
    /// A hub over the system's backends: PipeWire (preferred for a camera both see)
    /// and raw V4L2. Without a reachable daemon it runs on V4L2 alone and
    /// `backendProblem(.pipewire)` says why — unless `pipewireRemote` names a
    /// daemon explicitly, whose absence is then an error. Through the camera portal
    /// (`access` in a sandbox) it has PipeWire alone, once the app may use the camera.
    public static func system(
        appID: String, pipewireRemote: String? = nil, access: CameraAccess? = nil,
        stateDirectory: String? = nil, timeoutMilliseconds: UInt32 = 0
    ) throws(OcellusError) -> DeviceHub {
        let access = access ?? CameraAccess(appID: appID, pipewireRemote: pipewireRemote)
        let direct = access.portal == nil
        let backends: [any DeviceBackend] = direct ? [PipeWireBackend(remote: access.remote, appID: appID), V4L2Backend()] : []
        let hub = try DeviceHub(
            appID: appID, backends: backends, timeoutMilliseconds: timeoutMilliseconds,
            stateDirectory: stateDirectory, required: pipewireRemote == nil || !direct ? [] : [.pipewire])
        if direct {
            PipeWireReconnector.watch(hub, remote: pipewireRemote)
        } else {
            access.connectIfAllowed(hub)
        }
        return hub
    }
}

/// Joins a PipeWire daemon that starts (or restarts) after the context: watches
/// the runtime directory for its socket and, while PipeWire is not running,
/// attaches a new backend when the socket appears.
enum PipeWireReconnector {
    static func watch(_ hub: DeviceHub, remote: String?) {
        // A remote that is not UTF-8 cannot be watched by name (libpipewire still reaches the daemon).
        let name: String
        do { name = try remote ?? environmentVariable("PIPEWIRE_REMOTE") ?? "pipewire-0" } catch { return }
        guard let path = PipeWireBackend.socketPath(for: name), let slash = path.lastIndex(of: "/") else { return }
        let directory = String(path[..<slash]), socket = String(path[path.index(after: slash)...])
        let watcher = hub.fileWatcher
        let watch = watcher?.watch(directory: directory.isEmpty ? "/" : directory, fileName: socket, for: .appeared) { [weak hub] in
            // The socket file exists a moment before the daemon listens on it: retry briefly.
            for _ in 0..<20 {
                guard let hub, hub.backendProblem(.pipewire) != nil else { return }
                if (try? hub.attach(PipeWireBackend(remote: PipeWireRemote(name: remote), appID: hub.appID))) != nil { return }
                usleep(50_000)
            }
        }
        if let watcher, let watch { hub.onClose { watcher.remove(watch) } }
    }
}
