import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// Connects to a PipeWire daemon's Unix socket by name or path, the way
/// libpipewire resolves `remote.name`: a relative name lives in
/// `$PIPEWIRE_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR`.
enum PipeWireSocket {
    static func path(for remote: String) -> String? {
        if remote.hasPrefix("/") { return remote }
        guard let directory = getenv("PIPEWIRE_RUNTIME_DIR") ?? getenv("XDG_RUNTIME_DIR") else { return nil }
        return String(cString: directory) + "/" + remote
    }

    /// A connected, close-on-exec socket whose ownership passes to the caller.
    static func connect(_ remote: String) -> Result<Int32, OcellusError> {
        guard let path = path(for: remote) else {
            return .failure(
                OcellusError(
                    .backendUnavailable,
                    "cannot find PipeWire socket \"\(remote)\": neither PIPEWIRE_RUNTIME_DIR nor XDG_RUNTIME_DIR is set"))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            return .failure(OcellusError(.invalidArgument, "PipeWire socket path is too long: \(path)"))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            return .failure(OcellusError(.noResources, "cannot create a socket: \(errnoText())"))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            if code == EACCES || code == EPERM {
                return .failure(
                    OcellusError(
                        .permissionDenied,
                        "cannot connect to PipeWire at \(path): \(errnoText(code)) (a sandboxed app reaches cameras through the camera portal)"))
            }
            return .failure(
                OcellusError(
                    .backendUnavailable,
                    "cannot connect to PipeWire at \(path): \(errnoText(code)) (is the daemon running?)"))
        }
        return .success(fd)
    }
}
