// Capture sessions, video data outputs and frames in the C ABI (behaviour §4).
import COcellus
import CThreadFrame
import OcellusCapture
import OcellusCore
import OcellusSystem

#if canImport(Glibc)
import Glibc
#endif

final class SessionBox {
    let session: CaptureSession
    let context: ContextBox
    var handle: OpaquePointer!
    init(session: CaptureSession, context: ContextBox) {
        self.session = session
        self.context = context
    }
    static func lookup(_ handle: OpaquePointer?) -> SessionBox? {
        HandleTable.lookup(handle, as: SessionBox.self, what: "capture session")
    }
}

/// A frame handle: the view of the frame being delivered (valid during the callback),
/// or a retained copy that owns its bytes.
final class FrameBox {
    /// The frame the callback is running for (view boxes only; points into the delivering stack frame).
    private var delivering: UnsafePointer<CameraFrame>?
    private let retained: RetainedFrame?
    var handle: OpaquePointer!
    /// A copy from `oc_frame_retain` (the caller owns it), not an output's delivery view.
    var isRetained: Bool { retained != nil }

    /// The per-output view, reused for every frame (no allocation per frame).
    init() { retained = nil }

    /// A copy of `frame` that outlives the camera's buffer.
    init(copying frame: CameraFrame) { retained = RetainedFrame(copying: frame) }

    /// A copy already made (a pulled frame).
    init(retaining copy: RetainedFrame) { retained = copy }

    /// Runs the C callback with this view showing `frame`. The thread's delivering
    /// record lets accessors on this thread skip the handle table.
    func deliver(_ frame: UnsafePointer<CameraFrame>, _ callback: () -> Void) {
        delivering = frame
        ocabi_set_delivering(UnsafeRawPointer(handle), frame)
        callback()
        ocabi_set_delivering(nil, nil)
        delivering = nil
    }

    /// Runs `body` on the frame behind `handle`, or returns nil with the last error set.
    /// The frame being delivered on this thread is reached without the handle table and
    /// without copying it (the accessors run several times per frame).
    @inline(__always)
    static func withFrame<R>(_ handle: OpaquePointer?, _ body: (UnsafePointer<CameraFrame>) -> R) -> R? {
        if let handle, let current = ocabi_delivering(UnsafeRawPointer(handle)) {
            return body(current.assumingMemoryBound(to: CameraFrame.self))
        }
        return lookup(handle).map { frame in withUnsafePointer(to: frame, body) }
    }

    /// The frame behind `handle` through the handle table, or nil with the last error set.
    @inline(never)
    private static func lookup(_ handle: OpaquePointer?) -> CameraFrame? {
        guard let box = HandleTable.lookup(handle, as: FrameBox.self, what: "frame") else { return nil }
        guard let frame = box.retained?.frame ?? box.delivering?.pointee else {
            LastError.set("the frame is no longer valid: its callback returned (retain frames to keep them)")
            return nil
        }
        return frame
    }
}

private func sessionCall(_ handle: OpaquePointer?, _ body: (SessionBox) throws(OcellusError) -> Void) -> oc_status {
    abiCall(SessionBox.lookup(handle), body)
}

/// `oc_*_create(ctx, out)`: `make` a handle on the context's devices, into `out`.
func createInContext(
    _ ctx: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?, function: String,
    _ make: (ContextBox) -> OpaquePointer
) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "\(function): out is NULL") }
    out.pointee = nil
    guard let context = ContextBox.lookup(ctx) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    out.pointee = make(context)
    return oc_status(OC_OK)
}

@c @implementation public func oc_capture_session_create(_ ctx: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    createInContext(ctx, out, function: "oc_capture_session_create") { context in
        let box = SessionBox(session: .system(hub: context.hub), context: context)
        box.handle = HandleTable.register(box)
        return box.handle
    }
}

@c @implementation public func oc_capture_session_destroy(_ session: OpaquePointer?) {
    guard let box = SessionBox.lookup(session) else { return }
    if box.session.isMultiCamBranch {
        _ = LastError.fail(
            .wrongState, "oc_capture_session_destroy: a branch of a multi-camera session goes with its camera (oc_multi_cam_session_remove_camera)")
        return
    }
    do {
        try box.session.stopRunning()
    } catch {
        _ = LastError.fail(error)
        return
    }
    HandleTable.unregister(box.handle)
    box.session.events.stop(deliveringQueued: true) // STOPPED, posted by the stop above, included
}

@c @implementation public func oc_capture_session_begin_configuration(_ session: OpaquePointer?) -> oc_status {
    sessionCall(session) { (box: SessionBox) throws(OcellusError) in box.session.beginConfiguration() }
}

@c @implementation public func oc_capture_session_commit_configuration(_ session: OpaquePointer?) -> oc_status {
    sessionCall(session) { (box: SessionBox) throws(OcellusError) in try box.session.commitConfiguration() }
}

@c @implementation public func oc_capture_session_set_input(_ session: OpaquePointer?, _ camera: OpaquePointer?) -> oc_status {
    guard let device = DeviceBox.lookup(camera)?.device else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return sessionCall(session) { (box: SessionBox) throws(OcellusError) in try box.session.addInput(device) }
}

@c @implementation public func oc_capture_session_add_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    addMember(OutputBox.lookup(output), to: session, what: "output") { (session, box) throws(OcellusError) in try session.addOutput(box.output) }
}

@c @implementation public func oc_capture_session_remove_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    removeMember(OutputBox.lookup(output), from: session, what: "output") { (session, box) throws(OcellusError) in
        try session.removeOutput(box.output)
    }
}

@c @implementation public func oc_capture_session_can_add_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> Bool {
    guard let box = SessionBox.lookup(session), let outputBox = OutputBox.lookup(output) else { return false }
    return outputBox.session == nil && box.session.canAddOutput(outputBox.output)
}

@c @implementation public func oc_device_supports_preset(_ camera: OpaquePointer?, _ preset: oc_session_preset) -> Bool {
    guard let device = DeviceBox.lookup(camera)?.device else { return false }
    guard let kind = CaptureSession.Preset(rawValue: Int32(bitPattern: preset.rawValue)) else {
        LastError.set("oc_device_supports_preset: unknown preset \(Int32(bitPattern: preset.rawValue))")
        return false
    }
    return CaptureSession.device(device, supports: kind)
}

@c @implementation public func oc_capture_session_set_preset(_ session: OpaquePointer?, _ preset: oc_session_preset) -> oc_status {
    guard let kind = CaptureSession.Preset(rawValue: Int32(bitPattern: preset.rawValue)) else {
        return LastError.fail(.invalidArgument, "oc_capture_session_set_preset: unknown preset \(preset.rawValue)")
    }
    return sessionCall(session) { (box: SessionBox) throws(OcellusError) in try box.session.setPreset(kind) }
}

@c @implementation public func oc_capture_session_set_bus_fit(_ session: OpaquePointer?, _ fit: oc_bus_fit) -> oc_status {
    guard let kind = CaptureSession.BusFit(rawValue: Int32(bitPattern: fit.rawValue)) else {
        return LastError.fail(.invalidArgument, "oc_capture_session_set_bus_fit: unknown bus fit \(Int32(bitPattern: fit.rawValue))")
    }
    return sessionCall(session) { (box: SessionBox) throws(OcellusError) in try box.session.setBusFit(kind) }
}

@c @implementation public func oc_capture_session_get_bus_fit(_ session: OpaquePointer?) -> oc_bus_fit {
    oc_bus_fit(rawValue: UInt32(bitPattern: SessionBox.lookup(session)?.session.busFit.rawValue ?? 0))
}

@c @implementation public func oc_capture_session_start_running(_ session: OpaquePointer?) -> oc_status {
    sessionCall(session) { (box: SessionBox) throws(OcellusError) in try box.session.startRunning() }
}

@c @implementation public func oc_capture_session_stop_running(_ session: OpaquePointer?) -> oc_status {
    sessionCall(session) { (box: SessionBox) throws(OcellusError) in try box.session.stopRunning() }
}

@c @implementation public func oc_capture_session_is_running(_ session: OpaquePointer?) -> Bool {
    SessionBox.lookup(session)?.session.isRunning ?? false
}

@c @implementation public func oc_capture_session_set_automatically_switches_camera(
    _ session: OpaquePointer?,
    _ enabled: Bool
) -> oc_status {
    sessionCall(session) { (box: SessionBox) throws(OcellusError) in
        if box.session.isMultiCamBranch {
            throw OcellusError(.wrongState, "automatic switching is a single-camera feature: this session is a branch of a multi-camera session")
        }
        box.session.setAutomaticallySwitchesCamera(following: enabled ? box.context.hub : nil)
    }
}

@c @implementation public func oc_capture_session_automatically_switches_camera(_ session: OpaquePointer?) -> Bool {
    SessionBox.lookup(session)?.session.automaticallySwitchesCamera ?? false
}

@c @implementation public func oc_capture_session_is_recording(_ session: OpaquePointer?) -> Bool {
    SessionBox.lookup(session)?.session.isRecording ?? false
}

/// A session event as the C callback gets it. Errors give their code and message;
/// automatic-switching news the camera's unique ID.
func sessionEventFields(_ event: CaptureSession.Event) -> (oc_session_event, oc_status, String) {
    switch event {
    case .started: (OC_SESSION_EVENT_STARTED, 0, "")
    case .stopped: (OC_SESSION_EVENT_STOPPED, 0, "")
    case .runtimeError(let error): (OC_SESSION_EVENT_RUNTIME_ERROR, error.code.rawValue, error.message)
    case .interrupted(let error): (OC_SESSION_EVENT_INTERRUPTED, error.code.rawValue, error.message)
    case .interruptionEnded: (OC_SESSION_EVENT_INTERRUPTION_ENDED, 0, "")
    case .audioInterrupted(let error): (OC_SESSION_EVENT_AUDIO_INTERRUPTED, error.code.rawValue, error.message)
    case .inputSwitched(let camera): (OC_SESSION_EVENT_INPUT_SWITCHED, 0, camera.uniqueID)
    case .switchDeferred(let camera): (OC_SESSION_EVENT_SWITCH_DEFERRED, 0, camera.uniqueID)
    case .switchFailed(let camera, let error):
        (OC_SESSION_EVENT_SWITCH_FAILED, error.code.rawValue, "\(camera.uniqueID): \(error.message)")
    case .recordingDegraded(let error): (OC_SESSION_EVENT_RECORDING_DEGRADED, error.code.rawValue, error.message)
    case .microphoneModeChanged(let mode):
        (
            OC_SESSION_EVENT_MICROPHONE_MODE_CHANGED, mode.reason.isEmpty ? 0 : ErrorCode.libraryUnavailable.rawValue,
            mode.reason.isEmpty ? mode.active.name : "\(mode.active.name): \(mode.reason)"
        )
    case .formatFallback(let fallback): (OC_SESSION_EVENT_FORMAT_FALLBACK, fallback.code.rawValue, fallback.description)
    }
}

@c @implementation public func oc_capture_session_add_event_callback(
    _ session: OpaquePointer?, _ callback: oc_session_event_callback?,
    _ userData: UnsafeMutableRawPointer?,
    _ outID: UnsafeMutablePointer<oc_callback_id>?
) -> oc_status {
    registerCallback(SessionBox.lookup(session), callback, "oc_capture_session_add_event_callback", userData, outID) { box, callback, userData in
        let handle = box.handle
        return box.session.events.addObserver { event in
            let (kind, code, message) = sessionEventFields(event)
            message.withCString { text in
                callback(handle, kind, code, text, userData())
            }
        }
    }
}

@c @implementation public func oc_capture_session_remove_callback(_ session: OpaquePointer?, _ id: oc_callback_id) -> oc_status {
    guard let box = SessionBox.lookup(session) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return removeObserver(id, from: box.session.events, function: "oc_capture_session_remove_callback")
}

// MARK: Outputs

@c @implementation public func oc_capture_session_get_active_format(
    _ session: OpaquePointer?, _ pixelFormat: UnsafeMutablePointer<UInt32>?,
    _ width: UnsafeMutablePointer<UInt32>?, _ height: UnsafeMutablePointer<UInt32>?,
    _ frameRate: UnsafeMutablePointer<oc_fraction>?
) -> oc_status {
    abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        guard box.session.isRunning, let format = box.session.activeFormat else {
            throw OcellusError(.wrongState, "oc_capture_session_get_active_format: the session is not running")
        }
        pixelFormat?.pointee = format.pixelFormat.rawValue
        width?.pointee = format.width
        height?.pointee = format.height
        let rate = format.maxFrameRate
        frameRate?.pointee = oc_fraction(numerator: rate?.numerator ?? 0, denominator: rate?.denominator ?? 0)
    }
}

@c @implementation public func oc_capture_session_get_hardware_cost(_ session: OpaquePointer?, _ cost: UnsafeMutablePointer<oc_hardware_cost>?) -> oc_status {
    abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        let cost = try oc_hardware_cost.checked(cost, "cost", in: "oc_capture_session_get_hardware_cost")
        guard let share = box.session.hardwareCost else {
            throw OcellusError(
                .notFound, "oc_capture_session_get_hardware_cost: no USB cost to report (no input, a camera not on USB, or outputs no format serves)")
        }
        fillHardwareCost(cost, bus: share.bus, fits: share.fits, total: share.load, own: share.own, others: share.others.count)
    }
}

/// Fills the caller's `oc_hardware_cost` (its struct_size checked already).
func fillHardwareCost(_ cost: UnsafeMutablePointer<oc_hardware_cost>, bus: String, fits: Bool, total: Double, own: Double, others: Int) {
    var filled = oc_hardware_cost()
    (filled.fits, filled.total, filled.own, filled.others) = (fits, total, own, UInt32(others))
    copyText(bus, into: &filled.bus)
    oc_hardware_cost.fill(cost, with: filled)
}

@c @implementation public func oc_capture_session_check_configuration(
    _ session: OpaquePointer?,
    _ check: UnsafeMutablePointer<oc_configuration_check>?
) -> oc_status {
    abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        let check = try oc_configuration_check.checked(check, "check", in: "oc_capture_session_check_configuration")
        guard let answer = try box.session.checkConfiguration() else {
            throw OcellusError(.notFound, "oc_capture_session_check_configuration: the session has no input")
        }
        var filled = oc_configuration_check()
        (filled.as_asked, filled.adjusted) = (answer.isAsAsked, answer.adjustments.rawValue)
        (filled.pixel_format, filled.width, filled.height) = (answer.runs.format.pixelFormat.rawValue, answer.runs.format.width, answer.runs.format.height)
        filled.frame_rate = oc_fraction(numerator: answer.runs.rate.numerator, denominator: answer.runs.rate.denominator)
        (filled.asked_pixel_format, filled.asked_width, filled.asked_height) = (
            answer.asked.format.pixelFormat.rawValue, answer.asked.format.width,
            answer.asked.format.height
        )
        filled.asked_frame_rate = oc_fraction(numerator: answer.asked.rate.numerator, denominator: answer.asked.rate.denominator)
        copyText(answer.reason, into: &filled.reason)
        oc_configuration_check.fill(check, with: filled)
    }
}

@c @implementation public func oc_video_data_output_create(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    OutputBox.create(out, function: "oc_video_data_output_create")
}

@c @implementation public func oc_video_data_output_destroy(_ output: OpaquePointer?) {
    OutputBox.destroy(output, function: "oc_video_data_output_destroy")
}

@c @implementation public func oc_video_data_output_set_frame_callback(
    _ output: OpaquePointer?, _ callback: oc_frame_callback?,
    _ userData: UnsafeMutableRawPointer?
) -> oc_status {
    OutputBox.setFrameCallback(output, callback, userData, function: "oc_video_data_output_set_frame_callback")
}

@c @implementation public func oc_video_data_output_delivered_frames(_ output: OpaquePointer?) -> UInt64 {
    OutputBox.lookup(output)?.output.deliveredFrames ?? 0
}

@c @implementation public func oc_video_data_output_dropped_frames(_ output: OpaquePointer?, _ reason: oc_drop_reason) -> UInt64 {
    OutputBox.droppedFrames(output, reason, function: "oc_video_data_output_dropped_frames")
}

@c @implementation public func oc_video_data_output_set_format(
    _ output: OpaquePointer?, _ pixelFormat: UInt32,
    _ width: UInt32, _ height: UInt32
) -> oc_status {
    abiCall(OutputBox.lookup(output)) { (box: OutputBox) throws(OcellusError) in
        try box.output.pinSize(width, height)
        // 'I420' is the common name of V4L2's 'YU12'.
        let requested = FourCC(rawValue: pixelFormat)
        box.output.pixelFormat = pixelFormat == 0 ? nil : requested == FourCC("I420") ? .i420 : requested
    }
}

@c @implementation public func oc_video_data_output_is_rotation_angle_supported(_ output: OpaquePointer?, _ degrees: Int32) -> Bool {
    OutputBox.lookup(output)?.output.isVideoRotationAngleSupported(Int(degrees)) ?? false
}

@c @implementation public func oc_video_data_output_set_rotation_angle(_ output: OpaquePointer?, _ degrees: Int32) -> oc_status {
    abiCall(OutputBox.lookup(output)) { (box: OutputBox) throws(OcellusError) in try box.output.setVideoRotationAngle(Int(degrees)) }
}

@c @implementation public func oc_video_data_output_set_mirrored(_ output: OpaquePointer?, _ mirrored: Int32) -> oc_status {
    guard let box = OutputBox.lookup(output) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    guard (-1...1).contains(mirrored) else {
        return LastError.fail(.invalidArgument, "oc_video_data_output_set_mirrored: mirrored must be 1, 0 or -1, not \(mirrored)")
    }
    box.output.isVideoMirrored = mirrored < 0 ? nil : mirrored == 1
    return oc_status(OC_OK)
}

@c @implementation public func oc_video_data_output_set_color_range(_ output: OpaquePointer?, _ range: oc_color_range) -> oc_status {
    guard let box = OutputBox.lookup(output) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    guard range == OC_COLOR_RANGE_VIDEO || range == OC_COLOR_RANGE_FULL else {
        return LastError.fail(
            .invalidArgument,
            "oc_video_data_output_set_color_range: \(range.rawValue) is not a range (OC_COLOR_RANGE_VIDEO or OC_COLOR_RANGE_FULL)")
    }
    box.output.yuvFullRange = range == OC_COLOR_RANGE_FULL
    return oc_status(OC_OK)
}

@c @implementation public func oc_video_data_output_get_color_range(_ output: OpaquePointer?) -> oc_color_range {
    OutputBox.lookup(output)?.output.yuvFullRange == true ? OC_COLOR_RANGE_FULL : OC_COLOR_RANGE_VIDEO
}

@c @implementation public func oc_video_data_output_set_max_frame_rate(_ output: OpaquePointer?, _ rate: oc_fraction) -> oc_status {
    guard let box = OutputBox.lookup(output) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    guard rate.numerator == 0 || rate.denominator != 0 else {
        return LastError.fail(
            .invalidArgument,
            "oc_video_data_output_set_max_frame_rate: \(rate.numerator)/0 is not a rate (give frames per second as numerator/denominator, or 0/0 for no cap)")
    }
    box.output.maximumFrameRate = rate.numerator == 0 ? nil : FrameRate(rate.numerator, rate.denominator)
    return oc_status(OC_OK)
}

@c @implementation public func oc_video_data_output_copy_next_frame(
    _ output: OpaquePointer?, _ timeoutMilliseconds: UInt32,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_video_data_output_copy_next_frame: out is NULL") }
    out.pointee = nil
    guard let box = OutputBox.lookup(output) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    guard !box.output.isStreamThread else {
        return LastError.fail(
            .wrongState, "oc_video_data_output_copy_next_frame: called on the output's own stream thread (a frame callback), where it would wait for itself")
    }
    switch box.output.latest.take(timeoutMilliseconds: timeoutMilliseconds) {
    case .frame(let copy):
        let frame = FrameBox(retaining: copy)
        frame.handle = HandleTable.register(frame)
        out.pointee = frame.handle
        return oc_status(OC_OK)
    case .timedOut:
        return LastError.fail(.timeout, "oc_video_data_output_copy_next_frame: no frame within \(timeoutMilliseconds) ms")
    case .notStreaming(let stoppedBy?):
        // The session stopped on its own: the message says why (the camera unplugged or stalled),
        // oc_video_data_output_get_stop_status() gives the status.
        return LastError.fail(.wrongState, "oc_video_data_output_copy_next_frame: the session stopped: \(stoppedBy.message)")
    case .notStreaming(nil):
        return LastError.fail(.wrongState, "oc_video_data_output_copy_next_frame: the output is not part of a running session, so no frame can come")
    case .closed:
        return LastError.fail(.wrongState, "oc_video_data_output_copy_next_frame: the output was destroyed")
    }
}

@c @implementation public func oc_video_data_output_get_stop_status(_ output: OpaquePointer?) -> oc_status {
    guard let box = OutputBox.lookup(output) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    guard let error = box.output.latest.stoppedByError else { return oc_status(OC_OK) }
    LastError.set(error.message)
    return error.code.rawValue
}

@c @implementation public func oc_video_data_output_get_pollable_fd(_ output: OpaquePointer?, _ outFD: UnsafeMutablePointer<Int32>?) -> oc_status {
    guard let outFD else { return LastError.fail(.invalidArgument, "oc_video_data_output_get_pollable_fd: out_fd is NULL") }
    outFD.pointee = -1
    return abiCall(OutputBox.lookup(output)) { (box: OutputBox) throws(OcellusError) in outFD.pointee = try box.output.latest.fileDescriptor() }
}

// MARK: Frames

@c @implementation public func oc_frame_pixel_format(_ frame: OpaquePointer?) -> UInt32 {
    FrameBox.withFrame(frame) { $0.pointee.pixelFormat.rawValue } ?? 0
}

@c @implementation public func oc_frame_width(_ frame: OpaquePointer?) -> UInt32 { FrameBox.withFrame(frame) { $0.pointee.width } ?? 0 }

@c @implementation public func oc_frame_height(_ frame: OpaquePointer?) -> UInt32 { FrameBox.withFrame(frame) { $0.pointee.height } ?? 0 }

@c @implementation public func oc_frame_sequence(_ frame: OpaquePointer?) -> UInt64 { FrameBox.withFrame(frame) { $0.pointee.sequence } ?? 0 }

@c @implementation public func oc_frame_timestamp_ns(_ frame: OpaquePointer?) -> UInt64 {
    FrameBox.withFrame(frame) { $0.pointee.timestampNanoseconds } ?? 0
}

@c @implementation public func oc_frame_is_full_range(_ frame: OpaquePointer?) -> Bool {
    FrameBox.withFrame(frame) { $0.pointee.isFullRange } ?? false
}

@c @implementation public func oc_frame_is_corrupt(_ frame: OpaquePointer?) -> Bool {
    FrameBox.withFrame(frame) { $0.pointee.isCorrupt } ?? false
}

@c @implementation public func oc_frame_plane_count(_ frame: OpaquePointer?) -> UInt32 {
    FrameBox.withFrame(frame) { UInt32($0.pointee.planeCount) } ?? 0
}

@c @implementation public func oc_frame_plane_data(
    _ frame: OpaquePointer?, _ plane: UInt32, _ size: UnsafeMutablePointer<Int>?,
    _ stride: UnsafeMutablePointer<UInt32>?
) -> UnsafePointer<UInt8>? {
    FrameBox.withFrame(frame) { current -> UnsafePointer<UInt8>? in
        guard let data = current.pointee.plane(Int(plane)) else {
            LastError.set("oc_frame_plane_data: plane \(plane) does not exist (the frame has \(current.pointee.planeCount) planes)")
            return nil
        }
        size?.pointee = data.bytes.count
        stride?.pointee = UInt32(data.stride)
        return data.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    } ?? nil
}

@c @implementation public func oc_frame_retain(_ frame: OpaquePointer?) -> OpaquePointer? {
    guard let copy = FrameBox.withFrame(frame, { FrameBox(copying: $0.pointee) }) else { return nil }
    copy.handle = HandleTable.register(copy)
    return copy.handle
}

@c @implementation public func oc_frame_release(_ frame: OpaquePointer?) {
    guard frame != nil, let box = HandleTable.lookup(frame, as: FrameBox.self, what: "frame") else { return }
    guard box.isRetained else {
        LastError.set("oc_frame_release: the frame is the one being delivered, not a retained copy (only frames from oc_frame_retain are released)")
        return
    }
    HandleTable.unregister(box.handle)
}
