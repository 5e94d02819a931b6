/// Whether the app may use cameras (behaviour §1 access), as AVFoundation's
/// authorization status: a sandboxed app asks the camera portal; others have the
/// system's permissions, and are authorized.
public enum CameraAuthorization: Int32, Sendable, CaseIterable {
    /// Not asked yet (in a sandbox, until the app asks, or the portal has a stored answer).
    case notDetermined = 0
    case authorized = 1
    /// The user (or the permission store) said no; asking again answers no without a dialog.
    case denied = 2
    /// Nobody can grant it here: the camera portal is missing or has no Camera interface.
    case restricted = 3

    /// The name in JSON and the CLI.
    public var name: String {
        switch self {
        case .notDetermined: "not_determined"
        case .authorized: "authorized"
        case .denied: "denied"
        case .restricted: "restricted"
        }
    }
}
