/// Work a layer above the core does on the camera a session streams (face-driven exposure and
/// focus, in OcellusVision). It sees the stream's frames through an output of its own that pins
/// nothing (so it never changes what the camera streams), only for the streams it has work in,
/// and is told when the camera stream stops. A companion is not one of the session's outputs:
/// the app never sees it.
public protocol SessionCompanion: AnyObject, Sendable {
    /// The session is about to stream `camera` in `format`: the output to feed while it does,
    /// or nil when the companion has nothing to do with this camera (the session's frames then
    /// reach only the app's outputs, as without it).
    func cameraStreamWillStart(_ camera: Device, format: VideoFormat) -> VideoDataOutput?
    /// The camera stream stopped (asked, failed, failed to open, or before a restart in another
    /// format or from another camera), after the last frame reached the companion's output.
    /// Called before `stopRunning` returns; may be called when already stopped.
    func cameraStreamStopped()
}
