/// behaviour §5: the input the single `microphone` device stands for at the moment.
/// Sessions whose audio input is that device follow it: their microphone stream
/// moves when the route does. Changes are told on the route's own event thread.
public final class MicrophoneRoute: @unchecked Sendable {
    /// The new input (nil: no microphone connected), in the order routes changed.
    public let changes = EventThread<Device?>()
    private let lock = ConditionLock()
    private var input: Device?

    init() {}

    /// The microphone sound comes from now; nil when none is connected.
    public var current: Device? { lock.withLock { input } }

    /// Returns whether the route changed.
    @discardableResult
    func update(_ device: Device?) -> Bool {
        let changed = lock.withLock { () -> Bool in
            guard input !== device else { return false }
            input = device
            return true
        }
        if changed { changes.post(device) }
        return changed
    }
}

/// behaviour §5 routing rule, kept free of state so that it can be tested alone.
public enum MicrophoneRouting {
    public struct Input {
        public let device: Device
        /// When the microphone was plugged in (monotonic µs): the system's time, else the app's first sight of it.
        public let pluggedAt: UInt64
        public init(device: Device, pluggedAt: UInt64) { (self.device, self.pluggedAt) = (device, pluggedAt) }
    }

    /// The app's preferred input while it is connected; else the most recently plugged
    /// microphone when it came after the system default last changed (plugging a
    /// microphone in signals intent, as a headset does on a phone); else the system
    /// default (PipeWire's `default.audio.source`, by node name); else the first
    /// microphone by name.
    public static func route(
        inputs: [Input], preferred: String?, systemDefault: String?,
        systemDefaultChangedAt: UInt64
    ) -> Device? {
        let connected = inputs.filter { $0.device.isConnected && $0.device.type == .microphone }
        if let preferred, let chosen = connected.first(where: { $0.device.uniqueID == preferred }) { return chosen.device }
        let newest = connected.max { ($0.pluggedAt, $1.device.uniqueID) < ($1.pluggedAt, $0.device.uniqueID) }
        if let newest, newest.pluggedAt > systemDefaultChangedAt { return newest.device }
        if let systemDefault, let current = connected.first(where: { $0.device.details.defaultDeviceName == systemDefault }) {
            return current.device
        }
        return connected.map(\.device).sorted(by: DeviceHub.defaultOrder).first
    }
}
