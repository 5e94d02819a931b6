// Microphone input and audio data outputs in the C ABI (behaviour §4, §5).
import COcellus
import OcellusCapture
import OcellusCore

final class AudioOutputBox: SessionMember {
    let output = AudioDataOutput()
    weak var session: SessionBox?
    var handle: OpaquePointer!

    static let what = "audio data output"
}

@c @implementation public func oc_audio_data_output_create(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    AudioOutputBox.create(out, function: "oc_audio_data_output_create")
}

@c @implementation public func oc_capture_session_set_audio_input(_ session: OpaquePointer?, _ microphone: OpaquePointer?) -> oc_status {
    let device = microphone.map { DeviceBox.lookup($0)?.device }
    if case .some(nil) = device { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        if let device = device ?? nil { try box.session.addAudioInput(device) } else { try box.session.removeAudioInput() }
    }
}

// MARK: Microphones (behaviour §5)

@c @implementation public func oc_context_copy_default_microphone(
    _ ctx: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    copyContextDevice(ctx, out, function: "oc_context_copy_default_microphone") { $0.defaultMicrophone }
}

@c @implementation public func oc_context_copy_microphone_route(
    _ ctx: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    copyContextDevice(ctx, out, function: "oc_context_copy_microphone_route") { $0.microphoneRoute.current }
}

@c @implementation public func oc_context_copy_preferred_microphone(
    _ ctx: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    copyContextDevice(ctx, out, function: "oc_context_copy_preferred_microphone") { $0.preferredMicrophone }
}

@c @implementation public func oc_context_set_preferred_microphone(_ ctx: OpaquePointer?, _ microphone: OpaquePointer?) -> oc_status {
    let device = microphone.map { DeviceBox.lookup($0)?.device }
    if case .some(nil) = device { return oc_status(OC_ERROR_INVALID_HANDLE) }
    return abiCall(ContextBox.lookup(ctx)) { (box: ContextBox) throws(OcellusError) in
        try box.hub.setPreferredMicrophone(device ?? nil)
    }
}

@c @implementation public func oc_context_add_microphone_route_callback(
    _ ctx: OpaquePointer?,
    _ callback: oc_microphone_route_callback?,
    _ userData: UnsafeMutableRawPointer?,
    _ outID: UnsafeMutablePointer<oc_callback_id>?
) -> oc_status {
    registerCallback(ContextBox.lookup(ctx), callback, "oc_context_add_microphone_route_callback", userData, outID) { box, callback, userData in
        let contextHandle = box.handle
        return box.hub.events.addObserver { event in
            guard case .microphoneRouteChanged(let input) = event else { return }
            withBorrowedHandle(input) { callback(contextHandle, $0, userData()) }
        }
    }
}

// MARK: Audio data outputs

@c @implementation public func oc_audio_data_output_destroy(_ output: OpaquePointer?) {
    guard let box = AudioOutputBox.lookup(output),
        leaveSessionToDestroy(
            box, function: "oc_audio_data_output_destroy", inOwnCallback: box.output.isDeliveringThread,
            { (session, box) throws(OcellusError) in try session.removeAudioOutput(box.output) })
    else { return }
    box.output.sampleHandler = nil
    HandleTable.unregister(box.handle)
}

@c @implementation public func oc_capture_session_add_audio_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    addMember(AudioOutputBox.lookup(output), to: session, what: "audio data output") { (session, box) throws(OcellusError) in
        try session.addAudioOutput(box.output)
    }
}

@c @implementation public func oc_capture_session_remove_audio_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    removeMember(AudioOutputBox.lookup(output), from: session, what: "audio data output") { (session, box) throws(OcellusError) in
        try session.removeAudioOutput(box.output)
    }
}

@c @implementation public func oc_capture_session_set_audio_format(
    _ session: OpaquePointer?, _ sampleRate: UInt32,
    _ channels: UInt32
) -> oc_status {
    abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        try box.session.setAudioFormat(sampleRate: sampleRate == 0 ? nil : sampleRate, channels: channels == 0 ? nil : channels)
    }
}

@c @implementation public func oc_audio_data_output_set_callback(
    _ output: OpaquePointer?, _ callback: oc_audio_callback?,
    _ userData: UnsafeMutableRawPointer?
) -> oc_status {
    abiCall(AudioOutputBox.lookup(output)) { (box: AudioOutputBox) throws(OcellusError) in
        guard let callback else {
            box.output.sampleHandler = nil
            return
        }
        let (handle, userDataBits) = (box.handle, UInt(bitPattern: userData))
        box.output.sampleHandler = { buffer in
            callback(
                handle, buffer.samples.baseAddress, buffer.frameCount, buffer.format.channels, buffer.format.sampleRate,
                buffer.timestampNanoseconds, UnsafeMutableRawPointer(bitPattern: userDataBits))
        }
    }
}

@c @implementation public func oc_audio_data_output_delivered_frames(_ output: OpaquePointer?) -> UInt64 {
    AudioOutputBox.lookup(output)?.output.deliveredFrames ?? 0
}

@c @implementation public func oc_audio_data_output_dropped_frames(_ output: OpaquePointer?) -> UInt64 {
    AudioOutputBox.lookup(output)?.output.droppedFrames ?? 0
}

// MARK: Microphone modes

private let microphoneModeNames = NameTable(
    "microphone mode",
    Dictionary(uniqueKeysWithValues: MicrophoneMode.allCases.map { ($0.rawValue, $0.name) }))

@c @implementation public func oc_microphone_mode_name(_ mode: oc_microphone_mode) -> UnsafePointer<CChar>? {
    microphoneModeNames.name(Int32(bitPattern: mode.rawValue), function: "oc_microphone_mode_name")
}

@c @implementation public func oc_capture_session_set_preferred_microphone_mode(
    _ session: OpaquePointer?,
    _ mode: oc_microphone_mode
) -> oc_status {
    abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        guard let preferred = MicrophoneMode(rawValue: Int32(bitPattern: mode.rawValue)) else {
            throw OcellusError(.invalidArgument, "\(mode.rawValue) is not a microphone mode")
        }
        try box.session.setPreferredMicrophoneMode(preferred)
    }
}

@c @implementation public func oc_capture_session_get_microphone_mode(
    _ session: OpaquePointer?,
    _ preferred: UnsafeMutablePointer<oc_microphone_mode>?,
    _ active: UnsafeMutablePointer<oc_microphone_mode>?,
    _ engine: UnsafeMutablePointer<CChar>?, _ engineSize: Int,
    _ reason: UnsafeMutablePointer<CChar>?, _ reasonSize: Int
) -> oc_status {
    abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        let state = box.session.microphoneMode
        preferred?.pointee = oc_microphone_mode(UInt32(bitPattern: state.preferred.rawValue))
        active?.pointee = oc_microphone_mode(UInt32(bitPattern: state.active.rawValue))
        _ = copyText(state.engine, into: engine, size: engineSize)
        _ = copyText(state.reason, into: reason, size: reasonSize)
    }
}

@c @implementation public func oc_capture_session_get_echo_cancellation(
    _ session: OpaquePointer?,
    _ canceller: UnsafeMutablePointer<CChar>?, _ cancellerSize: Int,
    _ reason: UnsafeMutablePointer<CChar>?, _ reasonSize: Int
) -> oc_status {
    abiCall(SessionBox.lookup(session)) { (box: SessionBox) throws(OcellusError) in
        let state = box.session.microphoneMode
        _ = copyText(state.echoCancellation, into: canceller, size: cancellerSize)
        _ = copyText(state.echoCancellationReason, into: reason, size: reasonSize)
    }
}
