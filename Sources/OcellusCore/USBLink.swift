/// Where a USB camera's periodic (isochronous) transfers are scheduled, and what its video
/// function can reserve there: the facts behaviour §4's hardware cost reads.
public struct USBLink: Sendable, Equatable {
    /// The bus, named by its root hub (`usb3`): every device below it shares its periodic time.
    public var bus: String
    /// The device's link speed in Mbit/s (12 full speed, 480 high speed, 5000 SuperSpeed).
    public var speedMbps: Double
    /// For a full- or low-speed device behind a high-speed hub, the hub's transaction
    /// translator (`3-1`, or `3-1:2` for a hub with one per port): a full-speed budget of its own.
    public var translator: String?
    /// The kernel's name of the video function's streaming interface (`3-1:1.1`), by which its
    /// own reservation is told from others'.
    public var streamingInterface: String?
    /// The streaming interface's isochronous alternate settings, smallest first; empty for a
    /// camera that streams over bulk (it reserves no periodic time).
    public var streamingSettings: [PeriodicEndpoint]

    public init(
        bus: String, speedMbps: Double, translator: String? = nil, streamingInterface: String? = nil,
        streamingSettings: [PeriodicEndpoint] = []
    ) {
        self.bus = bus
        self.speedMbps = speedMbps
        self.translator = translator
        self.streamingInterface = streamingInterface
        self.streamingSettings = streamingSettings.sorted()
    }
}

/// What one isochronous endpoint reserves: bytes per service, every `interval` bus intervals.
public struct PeriodicEndpoint: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// wMaxPacketSize times the transactions per interval (high-bandwidth endpoints carry up to 3).
    public var bytesPerService: Int
    /// In bus intervals: microframes (125 µs) at high speed and above, frames (1 ms) at full speed.
    public var interval: Int
    /// Data from the device (a camera, a microphone) or to it (a speaker).
    public var isInput: Bool

    public init(bytesPerService: Int, interval: Int = 1, isInput: Bool = true) {
        self.bytesPerService = bytesPerService
        self.interval = max(1, interval)
        self.isInput = isInput
    }

    /// From an endpoint descriptor's wMaxPacketSize (bits 11–12: extra transactions per
    /// microframe at high speed) and bInterval, as the kernel reads them for `speedMbps`.
    public init(wMaxPacketSize: UInt16, bInterval: UInt8, speedMbps: Double, isInput: Bool) {
        let transactions = speedMbps >= 480 ? Int((wMaxPacketSize >> 11) & 3) + 1 : 1
        // Isochronous bInterval is 2^(bInterval-1) intervals at every speed.
        let exponent = min(15, max(1, Int(bInterval))) - 1
        self.init(bytesPerService: Int(wMaxPacketSize & 0x7FF) * transactions, interval: 1 << exponent, isInput: isInput)
    }

    public static func < (a: Self, b: Self) -> Bool {
        (a.bytesPerService, -a.interval) < (b.bytesPerService, -b.interval)
    }

    public var description: String { "\(bytesPerService) bytes every \(interval) interval\(interval == 1 ? "" : "s")" }
}

/// A periodic reservation the kernel holds on a bus now: an interface whose current alternate
/// setting has isochronous endpoints (a camera streaming, a microphone recording), whichever
/// process streams it.
public struct BusReservation: Sendable, Equatable {
    /// The device, as it names itself (its USB product string), or its port.
    public var device: String
    /// The kernel's name of the interface (`3-1:1.1`).
    public var interface: String
    public var speedMbps: Double
    public var translator: String?
    public var endpoints: [PeriodicEndpoint]

    public init(device: String, interface: String, speedMbps: Double, translator: String? = nil, endpoints: [PeriodicEndpoint]) {
        self.device = device
        self.interface = interface
        self.speedMbps = speedMbps
        self.translator = translator
        self.endpoints = endpoints
    }
}

/// Reads what is reserved on a USB bus now (sysfs on Linux: every process's streams).
public protocol USBBusReading: Sendable {
    func reservations(onBus bus: String) -> [BusReservation]
}
