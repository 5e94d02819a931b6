import OcellusCore
import OcellusMedia
import OcellusPipeWire
import OcellusV4L2

/// Opens a camera's stream through the backend that found it: PipeWire by
/// `object.serial` (the hub keys PipeWire devices by it), V4L2 by its node.
public struct SystemStreamOpener: CameraStreamOpening {
    public let pipewireRemote: String?

    public init(pipewireRemote: String? = nil) {
        self.pipewireRemote = pipewireRemote
    }

    public func openStream(for device: Device, format: VideoFormat, frameRate: FrameRate,
                           handler: @escaping (CameraStreamEvent) -> Void) throws(OcellusError) -> any CameraStream {
        guard device.isConnected else { throw OcellusError(.disconnected, "\(device.uniqueID) is disconnected") }
        switch device.backend {
        case .pipewire:
            return try PipeWireStream(remote: pipewireRemote, objectSerial: device.backendKey, format: format,
                                      frameRate: frameRate, handler: handler)
        case .v4l2:
            guard let path = device.properties["api.v4l2.path"] else {
                throw OcellusError(.notFound, "\(device.uniqueID) has no V4L2 node")
            }
            return try V4L2CameraStream(devicePath: path, format: format, frameRate: frameRate, handler: handler)
        }
    }
}

extension CaptureSession {
    /// A session over the system's backends, converting and scaling with libyuv and libjpeg-turbo.
    public static func system(pipewireRemote: String? = nil) -> CaptureSession {
        CaptureSession(opener: SystemStreamOpener(pipewireRemote: pipewireRemote), conversion: MediaConversion())
    }
}
