// Depth data outputs, depth maps and the output synchronizer in the C ABI (behaviour §4, depth).
import COcellus
import OcellusCapture
import OcellusCore

/// An output's box as a synchronizer holds it: a video or a depth output's.
protocol SynchronizedOutputBox: AnyObject {
    var synchronizer: SynchronizerBox? { get set }
    var frameOutput: FrameOutput { get }
}

extension FrameOutputBox: SynchronizedOutputBox {
    var frameOutput: FrameOutput { output }
}

final class SynchronizerBox {
    let synchronizer: OutputSynchronizer
    let outputs: (first: any SynchronizedOutputBox, second: any SynchronizedOutputBox)
    let firstView = FrameBox(), secondView = FrameBox()
    var handle: OpaquePointer!

    init(_ first: any SynchronizedOutputBox, _ second: any SynchronizedOutputBox) {
        synchronizer = OutputSynchronizer(pairing: first.frameOutput, second.frameOutput)
        outputs = (first, second)
        firstView.handle = HandleTable.register(firstView)
        secondView.handle = HandleTable.register(secondView)
    }

    /// `oc_output_synchronizer_create*`: a synchronizer of two outputs that have none.
    static func create(
        _ first: (any SynchronizedOutputBox)?, _ second: (any SynchronizedOutputBox)?,
        _ out: UnsafeMutablePointer<OpaquePointer?>?, function: String
    ) -> oc_status {
        guard let out else { return LastError.fail(.invalidArgument, "\(function): out is NULL") }
        out.pointee = nil
        guard let first, let second else { return oc_status(OC_ERROR_INVALID_HANDLE) }
        guard first !== second else { return LastError.fail(.invalidArgument, "\(function): the two outputs are one") }
        guard !first.frameOutput.isDeliveringThread && !second.frameOutput.isDeliveringThread else {
            return LastError.fail(.wrongState, "\(function): called from an output's own frame callback")
        }
        // The check and the claim are one step: two synchronizers made at once cannot share an
        // output. The frames are taken after, outside the lock (that waits for a delivery in flight).
        let box: SynchronizerBox? = outputLinks.withLock { _ in
            guard first.synchronizer == nil && second.synchronizer == nil else { return nil }
            let box = SynchronizerBox(first, second)
            (first.synchronizer, second.synchronizer) = (box, box)
            return box
        }
        guard let box else { return LastError.fail(.wrongState, "\(function): an output already belongs to a synchronizer") }
        box.synchronizer.attach()
        box.handle = HandleTable.register(box)
        out.pointee = box.handle
        return oc_status(OC_OK)
    }

    static func lookup(_ handle: OpaquePointer?) -> SynchronizerBox? {
        HandleTable.lookup(handle, as: SynchronizerBox.self, what: "output synchronizer")
    }
}

/// The frame callback of an output the synchronizer does not own; `name` for the message.
func refuseIfSynchronized(_ synchronizer: SynchronizerBox?, _ function: String) throws(OcellusError) {
    guard synchronizer == nil else {
        throw OcellusError(
            .wrongState, "\(function): the output is synchronized: its frames go to the synchronizer's callback (destroy the synchronizer first)")
    }
}

@c @implementation public func oc_depth_data_output_create(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    DepthOutputBox.create(out, function: "oc_depth_data_output_create")
}

@c @implementation public func oc_depth_data_output_destroy(_ output: OpaquePointer?) {
    DepthOutputBox.destroy(output, function: "oc_depth_data_output_destroy")
}

@c @implementation public func oc_depth_data_output_set_frame_callback(
    _ output: OpaquePointer?, _ callback: oc_depth_callback?,
    _ userData: UnsafeMutableRawPointer?
) -> oc_status {
    DepthOutputBox.setFrameCallback(output, callback, userData, function: "oc_depth_data_output_set_frame_callback")
}

@c @implementation public func oc_depth_data_output_delivered_frames(_ output: OpaquePointer?) -> UInt64 {
    DepthOutputBox.lookup(output)?.output.deliveredFrames ?? 0
}

@c @implementation public func oc_depth_data_output_dropped_frames(_ output: OpaquePointer?, _ reason: oc_drop_reason) -> UInt64 {
    DepthOutputBox.droppedFrames(output, reason, function: "oc_depth_data_output_dropped_frames")
}

@c @implementation public func oc_depth_data_output_set_format(
    _ output: OpaquePointer?, _ pixelFormat: UInt32,
    _ width: UInt32, _ height: UInt32
) -> oc_status {
    abiCall(DepthOutputBox.lookup(output)) { (box: DepthOutputBox) throws(OcellusError) in
        let format = FourCC(rawValue: pixelFormat)
        guard pixelFormat == 0 || format.isDepthMap || format == .depthMetres else {
            throw OcellusError(
                .invalidArgument,
                "oc_depth_data_output_set_format: \(format.name) is not a depth map format (Z16, Y16, Y12, or OC_PIXEL_FORMAT_DEPTH32F for metres)")
        }
        try box.output.pinSize(width, height)
        box.output.pixelFormat = pixelFormat == 0 ? nil : format
    }
}

@c @implementation public func oc_capture_session_add_depth_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    addMember(DepthOutputBox.lookup(output), to: session, what: "depth output") { (session, box) throws(OcellusError) in
        try session.addDepthOutput(box.output)
    }
}

@c @implementation public func oc_capture_session_remove_depth_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    removeMember(DepthOutputBox.lookup(output), from: session, what: "depth output") { (session, box) throws(OcellusError) in
        try session.removeDepthOutput(box.output)
    }
}

@c @implementation public func oc_capture_session_can_add_depth_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> Bool {
    guard let box = SessionBox.lookup(session), let outputBox = DepthOutputBox.lookup(output) else { return false }
    return outputBox.session == nil && box.session.canAddDepthOutput(outputBox.output)
}

@c @implementation public func oc_capture_session_get_active_depth_format(
    _ session: OpaquePointer?, _ pixelFormat: UnsafeMutablePointer<UInt32>?,
    _ width: UnsafeMutablePointer<UInt32>?, _ height: UnsafeMutablePointer<UInt32>?,
    _ frameRate: UnsafeMutablePointer<oc_fraction>?
) -> oc_status {
    abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        guard box.session.isRunning, let format = box.session.activeDepthFormat else {
            throw OcellusError(
                .wrongState,
                box.session.isRunning
                    ? "oc_capture_session_get_active_depth_format: the session has no depth output"
                    : "oc_capture_session_get_active_depth_format: the session is not running")
        }
        pixelFormat?.pointee = format.pixelFormat.rawValue
        width?.pointee = format.width
        height?.pointee = format.height
        let rate = format.maxFrameRate
        frameRate?.pointee = oc_fraction(numerator: rate?.numerator ?? 0, denominator: rate?.denominator ?? 0)
    }
}

@c @implementation public func oc_frame_depth_unit(_ frame: OpaquePointer?) -> Float {
    FrameBox.withFrame(frame) { $0.pointee.depthUnit } ?? 0
}

// MARK: The synchronizer

@c @implementation public func oc_output_synchronizer_create(
    _ video: OpaquePointer?, _ depth: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    SynchronizerBox.create(OutputBox.lookup(video), DepthOutputBox.lookup(depth), out, function: "oc_output_synchronizer_create")
}

@c @implementation public func oc_output_synchronizer_create_for_cameras(
    _ first: OpaquePointer?, _ second: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    SynchronizerBox.create(OutputBox.lookup(first), OutputBox.lookup(second), out, function: "oc_output_synchronizer_create_for_cameras")
}

@c @implementation public func oc_output_synchronizer_destroy(_ synchronizer: OpaquePointer?) {
    guard let box = SynchronizerBox.lookup(synchronizer) else { return }
    guard !box.synchronizer.isDeliveringThread else {
        LastError.set("oc_output_synchronizer_destroy: called from the synchronizer's own callback (clear the callback there, destroy after)")
        return
    }
    box.synchronizer.pairHandler = nil
    box.synchronizer.detach() // waits for a delivery in flight
    outputLinks.withLock { _ in (box.outputs.first.synchronizer, box.outputs.second.synchronizer) = (nil, nil) }
    HandleTable.unregister(box.firstView.handle)
    HandleTable.unregister(box.secondView.handle)
    HandleTable.unregister(box.handle)
}

@c @implementation public func oc_output_synchronizer_set_callback(
    _ synchronizer: OpaquePointer?, _ callback: oc_synchronized_callback?,
    _ userData: UnsafeMutableRawPointer?
) -> oc_status {
    guard let box = SynchronizerBox.lookup(synchronizer) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    guard let callback else {
        box.synchronizer.pairHandler = nil
        return oc_status(OC_OK)
    }
    let (handle, firstView, secondView) = (box.handle, box.firstView, box.secondView)
    let userDataBits = UInt(bitPattern: userData)
    box.synchronizer.pairHandler = { pair in
        withUnsafePointer(to: pair.first) { first in
            withUnsafePointer(to: pair.second) { second in
                firstView.deliver(first) {
                    secondView.deliver(second) {
                        callback(handle, firstView.handle, secondView.handle, UnsafeMutableRawPointer(bitPattern: userDataBits))
                    }
                }
            }
        }
    }
    return oc_status(OC_OK)
}

@c @implementation public func oc_output_synchronizer_delivered_pairs(_ synchronizer: OpaquePointer?) -> UInt64 {
    SynchronizerBox.lookup(synchronizer)?.synchronizer.deliveredPairs ?? 0
}

@c @implementation public func oc_output_synchronizer_unmatched_frames(_ synchronizer: OpaquePointer?, _ stream: oc_sync_stream) -> UInt64 {
    guard let box = SynchronizerBox.lookup(synchronizer) else { return 0 }
    guard let side = OutputSynchronizer.Side(rawValue: Int(stream.rawValue)) else {
        LastError.set("oc_output_synchronizer_unmatched_frames: unknown stream \(stream.rawValue)")
        return 0
    }
    return box.synchronizer.unmatchedFrames(side)
}

@c @implementation public func oc_device_depth_format_count(_ device: OpaquePointer?) -> Int {
    DeviceBox.lookup(device)?.device.depthFormats.count ?? 0
}

@c @implementation public func oc_device_get_depth_format(
    _ device: OpaquePointer?, _ index: Int,
    _ info: UnsafeMutablePointer<oc_format_info>?
) -> oc_status {
    guard let box = DeviceBox.lookup(device) else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return describeFormat(
        index, of: box.device.depthFormats, rates: box.depthFrameRates, into: info,
        function: "oc_device_get_depth_format", what: "depth formats")
}

@c @implementation public func oc_device_depth_format_runs_beside(
    _ device: OpaquePointer?, _ formatIndex: Int,
    _ depthFormatIndex: Int
) -> Bool {
    guard let device = DeviceBox.lookup(device)?.device else { return false }
    guard device.formats.indices.contains(formatIndex), device.depthFormats.indices.contains(depthFormatIndex) else {
        LastError.set(
            "oc_device_depth_format_runs_beside: format \(formatIndex) or depth format \(depthFormatIndex) is out of range (the device has \(device.formats.count) formats and \(device.depthFormats.count) depth formats)"
        )
        return false
    }
    return device.depthFormats(beside: device.formats[formatIndex]).contains(device.depthFormats[depthFormatIndex])
}
