import CSDBus
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The xdg-desktop-portal Camera portal (`org.freedesktop.portal.Camera`) over sd-bus on
/// the session bus: how a sandboxed app (Flatpak, Snap) asks for the camera and gets a
/// PipeWire connection that sees only cameras. `AccessCamera` is a Request whose answer
/// comes as a `Response` signal; `OpenPipeWireRemote` returns the connection's descriptor,
/// or `NotAllowed` while the app may not use the camera. Each call opens a connection of
/// its own: a request can wait on the user for as long as the dialog is open, and calls
/// from other threads must not queue behind it.
public final class CameraPortal: Sendable {
    static let service = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Camera"

    static let callTimeoutMicroseconds: UInt64 = 5_000_000

    /// The session bus address; nil: `DBUS_SESSION_BUS_ADDRESS`.
    public let busAddress: String?

    public init(busAddress: String? = nil) { self.busAddress = busAddress }

    /// Whether this process runs in a sandbox that reaches cameras only through the portal:
    /// Flatpak (`/.flatpak-info`) or Snap (`$SNAP`).
    public static var isSandboxed: Bool {
        access("/.flatpak-info", F_OK) == 0 || getenv("SNAP") != nil
    }

    /// The answer to an access request.
    public enum Answer: Sendable, Equatable {
        case granted
        /// The user said no (or the permission store holds no): the portal remembers it.
        case denied
        /// The dialog was dismissed without an answer.
        case dismissed
    }

    /// Asks for the camera (`AccessCamera`): the desktop shows its dialog unless the
    /// permission store already has the app's answer. Blocks until the answer, at most
    /// `timeoutMilliseconds` (0: no limit).
    public func requestAccess(timeoutMilliseconds: UInt32 = 0) throws(OcellusError) -> Answer {
        let bus = try connect()
        defer { sd_bus_flush_close_unref(bus) }
        // The Request's path is known before the call (sender and token), so the Response
        // signal is subscribed to first and cannot be missed.
        var unique: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &unique) >= 0, let unique else {
            throw OcellusError(.backendUnavailable, "the session bus gave this connection no name")
        }
        let sender = String(cString: unique).dropFirst().replacingAll(".", with: "_")
        let token = "ocellus\(getpid())_\(Self.nextToken())"
        let requestPath = "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"
        let outcome = ResponseBox()
        var slot: OpaquePointer?
        let subscribed = sd_bus_match_signal(
            bus, &slot, Self.service, requestPath, "org.freedesktop.portal.Request", "Response",
            { message, data, _ in
                var code: UInt32 = 2
                _ = csdbus_read_response(message, &code)
                Unmanaged<ResponseBox>.fromOpaque(data!).takeUnretainedValue().code = code
                return 0
            }, Unmanaged.passUnretained(outcome).toOpaque())
        defer { sd_bus_slot_unref(slot) }
        guard subscribed >= 0 else { throw OcellusError(.backendUnavailable, "cannot watch the portal's answer: \(errnoText(-subscribed))") }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var returnedPath = [CChar](repeating: 0, count: 512)
        let called = csdbus_portal_request(
            bus, Self.service, Self.path, Self.interface, "AccessCamera", token,
            &returnedPath, returnedPath.count, &error)
        guard called >= 0 else { throw Self.error(of: error, result: called, calling: "AccessCamera") }
        let deadline = timeoutMilliseconds == 0 ? UInt64.max : monotonicNanoseconds() + UInt64(timeoutMilliseconds) * 1_000_000
        while outcome.code == nil {
            let processed = sd_bus_process(bus, nil)
            guard processed >= 0 else {
                throw OcellusError(.backendUnavailable, "the session bus went away while waiting for the camera portal")
            }
            if processed > 0 { continue }
            let now = monotonicNanoseconds()
            guard now < deadline else {
                throw OcellusError(.timeout, "the camera portal did not answer within \(timeoutMilliseconds) ms (is the desktop's access dialog open?)")
            }
            _ = sd_bus_wait(bus, min(100_000, (deadline - now) / 1000))
        }
        switch outcome.code {
        case 0: return .granted
        case 1: return .denied
        default: return .dismissed
        }
    }

    /// A PipeWire connection that sees only cameras (`OpenPipeWireRemote`): a descriptor the
    /// caller owns. `permissionDenied` while the app may not use the camera.
    public func openPipeWireRemote() throws(OcellusError) -> Int32 {
        let bus = try connect()
        defer { sd_bus_flush_close_unref(bus) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var fd: Int32 = -1
        let called = csdbus_portal_open_fd(bus, Self.service, Self.path, Self.interface, "OpenPipeWireRemote", &fd, &error)
        guard called >= 0 else { throw Self.error(of: error, result: called, calling: "OpenPipeWireRemote") }
        return fd
    }

    /// `IsCameraPresent`: whether the portal saw a camera (xdg-desktop-portal 1.16 reads it
    /// once, at its own start-up: a camera plugged in later is not reflected).
    public func isCameraPresent() throws(OcellusError) -> Bool {
        let bus = try connect()
        defer { sd_bus_flush_close_unref(bus) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var present: Int32 = 0
        let read = sd_bus_get_property_trivial(
            bus, Self.service, Self.path, Self.interface, "IsCameraPresent", &error,
            CChar(UInt8(ascii: "b")), &present)
        guard read >= 0 else { throw Self.error(of: error, result: read, calling: "IsCameraPresent") }
        return present != 0
    }

    // MARK: Plumbing

    private final class ResponseBox: @unchecked Sendable { var code: UInt32? }

    private static let tokens = ConditionLock()
    nonisolated(unsafe) private static var tokenCounter = 0
    private static func nextToken() -> Int {
        tokens.withLock {
            tokenCounter += 1; return tokenCounter
        }
    }

    private func connect() throws(OcellusError) -> OpaquePointer {
        var connection: OpaquePointer?
        let result = csdbus_connect(busAddress, 1, &connection)
        guard result >= 0, let connection else {
            throw OcellusError(
                .backendUnavailable,
                "cannot reach the session bus (\(busAddress ?? "DBUS_SESSION_BUS_ADDRESS")) for the camera portal: \(errnoText(-result))")
        }
        // The portal answers its calls at once (only the Request's Response waits on the user):
        // a bus that swallows a call is an error in seconds, not sd-bus's default 25 s.
        _ = sd_bus_set_method_call_timeout(connection, Self.callTimeoutMicroseconds)
        return connection
    }

    /// What a failed portal call means for an app.
    static func error(of error: sd_bus_error, result: Int32, calling member: String) -> OcellusError {
        let name = error.name.map { String(cString: $0) } ?? ""
        let message = error.message.map { String(cString: $0) } ?? errnoText(-result)
        switch name {
        case "org.freedesktop.portal.Error.NotAllowed":
            return OcellusError(
                .permissionDenied,
                "the camera portal does not allow this app to use the camera (\(message)); ask with oc_context_request_camera_access, or allow it in the desktop's privacy settings"
            )
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return OcellusError(.backendUnavailable, "the camera portal is not running (no xdg-desktop-portal on the session bus): \(message)")
        case "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface",
            "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownProperty":
            return OcellusError(.backendUnavailable, "xdg-desktop-portal here has no Camera portal (\(member): \(message))")
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout":
            return OcellusError(.timeout, "the camera portal did not answer \(member): \(message)")
        default: // the portal is there but failed this call (its own PipeWire connection, say)
            return OcellusError(.other, "the camera portal's \(member) failed: \(name.isEmpty ? "" : name + ": ")\(message)")
        }
    }
}

extension Substring {
    fileprivate func replacingAll(_ target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
