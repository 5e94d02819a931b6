import Synchronization

/// One capture device instance. Immutable except for `isConnected`, which turns
/// false once, for good, when the device goes away; a replugged device is a new
/// instance with the same `uniqueID` (behaviour §1).
public final class Device: Sendable {
    public let uniqueID: String
    /// The human name; for the `microphone` device, the name of the input it routes to now.
    public var name: String { route?.current?.name ?? fixedName }
    private let fixedName: String
    /// Set only on the single `microphone` device (behaviour §5), which follows the default input.
    public let route: MicrophoneRoute?
    public let type: DeviceType
    public let position: DevicePosition
    public let backend: BackendKind
    /// What that backend can do with it (share it, stream its sound or depth).
    public let capabilities: BackendCapabilities
    /// The backend's own key for this instance (PipeWire: `object.serial`).
    public let backendKey: String
    /// Picture formats (for a depth-only camera, its depth formats).
    public let formats: [VideoFormat]
    /// Depth formats of a depth camera (behaviour §1), empty for others.
    public let depthFormats: [VideoFormat]
    public let vendorID: UInt16?
    public let productID: UInt16?
    public let serialNumber: String?
    /// When the system says the device appeared, CLOCK_MONOTONIC microseconds; nil when unknown.
    public let pluggedMicroseconds: UInt64?
    /// The USB port the device hangs off (kernel `1-2.3` or udev bus path), shared by a
    /// camera and its own microphone; nil when not USB.
    public let usbPort: String?
    /// What policies read beyond identity, typed (`DeviceDetails`).
    public let details: DeviceDetails
    /// Raw backend properties (node and device), for display only: no policy reads them.
    public let properties: [String: String]

    private let connected = Atomic<Bool>(true)
    /// The hub that lists the device, set once by it before anyone sees the device.
    private let lister = Lister()

    private final class Lister: @unchecked Sendable { weak var hub: DeviceHub? }

    /// The hub (the library context) that lists the device: its controls come through its backends.
    public var hub: DeviceHub? { lister.hub }

    func listed(by hub: DeviceHub) { lister.hub = hub }

    /// The camera's controls, wherever its hub reaches them (`DeviceHub.controller(for:)`).
    public func controller() throws(OcellusError) -> any CameraControlling {
        guard let hub else { throw OcellusError(.disconnected, "\(uniqueID) is disconnected (its context is gone)") }
        return try hub.controller(for: self)
    }

    public init(
        uniqueID: String, name: String, type: DeviceType, position: DevicePosition,
        backend: BackendKind, backendKey: String, formats: [VideoFormat], depthFormats: [VideoFormat] = [],
        vendorID: UInt16?, productID: UInt16?, serialNumber: String?,
        pluggedMicroseconds: UInt64?, usbPort: String? = nil, details: DeviceDetails = DeviceDetails(),
        properties: [String: String], route: MicrophoneRoute? = nil, capabilities: BackendCapabilities = BackendCapabilities()
    ) {
        self.uniqueID = uniqueID
        self.fixedName = name
        self.route = route
        self.type = type
        self.position = position
        self.backend = backend
        self.capabilities = capabilities
        self.backendKey = backendKey
        self.formats = formats
        self.depthFormats = depthFormats
        self.vendorID = vendorID
        self.productID = productID
        self.serialNumber = serialNumber
        self.pluggedMicroseconds = pluggedMicroseconds
        self.usbPort = usbPort
        self.details = details
        self.properties = properties
    }

    /// The device a backend's facts describe, typed and placed by the behaviour §1 rules.
    public convenience init(
        classifying facts: DeviceFacts, uniqueID: String, backend: BackendKind,
        capabilities: BackendCapabilities = BackendCapabilities()
    ) {
        let type = DeviceClassifier.type(of: facts)
        self.init(
            uniqueID: uniqueID, name: facts.name, type: type, position: DeviceClassifier.position(of: facts, type: type),
            backend: backend, backendKey: facts.backendKey, formats: facts.formats, depthFormats: facts.depthFormatsListed,
            vendorID: facts.vendorID, productID: facts.productID, serialNumber: facts.serial,
            pluggedMicroseconds: facts.pluggedMicroseconds,
            usbPort: facts.vendorID == nil ? nil : DeviceClassifier.port(of: facts), details: facts.details,
            properties: facts.properties, capabilities: capabilities)
    }

    public var isConnected: Bool { connected.load(ordering: .acquiring) }

    /// The depth formats that can stream while the camera runs `format`: every depth format
    /// when depth has a function of its own (a USB depth camera's depth node beside its colour
    /// node); for a depth-only camera, `format` itself, whose stream then carries the depth.
    public func depthFormats(beside format: VideoFormat) -> [VideoFormat] {
        if depthFormats.contains(format) { return [format] }
        return depthFormats.contains(where: formats.contains) ? [] : depthFormats
    }

    /// Whether depth comes from the picture stream itself (a depth-only camera, or one whose
    /// single function lists a depth format beside its picture formats).
    public var depthSharesPictureStream: Bool { !depthFormats.isEmpty && depthFormats.allSatisfy(formats.contains) }

    /// behaviour §4 multitasking: whether several applications can stream this device at
    /// once — through PipeWire yes, raw V4L2 is exclusive.
    public var supportsMultitasking: Bool { capabilities.sharesCameras }

    /// Marks the instance gone. Returns true only for the call that changed it.
    @discardableResult
    public func markDisconnected() -> Bool {
        connected.exchange(false, ordering: .acquiringAndReleasing)
    }
}
