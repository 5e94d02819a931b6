// Movie file outputs in the C ABI (behaviour §4).
import COcellus
import OcellusCore
import OcellusMedia

final class MovieBox: SessionMember {
    let movie = MovieFileOutput()
    weak var session: SessionBox?
    var handle: OpaquePointer!

    static let what = "movie file output"
}

@c @implementation public func oc_movie_file_output_create(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    MovieBox.create(out, function: "oc_movie_file_output_create")
}

@c @implementation public func oc_movie_file_output_destroy(_ output: OpaquePointer?) {
    guard let box = MovieBox.lookup(output) else { return }
    HandleTable.unregister(box.handle)
    try? box.movie.detach()
    box.movie.close()
}

@c @implementation public func oc_capture_session_add_movie_file_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    addMember(MovieBox.lookup(output), to: session, what: "movie file output") { (session, box) throws(OcellusError) in
        try box.movie.attach(to: session)
    }
}

@c @implementation public func oc_capture_session_remove_movie_file_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    removeMember(MovieBox.lookup(output), from: session, what: "movie file output") { (_, box) throws(OcellusError) in
        try box.movie.detach()
    }
}

@c @implementation public func oc_movie_file_output_set_rotation_angle(_ output: OpaquePointer?, _ degrees: Int32) -> oc_status {
    abiCall(MovieBox.lookup(output)) { (box: MovieBox) throws(OcellusError) in try box.movie.setVideoRotationAngle(Int(degrees)) }
}

@c @implementation public func oc_movie_file_output_set_size(_ output: OpaquePointer?, _ width: UInt32, _ height: UInt32) -> oc_status {
    abiCall(MovieBox.lookup(output)) { (box: MovieBox) throws(OcellusError) in try box.movie.videoOutput.pinSize(width, height) }
}

@c @implementation public func oc_movie_file_output_start_recording(
    _ output: OpaquePointer?, _ path: UnsafePointer<CChar>?,
    _ callback: oc_recording_callback?,
    _ userData: UnsafeMutableRawPointer?
) -> oc_status {
    abiCall(MovieBox.lookup(output)) { (box: MovieBox) throws(OcellusError) in
        guard let path else { throw OcellusError(.invalidArgument, "oc_movie_file_output_start_recording: path is NULL") }
        guard let callback else { throw OcellusError(.invalidArgument, "oc_movie_file_output_start_recording: callback is NULL") }
        let (handle, userDataBits) = (box.handle, UInt(bitPattern: userData))
        try box.movie.startRecording(to: stringArgument(path, "oc_movie_file_output_start_recording: path")) { result in
            let summary = result.summary
            summary.path.withCString { cPath in
                summary.videoCodec.withCString { codec in
                    var view = oc_recording_summary(
                        path: cPath, bytes: summary.bytes, width: summary.width, height: summary.height,
                        duration: summary.duration, frames: UInt64(summary.frames),
                        dropped_frames: UInt64(summary.droppedFrames), rotation: Int32(summary.rotation),
                        video_codec: codec, audio_duration: summary.audioDuration,
                        dropped_audio_frames: UInt64(summary.droppedAudioFrames))
                    (result.error?.message ?? "").withCString { message in
                        callback(
                            handle, result.error?.code.rawValue ?? oc_status(OC_OK), message, &view,
                            UnsafeMutableRawPointer(bitPattern: userDataBits))
                    }
                }
            }
        }
    }
}

@c @implementation public func oc_movie_file_output_stop_recording(_ output: OpaquePointer?) -> oc_status {
    abiCall(MovieBox.lookup(output)) { (box: MovieBox) throws(OcellusError) in box.movie.stopRecording() }
}

@c @implementation public func oc_movie_file_output_is_recording(_ output: OpaquePointer?) -> Bool {
    MovieBox.lookup(output)?.movie.isRecording ?? false
}

@c @implementation public func oc_movie_file_output_recorded_duration(_ output: OpaquePointer?) -> Double {
    MovieBox.lookup(output)?.movie.recordedDuration ?? 0
}
