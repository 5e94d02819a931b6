import OcellusCore

/// What a session is set up with: its inputs, outputs and preset. Changed as a whole between
/// `beginConfiguration` and `commitConfiguration`.
struct SessionConfiguration {
    var input: Device?
    var outputs: [VideoDataOutput] = []
    var preset = CaptureSession.Preset.high
    var audioInput: Device?
    var audioOutputs: [AudioDataOutput] = []
    var depthOutputs: [DepthDataOutput] = []
    var busFit = CaptureSession.BusFit.automatic

    /// Whether formats are chosen to fit the USB bus (behaviour §4 fit instead of fail): asked
    /// for, or automatically unless an output pins a pixel format the camera sends itself (the app
    /// wants that very stream; outputs of converted formats take whichever serves them).
    var fitsBus: Bool {
        switch busFit {
        case .on: true
        case .off: false
        case .automatic:
            !outputs.contains { output in
                output.pixelFormat.map { pinned in input?.formats.contains { $0.pixelFormat == pinned } ?? false } ?? false
            }
        }
    }

    /// The picture and depth outputs, as the streams feed them.
    var frameOutputs: [FrameOutput] { outputs + depthOutputs }
}

/// Where a session's depth outputs get their maps: the picture stream itself (a depth-only
/// camera, whose picture is its depth), or a depth stream of their own beside it.
enum DepthSource: Equatable {
    case pictureStream
    case ownStream(VideoFormat, FrameRate)
}
