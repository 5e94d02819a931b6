// The outputs a capture session takes in the C ABI — video, depth, audio, photo and movie
// outputs — and what their handles share: creation, lookup, joining and leaving a session.
// Picture and depth outputs share one box (`FrameOutputBox`) as they share `FrameOutput`.
import COcellus
import OcellusCapture
import OcellusCore

/// An output handle that belongs to at most one session.
protocol SessionMember: AnyObject {
    init()
    var session: SessionBox? { get set }
    var handle: OpaquePointer! { get set }
    /// What the handle is called in messages ("video data output").
    static var what: String { get }
}

extension SessionMember {
    static func lookup(_ handle: OpaquePointer?) -> Self? {
        HandleTable.lookup(handle, as: Self.self, what: what)
    }

    /// `oc_*_output_create`: a new output handle in `out`, owned by the caller.
    static func create(_ out: UnsafeMutablePointer<OpaquePointer?>?, function: String) -> oc_status {
        guard let out else { return LastError.fail(.invalidArgument, "\(function): out is NULL") }
        let member = Self()
        member.handle = HandleTable.register(member)
        out.pointee = member.handle
        return oc_status(OC_OK)
    }
}

/// `oc_capture_session_add_*`: `add` joins `member` to the session, which must be its first.
func addMember<Member: SessionMember>(
    _ member: Member?, to session: OpaquePointer?, what: String,
    _ add: (CaptureSession, Member) throws(OcellusError) -> Void
) -> oc_status {
    guard let member else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        // The check and the claim are one step: two threads adding one output to two sessions
        // cannot both pass it. The claim is undone when the session refuses the output.
        let claimed = outputLinks.withLock { _ in
            guard member.session == nil else { return false }
            member.session = box
            return true
        }
        guard claimed else { throw OcellusError(.wrongState, "the \(what) already belongs to a session") }
        do throws(OcellusError) {
            try add(box.session, member)
        } catch {
            outputLinks.withLock { _ in member.session = nil }
            throw error
        }
    }
}

/// Guards every output handle's links to its session and its synchronizer (held only to read or
/// set links, never across a call that can wait, such as replacing an output's handler).
let outputLinks = Locked(())

/// `oc_*_output_destroy`, before the handle goes: refused from the output's own callback (the
/// rule for calls from inside callbacks), then the output leaves its session. False, with the
/// reason as the last error, when it cannot be destroyed now and stays as it was.
func leaveSessionToDestroy<Member: SessionMember>(
    _ member: Member, function: String, inOwnCallback: Bool,
    _ leave: (CaptureSession, Member) throws(OcellusError) -> Void
) -> Bool {
    guard !inOwnCallback else {
        LastError.set("\(function): called from the output's own callback (clear the callback there, destroy after)")
        return false
    }
    do throws(OcellusError) {
        if let session = member.session { try leave(session.session, member) }
        return true
    } catch {
        LastError.set("\(function): \(error.message)")
        return false
    }
}

/// `oc_capture_session_remove_*`: `remove` takes `member` out of the session it is in.
func removeMember<Member: SessionMember>(
    _ member: Member?, from session: OpaquePointer?, what: String,
    _ remove: (CaptureSession, Member) throws(OcellusError) -> Void
) -> oc_status {
    guard let member else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        guard outputLinks.withLock({ _ in member.session === box }) else {
            throw OcellusError(.notFound, "the \(what) is not in this session")
        }
        try remove(box.session, member)
        outputLinks.withLock { _ in member.session = nil }
    }
}

/// A session output the frame box can hold: picture or depth.
protocol BoxedFrameOutput: FrameOutput {
    static func make() -> Self
    /// What the handle is called in messages.
    static var what: String { get }
    /// Takes the output out of `session`.
    func leave(_ session: CaptureSession) throws(OcellusError)
    /// Before the handle goes: wakes whatever waits on the output.
    func close()
}

extension VideoDataOutput: BoxedFrameOutput {
    static func make() -> Self { Self() }
    static var what: String { "video data output" }
    func leave(_ session: CaptureSession) throws(OcellusError) { try session.removeOutput(self) }
    func close() { latest.close() } // readers waiting for a frame return
}

extension DepthDataOutput: BoxedFrameOutput {
    static func make() -> Self { Self() }
    static var what: String { "depth data output" }
    func leave(_ session: CaptureSession) throws(OcellusError) { try session.removeDepthOutput(self) }
    func close() {}
}

typealias OutputBox = FrameOutputBox<VideoDataOutput>
typealias DepthOutputBox = FrameOutputBox<DepthDataOutput>

/// A picture or depth output's handle, the handle of the frame view its callback gets, and the
/// synchronizer that may own its frames.
final class FrameOutputBox<Output: BoxedFrameOutput>: SessionMember {
    let output = Output.make()
    let view = FrameBox()
    weak var session: SessionBox?
    /// The synchronizer the output's frames go to instead of its own callback.
    weak var synchronizer: SynchronizerBox?
    var handle: OpaquePointer!
    static var what: String { Output.what }

    init() { view.handle = HandleTable.register(view) }

    /// `oc_*_data_output_destroy`: not from the output's own callback (or its synchronizer's).
    static func destroy(_ handle: OpaquePointer?, function: String) {
        guard let box = lookup(handle),
            leaveSessionToDestroy(
                box, function: function,
                inOwnCallback: box.output.isDeliveringThread
                    || box.synchronizer?.synchronizer.isDeliveringThread == true,
                { (session, box) throws(OcellusError) in try box.output.leave(session) })
        else { return }
        box.output.frameViewHandler = nil
        box.output.close()
        HandleTable.unregister(box.view.handle)
        HandleTable.unregister(box.handle)
    }

    /// `oc_*_data_output_set_frame_callback`: each frame is shown through the box's view (no copy)
    /// to `callback` with the output's handle and the caller's user data; NULL clears it.
    static func setFrameCallback(
        _ handle: OpaquePointer?,
        _ callback: (@convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void)?,
        _ userData: UnsafeMutableRawPointer?, function: String
    ) -> oc_status {
        abiCall(lookup(handle)) { (box: FrameOutputBox) throws(OcellusError) in
            try refuseIfSynchronized(box.synchronizer, function)
            guard let callback else {
                box.output.frameViewHandler = nil
                return
            }
            box.output.frameViewHandler = viewingFrames(callback, output: box.handle, view: box.view, userData: userData)
        }
    }

    /// `oc_*_data_output_dropped_frames`.
    static func droppedFrames(_ handle: OpaquePointer?, _ reason: oc_drop_reason, function: String) -> UInt64 {
        guard let box = lookup(handle) else { return 0 }
        guard let kind = FrameDropReason(rawValue: Int32(bitPattern: reason.rawValue)) else {
            LastError.set("\(function): unknown reason \(reason.rawValue)")
            return 0
        }
        return box.output.droppedFrames(kind)
    }
}

/// The handler that shows each frame through `view` (no copy) and calls a C frame callback
/// with the output's handle and the caller's user data (video outputs, depth outputs and the
/// synchronizer alike).
func viewingFrames(
    _ callback: @escaping @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void,
    output: OpaquePointer?, view: FrameBox, userData: UnsafeMutableRawPointer?
) -> (UnsafePointer<CameraFrame>) -> Void {
    let userDataBits = UInt(bitPattern: userData)
    return { frame in view.deliver(frame) { callback(output, view.handle, UnsafeMutableRawPointer(bitPattern: userDataBits)) } }
}
