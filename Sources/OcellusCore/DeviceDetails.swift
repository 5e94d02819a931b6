/// What the system told about a device beyond its identity, typed: the facts policies read
/// (rotation, mirroring, bus cost, lookup by path, default-device routing, photo metadata).
/// Backends fill them beside the property dictionary, which is for display only
/// (`oc_device_get_property`, `list --json`): no policy reads a display string.
public struct DeviceDetails: Sendable, Equatable {
    /// What feeds a video function, from its USB descriptors.
    public enum VideoInput: Sendable, Equatable {
        /// A camera terminal: a sensor looking at the user or the scene.
        case camera
        /// An external connector (HDMI, composite): a capture device showing a picture.
        case connector
    }

    /// Degrees the sensor is mounted, counter-clockwise (`V4L2_CID_CAMERA_SENSOR_ROTATION`,
    /// libcamera's rotation property); nil when the system does not say.
    public var sensorRotation: Int?
    public var videoInput: VideoInput?
    /// The USB bus the video function streams on and what it can reserve there (nil off USB,
    /// or when the descriptors could not be read).
    public var usbLink: USBLink?
    /// The maker and model as the device names them (USB strings), for photo metadata.
    public var vendorName: String?
    public var productName: String?
    /// The V4L2 device nodes (`/dev/videoN`) of the device, the one that streams the picture first.
    public var videoNodes: [String] = []
    /// The path part of a PipeWire node's `object.path` (`v4l2:/dev/video0` → `/dev/video0`):
    /// another name a user may give the device by.
    public var objectPath: String?
    /// The name the system's default-device setting uses for this node (PipeWire `node.name`).
    public var defaultDeviceName: String?
    /// A microphone's own rate and channel count (what it sends unless asked otherwise); nil
    /// when the system does not say.
    public var soundFormat: AudioFormat?

    public init() {}

    /// Whether `path` names this device: one of its V4L2 nodes or its object path.
    public func isNamed(byPath path: String) -> Bool { videoNodes.contains(path) || objectPath == path }
}
