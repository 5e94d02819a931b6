import OcellusCore

/// Work a layer above the core does on the camera a session streams (face-driven exposure and
/// focus, Center Stage's framing, in OcellusVision). It sees the stream's frames through an
/// output of its own that pins nothing (so it never changes what the camera streams), only while
/// it has work in the stream, and is told when the camera stream stops. A companion is not one
/// of the session's outputs: the app never sees it.
public protocol SessionCompanion: AnyObject, Sendable {
    /// The session is about to stream `stream.camera`: the output to feed while it does, or nil
    /// while the companion has nothing to do with this camera (the session's frames then reach
    /// only the app's outputs, as without it). `stream.setOutput` changes that while it runs.
    func cameraStreamWillStart(_ stream: CompanionStream) -> VideoDataOutput?
    /// The camera stream stopped (asked, failed, failed to open, or before a restart in another
    /// format or from another camera), after the last frame reached the companion's output.
    /// Called before `stopRunning` returns; may be called when already stopped.
    func cameraStreamStopped()
}

/// One camera stream as its companions see it.
public struct CompanionStream: Sendable {
    public let camera: Device
    public let format: VideoFormat
    /// Center Stage's window on the stream's outputs (the companion that frames aims it).
    public let framing: FramingWindow
    /// Puts the companion's output into the stream's feed (nil: out of it) from the next frame;
    /// ignored once this stream stopped. Any thread but the stream's own (it takes the session's lock).
    public let setOutput: @Sendable (VideoDataOutput?) -> Void

    public init(camera: Device, format: VideoFormat, framing: FramingWindow, setOutput: @escaping @Sendable (VideoDataOutput?) -> Void) {
        (self.camera, self.format, self.framing, self.setOutput) = (camera, format, framing, setOutput)
    }
}
