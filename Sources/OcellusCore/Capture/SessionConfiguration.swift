/// What a session is set up with: its inputs, outputs and preset. Changed as a whole between
/// `beginConfiguration` and `commitConfiguration`.
struct SessionConfiguration {
    var input: Device?
    var outputs: [VideoDataOutput] = []
    var preset = CaptureSession.Preset.high
    var audioInput: Device?
    var audioOutputs: [AudioDataOutput] = []
    var depthOutputs: [DepthDataOutput] = []

    /// The picture and depth outputs, as the streams feed them.
    var frameOutputs: [FrameOutput] { outputs + depthOutputs }
}

/// Where a session's depth outputs get their maps: the picture stream itself (a depth-only
/// camera, whose picture is its depth), or a depth stream of their own beside it.
enum DepthSource: Equatable {
    case pictureStream
    case ownStream(VideoFormat, FrameRate)
}
