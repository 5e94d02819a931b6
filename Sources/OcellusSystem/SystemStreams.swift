import OcellusCore
import OcellusMedia
import OcellusPipeWire
import OcellusV4L2

/// Opens a camera's stream through the backend that found it: PipeWire by
/// `object.serial` (the hub keys PipeWire devices by it), V4L2 by its node.
public struct SystemStreamOpener: CameraStreamOpening {
    public let pipewireRemote: PipeWireRemote
    /// The app the streams belong to, named on PipeWire's clients and nodes.
    public let application: PipeWireApplication?

    public init(pipewireRemote: PipeWireRemote = nil, appID: String? = nil) {
        self.pipewireRemote = pipewireRemote
        application = appID.map(PipeWireApplication.init(id:))
    }

    public func openStream(for device: Device, format: VideoFormat, frameRate: FrameRate,
                           handler: @escaping (CameraStreamEvent) -> Void) throws(OcellusError) -> any CameraStream {
        guard device.isConnected else { throw OcellusError(.disconnected, "\(device.uniqueID) is disconnected") }
        switch device.backend {
        case .pipewire:
            return try PipeWireStream(remote: pipewireRemote, objectSerial: device.backendKey, format: format,
                                      frameRate: frameRate, application: application, deviceName: device.name, handler: handler)
        case .v4l2:
            guard !pipewireRemote.isDescriptor else {
                throw OcellusError(.permissionDenied, "\(device.uniqueID) is a V4L2 device, which a sandboxed app cannot open (cameras come through the camera portal)")
            }
            guard let primary = device.details.videoNodes.first else {
                throw OcellusError(.notFound, "\(device.uniqueID) has no V4L2 node")
            }
            // The node that lists this format at this size (a device's formats may span nodes).
            let nodes = device.details.videoNodes.map { $0.split(separator: "/").last.map(String.init) ?? "" }
            let path = V4L2Discovery(system: defaultV4L2System()).node(offering: format, among: nodes).map { "/dev/" + $0 } ?? primary
            return try V4L2CameraStream(devicePath: path, format: format, frameRate: frameRate, handler: handler)
        }
    }
}

extension SystemStreamOpener: AudioStreamOpening {
    /// Microphones come from PipeWire (keyed by `object.serial`); raw V4L2 has no audio.
    public func openAudioStream(for device: Device, format: AudioFormat,
                                handler: @escaping (AudioStreamEvent) -> Void) throws(OcellusError) -> any AudioStream {
        guard device.isConnected else { throw OcellusError(.disconnected, "\(device.uniqueID) is disconnected") }
        guard device.type == .microphone, device.backend == .pipewire else {
            throw OcellusError(.invalidArgument, "\(device.uniqueID) is not a PipeWire microphone")
        }
        return try PipeWireAudioStream(remote: pipewireRemote, objectSerial: device.backendKey, format: format,
                                       application: application, deviceName: device.name, handler: handler)
    }
}

extension CaptureSession {
    /// A session over the system's backends, converting and scaling with libyuv and libjpeg-turbo,
    /// with microphones from PipeWire.
    /// `appID` names the session's streams in PipeWire (`application.id`, `node.description`).
    public static func system(pipewireRemote: PipeWireRemote = nil, appID: String? = nil) -> CaptureSession {
        let opener = SystemStreamOpener(pipewireRemote: pipewireRemote, appID: appID)
        return CaptureSession(opener: opener, conversion: MediaConversion(), audio: opener)
    }
}
