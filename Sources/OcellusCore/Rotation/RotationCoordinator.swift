/// behaviour §3 rotation coordinator: the clockwise angles (0, 90, 180, 270) that make
/// a camera's stored frames upright (capture angle) and its preview level with
/// gravity as the user sees it (preview angle), from the host's orientation H,
/// the interface orientation I, the sensor mounting S, and — for a camera that
/// does not move with the host — the user's mounting correction M.
public final class RotationCoordinator: @unchecked Sendable {
    public enum CameraKind: Sendable, Equatable {
        /// Faces the user, moves with the host.
        case builtInFront
        /// Faces away from the user, moves with the host.
        case builtInBack
        /// Does not move with the host (USB webcam, HDMI capture, virtual camera).
        case external
    }

    /// The orientation the app's UI is laid out for.
    public enum InterfaceOrientation: Sendable, Equatable {
        case fixed(Int)
        /// A UI that rotates with the device: I = H.
        case followsDevice
    }

    public struct Angles: Sendable, Equatable {
        public let preview: Int
        public let capture: Int
    }

    public let kind: CameraKind
    /// S: the clockwise rotation that makes a stored, unmirrored frame upright with the host in its natural orientation.
    public let sensorMounting: Int
    public let previewMirrored: Bool
    /// Observers get the new angles on a library thread after every change.
    public let changes = EventThread<Angles>()

    private let lock = ConditionLock()
    private var host = 0
    private var interface = InterfaceOrientation.followsDevice
    private var mounting: Int
    private var current: Angles

    public init(kind: CameraKind, sensorMounting: Int, mountingCorrection: Int = 0, previewMirrored: Bool) throws(OcellusError) {
        self.kind = kind
        self.sensorMounting = try Self.rightAngle(sensorMounting, "sensor mounting")
        mounting = try Self.rightAngle(mountingCorrection, "mounting correction")
        self.previewMirrored = previewMirrored
        current = Angles(preview: 0, capture: 0)
        current = lock.withLock { compute() }
    }

    /// A coordinator for `device`: its kind from type and position, S from the driver.
    public convenience init(device: Device, mountingCorrection: Int = 0, previewMirrored: Bool? = nil) throws(OcellusError) {
        guard device.type.isCamera else { throw OcellusError(.invalidArgument, "\(device.uniqueID) is not a camera") }
        let kind = Self.kind(of: device)
        try self.init(
            kind: kind, sensorMounting: Self.sensorMounting(of: device), mountingCorrection: mountingCorrection,
            previewMirrored: previewMirrored ?? (kind != .builtInBack))
    }

    public var angles: Angles { lock.withLock { current } }

    /// H, e.g. from iio-sensor-proxy: normal 0, left-up 90, bottom-up 180, right-up 270.
    public func setHostOrientation(_ degrees: Int) throws(OcellusError) {
        let value = try Self.rightAngle(degrees, "host orientation")
        update { $0.host = value }
    }

    public func setInterfaceOrientation(_ orientation: InterfaceOrientation) throws(OcellusError) {
        if case .fixed(let degrees) = orientation { _ = try Self.rightAngle(degrees, "interface orientation") }
        update { $0.interface = orientation }
    }

    /// M, for external cameras (ignored for built-in ones).
    public func setMountingCorrection(_ degrees: Int) throws(OcellusError) {
        let value = try Self.rightAngle(degrees, "mounting correction")
        update { $0.mounting = value }
    }

    private func update(_ change: (RotationCoordinator) -> Void) {
        let changed: Angles? = lock.withLock {
            change(self)
            let next = compute()
            defer { current = next }
            return next == current ? nil : next
        }
        if let changed { changes.post(changed) }
    }

    /// behaviour §3 formulas (lock held).
    private func compute() -> Angles {
        let interfaceAngle: Int =
            switch interface {
            case .fixed(let degrees): degrees
            case .followsDevice: host
            }
        let capture =
            switch kind {
            case .builtInBack: sensorMounting + host
            case .builtInFront: sensorMounting - host
            case .external: mounting // the host's rotation is irrelevant: this camera did not move
            }
        let preview = previewMirrored ? capture + host - interfaceAngle : capture - host + interfaceAngle
        return Angles(preview: Self.normalized(preview), capture: Self.normalized(capture))
    }

    public static func normalized(_ degrees: Int) -> Int { ((degrees % 360) + 360) % 360 }

    static func rightAngle(_ degrees: Int, _ what: String) throws(OcellusError) -> Int {
        guard degrees % 90 == 0 else {
            throw OcellusError(.invalidArgument, "\(what) must be a multiple of 90 degrees, not \(degrees)")
        }
        return normalized(degrees)
    }

    public static func kind(of device: Device) -> CameraKind {
        switch (device.type, device.position) {
        case (.builtInCamera, .back), (.depthCamera, .back): .builtInBack
        case (.builtInCamera, _), (.depthCamera, .front): .builtInFront
        default: .external
        }
    }

    /// Only external cameras take a mounting correction M: others move with the host, and a
    /// virtual camera's picture has no mounting (it is whatever its producer sends).
    public static func checkTakesMountingCorrection(_ device: Device) throws(OcellusError) {
        guard device.type != .virtualCamera else {
            throw OcellusError(.invalidArgument, "\(device.uniqueID) is a virtual camera; only external cameras take a mounting correction")
        }
        guard kind(of: device) == .external else {
            throw OcellusError(.invalidArgument, "\(device.uniqueID) moves with the host; only external cameras take a mounting correction")
        }
    }

    /// S from V4L2's `V4L2_CID_CAMERA_SENSOR_ROTATION` or libcamera's rotation property,
    /// both counter-clockwise: the clockwise correction is their negation.
    public static func sensorMounting(of device: Device) -> Int {
        normalized(-(device.details.sensorRotation ?? 0))
    }

    /// behaviour §4 mirroring default: on for front and external cameras; off for back cameras,
    /// HDMI/AV capture devices (which show a picture, not the user) and side-by-side stereo
    /// cameras (mirroring the whole frame swaps the eyes). A capture device is told by what its
    /// USB descriptors say feeds it (`DeviceDetails.videoInput`), and by its name only when nothing did.
    public static func mirrorsByDefault(_ device: Device) -> Bool {
        if kind(of: device) == .builtInBack || isSideBySideStereo(device) { return false }
        switch device.details.videoInput {
        case .connector: return false
        case .camera: return true
        case nil:
            let name = (device.name + " " + (device.details.productName ?? "")).lowercased()
            let captureWords = ["hdmi", "capture", "cam link", "video grabber", "usb3. 0 capture", "av to usb"]
            return !captureWords.contains { name.contains($0) }
        }
    }

    /// Every format at least 5:2 wide: two pictures side by side (2x 4:3 is 8:3, 2x 16:9 is 32:9).
    static func isSideBySideStereo(_ device: Device) -> Bool {
        !device.formats.isEmpty && device.formats.allSatisfy { $0.height > 0 && Double($0.width) / Double($0.height) >= 2.5 }
    }
}
