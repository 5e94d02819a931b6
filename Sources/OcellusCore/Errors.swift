/// What kind of failure an `OcellusError` is; mirrors the C ABI's `oc_status` codes.
public enum ErrorCode: Int32, Sendable {
    case invalidArgument = -1
    case invalidHandle = -2
    case backendUnavailable = -3
    case notFound = -4
    case wrongState = -5
    case timeout = -6
    case noResources = -7
    case busy = -8
    case disconnected = -9
    case io = -10
    /// An optional library Ocellus loads on first use (FFmpeg) is not installed.
    case libraryUnavailable = -11
    /// The app may not use the camera: the portal (or the user) refused, or the system's
    /// permissions keep it from the device node or the PipeWire daemon.
    case permissionDenied = -12
    case other = -99
}

/// An error with a code for programs and a message for people.
public struct OcellusError: Error, Sendable, CustomStringConvertible {
    public let code: ErrorCode
    public let message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
