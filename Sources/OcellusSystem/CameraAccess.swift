import OcellusCore
import OcellusPipeWire
import OcellusPortal

#if canImport(Glibc)
import Glibc
#endif

/// How a context reaches cameras, and whether it may (behaviour §1 access). Directly: the
/// PipeWire socket and the V4L2 nodes, with the system's permissions (authorized). In a
/// sandbox (Flatpak, Snap; or `OCELLUS_CAMERA_PORTAL=1`): only through the camera portal —
/// no V4L2, and PipeWire through a descriptor the portal hands over once the app may use
/// the camera; until then the context lists no cameras.
public final class CameraAccess: @unchecked Sendable {
    public let portal: CameraPortal?
    /// The PipeWire remote the context's backend and capture streams use.
    public let remote: PipeWireRemote
    private let appID: String
    private let lock = ConditionLock()
    private var status: CameraAuthorization

    /// Whether this process must use the portal: sandboxed, or `OCELLUS_CAMERA_PORTAL=1`
    /// (`0` forces the direct route, for a sandbox that exposes the devices).
    public static var usesPortal: Bool {
        switch try? environmentVariable("OCELLUS_CAMERA_PORTAL") {
        case "1": true
        case "0": false
        default: CameraPortal.isSandboxed
        }
    }

    public init(appID: String, pipewireRemote: String?, usePortal: Bool = CameraAccess.usesPortal) {
        self.appID = appID
        if usePortal {
            let portal = CameraPortal()
            self.portal = portal
            remote = PipeWireRemote(descriptorFrom: "the camera portal's PipeWire remote") { () throws(OcellusError) -> Int32 in
                try portal.openPipeWireRemote()
            }
            status = .notDetermined
        } else {
            portal = nil
            remote = PipeWireRemote(name: pipewireRemote)
            status = .authorized
        }
    }

    public var authorization: CameraAuthorization { lock.withLock { status } }

    /// "portal" or "direct".
    public var via: String { portal == nil ? "direct" : "portal" }

    /// Through the portal: connects `hub` to PipeWire when the app may already use the camera
    /// (the permission store has its yes: `OpenPipeWireRemote` answers without a dialog).
    /// A portal that is not there makes access restricted, with the reason as the hub's problem.
    public func connectIfAllowed(_ hub: DeviceHub) {
        guard portal != nil else { return }
        var attempt = 0
        while true {
            do throws(OcellusError) {
                try hub.attach(PipeWireBackend(remote: remote, appID: appID))
                lock.withLock { status = .authorized }
                awaitPortalGrant(hub)
                return
            } catch {
                attempt += 1
                // The portal's own PipeWire connection can fail a call while it reconnects: once more.
                if error.code == .other && attempt < 2 {
                    usleep(100_000)
                    continue
                }
                // Not allowed yet: not determined; no portal (or no Camera interface): restricted.
                lock.withLock {
                    status = error.code == .permissionDenied ? .notDetermined : error.code == .backendUnavailable ? .restricted : status
                }
                hub.noteProblem(error, for: .pipewire)
                return
            }
        }
    }

    /// Asks for access on a thread of its own and posts the answer to `hub`'s event thread as
    /// `.cameraAccessAnswered(request: number, …)`. Directly, the answer is `authorized` at once
    /// (the system's permissions decide per device).
    public func request(_ number: UInt64, for hub: DeviceHub) {
        guard let portal else {
            hub.events.post(.cameraAccessAnswered(request: number, .authorized, nil))
            return
        }
        pthread_detach(
            startThread { [self] in
                let (answer, problem) = ask(portal, hub: hub)
                hub.events.post(.cameraAccessAnswered(request: number, answer, problem))
            })
    }

    /// The session manager makes the cameras visible to the portal's connection a moment after
    /// it connects (WirePlumber sets the client's permissions): when the portal says a camera is
    /// present, the listing waits for it, at most `portalGrantMilliseconds`.
    private func awaitPortalGrant(_ hub: DeviceHub) {
        guard let portal, (try? portal.isCameraPresent()) == true else { return }
        let deadline = monotonicNanoseconds() + Self.portalGrantMilliseconds * 1_000_000
        while !hub.devices().contains(where: { $0.type.isCamera }) && monotonicNanoseconds() < deadline { usleep(5_000) }
    }

    static let portalGrantMilliseconds: UInt64 = 2000

    private func ask(_ portal: CameraPortal, hub: DeviceHub) -> (CameraAuthorization, OcellusError?) {
        let answer: CameraPortal.Answer
        do throws(OcellusError) { answer = try portal.requestAccess() } catch {
            let status: CameraAuthorization = error.code == .backendUnavailable ? .restricted : authorization
            lock.withLock { self.status = status }
            return (status, error)
        }
        switch answer {
        case .granted:
            connectIfAllowed(hub)
            let status = authorization
            return (status, status == .authorized ? nil : hub.backendProblem(.pipewire))
        case .denied:
            lock.withLock { status = .denied }
            return (
                .denied,
                OcellusError(
                    .permissionDenied,
                    "camera access was denied for \(appID); the desktop remembers the answer: allow the camera in its privacy settings")
            )
        case .dismissed:
            return (authorization, OcellusError(.permissionDenied, "the camera access dialog was dismissed without an answer"))
        }
    }
}
