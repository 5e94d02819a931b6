import OcellusCore

extension CaptureSession {
    /// What happens to a running session, told on its event thread (`events`).
    public enum Event: Sendable {
        case started
        case stopped
        /// The stream ended on its own (camera disconnected, daemon gone, driver error); the session stopped.
        case runtimeError(OcellusError)
        /// The camera is in use by another client; the session keeps trying.
        case interrupted(OcellusError)
        /// The camera became free and the session started (`started` follows).
        case interruptionEnded
        /// The `microphone` device's new input could not be opened; the session runs without
        /// sound until the route changes again.
        case audioInterrupted(OcellusError)
        /// Automatic switching made this camera the input (behaviour §4).
        case inputSwitched(Device)
        /// Automatic switching wants this camera but waits for the recording to end.
        case switchDeferred(Device)
        /// Automatic switching could not move to this camera; the session kept its input.
        case switchFailed(Device, OcellusError)
        /// A recording's encoder cannot keep up: it records fewer frames, as the error says.
        case recordingDegraded(OcellusError)
        /// The active microphone mode or its engine changed (behaviour §4 microphone modes).
        case microphoneModeChanged(MicrophoneModeState)
        /// The camera runs another format than the outputs and preset would have on an idle bus,
        /// to fit its USB bus (behaviour §4 fit instead of fail) or because another app streams it
        /// in that format. Boxed: inline, the largest payload made every event that large, and memcheck reported
        /// reads of its padding in each switch over events.
        indirect case formatFallback(FormatFallback)
    }

    /// A format run to fit the bus instead of the one wanted, and why.
    public struct FormatFallback: Sendable, CustomStringConvertible {
        public let camera: Device
        public let wanted: (format: VideoFormat, rate: FrameRate)
        public let chosen: (format: VideoFormat, rate: FrameRate)
        public let reason: String
        /// `.noResources` for the bus, `.busy` for a format another app streams the camera in.
        public let code: ErrorCode

        public init(
            camera: Device, wanted: (format: VideoFormat, rate: FrameRate), chosen: (format: VideoFormat, rate: FrameRate),
            reason: String, code: ErrorCode = .noResources
        ) {
            (self.camera, self.wanted, self.chosen, self.reason, self.code) = (camera, wanted, chosen, reason, code)
        }

        public var description: String {
            "\(camera.uniqueID) runs \(HardwareCost.describe(chosen.format, chosen.rate)) instead of "
                + "\(HardwareCost.describe(wanted.format, wanted.rate)): \(reason)"
        }
    }
}
