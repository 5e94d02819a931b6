import OcellusCore
import OcellusMedia
import OcellusVoice

extension CaptureSession {
    /// A session whose streams come from `hub`'s backends (each device through the backend that
    /// found it), converting and scaling with libyuv and libjpeg-turbo, processing sound with the
    /// system's voice engines, and which tells the hub the camera it streams from (behaviour §2:
    /// the user preferred camera falls back to it).
    public static func system(hub: DeviceHub) -> CaptureSession {
        let session = CaptureSession(opener: hub, conversion: MediaConversion(), audio: hub,
                                     voiceEngines: SystemVoiceEngines.shared)
        session.onStreamingStarted = { [weak hub] device in hub?.noteStreaming(with: device) }
        return session
    }
}
