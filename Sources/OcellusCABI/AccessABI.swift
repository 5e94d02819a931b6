// Camera access in the C ABI (behaviour §1 access): authorization, and asking the camera portal.
import COcellus
import OcellusCore
import OcellusSystem
import Synchronization

@c @implementation public func oc_context_camera_authorization(_ ctx: OpaquePointer?) -> oc_camera_authorization {
    guard let box = ContextBox.lookup(ctx) else { return OC_CAMERA_AUTHORIZATION_NOT_DETERMINED }
    return oc_camera_authorization(rawValue: UInt32(box.access.authorization.rawValue))
}

@c @implementation public func oc_context_uses_camera_portal(_ ctx: OpaquePointer?) -> Bool {
    ContextBox.lookup(ctx)?.access.portal != nil
}

@c @implementation public func oc_camera_authorization_name(_ authorization: oc_camera_authorization) -> UnsafePointer<CChar>? {
    guard let known = CameraAuthorization(rawValue: Int32(bitPattern: authorization.rawValue)) else {
        LastError.set("oc_camera_authorization_name: unknown authorization \(Int32(bitPattern: authorization.rawValue))")
        return nil
    }
    return UnsafePointer(authorizationNames[Int(known.rawValue)].pointer)
}

private let authorizationNames = CameraAuthorization.allCases.map { CString($0.name) }

@c @implementation public func oc_context_request_camera_access(
    _ ctx: OpaquePointer?, _ callback: oc_camera_access_callback?,
    _ userData: UnsafeMutableRawPointer?
) -> oc_status {
    guard let box = ContextBox.lookup(ctx) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    guard let callback else { return LastError.fail(.invalidArgument, "oc_context_request_camera_access: callback is NULL") }
    let (handle, hub) = (box.handle, box.hub)
    let userDataBits = UInt(bitPattern: userData)
    // The observer answers its own request once, then goes (removing itself from the event thread
    // does not wait for itself).
    let answered = RequestSlot()
    let observer = hub.events.addObserver { event in
        guard case .cameraAccessAnswered(let request, let authorization, let problem) = event, answered.claim(request) else { return }
        (problem?.message ?? "").withCString { message in
            callback(
                handle, oc_camera_authorization(rawValue: UInt32(authorization.rawValue)),
                problem.map { $0.code.rawValue } ?? oc_status(OC_OK), message, UnsafeMutableRawPointer(bitPattern: userDataBits))
        }
        if let id = answered.observer { _ = hub.events.removeObserver(id) }
    }
    answered.observer = observer
    let number = requestNumbers.wrappingAdd(1, ordering: .relaxed).newValue
    answered.request = number
    box.access.request(number, for: hub)
    return oc_status(OC_OK)
}

private let requestNumbers = Atomic<UInt64>(0)

/// Which request an access callback answers, set after the observer is registered (the answer
/// comes on the event thread, which sees the number under the lock).
private final class RequestSlot: @unchecked Sendable {
    private let lock = ConditionLock()
    private var number: UInt64?
    private var done = false
    private var observerID: UInt64?

    var observer: UInt64? {
        get { lock.withLock { observerID } }
        set { lock.withLock { observerID = newValue } }
    }

    var request: UInt64? {
        get { lock.withLock { number } }
        set { lock.withLock { number = newValue } }
    }

    /// True once, for this slot's request.
    func claim(_ answered: UInt64) -> Bool {
        lock.withLock {
            guard !done, let number, number == answered else { return false }
            done = true
            return true
        }
    }
}
