import OcellusCapture
import OcellusCore
import OcellusMedia
import OcellusUSB
import OcellusVision
import OcellusVoice

extension CaptureSession {
    /// A session whose streams come from `hub`'s backends (each device through the backend that
    /// found it), converting and scaling with libyuv and libjpeg-turbo, processing sound with the
    /// system's voice engines, and which tells the hub the camera it streams from (behaviour §2:
    /// the user preferred camera falls back to it), and whose camera's exposure and focus follow
    /// the faces in view where the camera allows and the app has not said otherwise, and whose
    /// outputs frame the faces while the app has Center Stage on for the camera (behaviour §4).
    public static func system(hub: DeviceHub, bus: any USBBusReading = USBBusReservations()) -> CaptureSession {
        connected(
            to: hub,
            CaptureSession(
                opener: hub, conversion: MediaConversion(), audio: hub,
                voiceEngines: SystemVoiceEngines.shared, bus: bus))
    }

    /// A multi-camera session's branch made as `system(hub:)` makes a session.
    public static func system(hub: DeviceHub, branch: MultiCamBranch) -> CaptureSession {
        connected(
            to: hub,
            CaptureSession(
                branch: branch, opener: hub, conversion: MediaConversion(), audio: hub,
                voiceEngines: SystemVoiceEngines.shared))
    }

    private static func connected(to hub: DeviceHub, _ session: CaptureSession) -> CaptureSession {
        session.onStreamingStarted = { [weak hub] device in hub?.noteStreaming(with: device) }
        session.addCompanion(
            FaceDrivenAdjustment(settings: hub.faceDriven) { [weak hub] device throws(OcellusError) in
                guard let hub else { throw OcellusError(.wrongState, "the context is gone") }
                return try hub.controller(for: device)
            })
        session.addCompanion(CenterStageFraming(settings: hub.centerStage))
        return session
    }
}

extension MultiCamSession {
    /// A multi-camera session whose branches are `CaptureSession.system` sessions of `hub`,
    /// counting the USB buses as sysfs shows them.
    public static func system(hub: DeviceHub) -> MultiCamSession {
        MultiCamSession(bus: USBBusReservations()) { branch in CaptureSession.system(hub: hub, branch: branch) }
    }
}
