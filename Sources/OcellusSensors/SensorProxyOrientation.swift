import CSDBus
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The host's orientation H from iio-sensor-proxy (behaviour §3) over D-Bus, with
/// sd-bus: `ClaimAccelerometer`, then `AccelerometerOrientation`, re-read on each
/// `PropertiesChanged`; "undefined" keeps the last value. When the proxy goes
/// away, the last value stays and `isAvailable` turns false.
public final class SensorProxyOrientation: @unchecked Sendable {
    private let listener: Listener
    private let lock = ConditionLock()
    private var thread: pthread_t?

    /// Connects to `busAddress` (e.g. a private bus in tests), else the system bus, and
    /// claims the accelerometer. Throws when no sensor proxy answers.
    public init(busAddress: String? = nil, onChange: @escaping (Int) -> Void = { _ in }) throws(OcellusError) {
        listener = try Listener(busAddress: busAddress, onChange: onChange)
        thread = startThread { [listener] in listener.run() }
    }

    deinit { stop() }

    /// The last known H in clockwise degrees.
    public var orientation: Int { listener.orientation }
    /// False once the proxy has left the bus.
    public var isAvailable: Bool { listener.isAvailable }

    /// Ends the dispatching thread, which closes the connection; waits for it unless called
    /// from `onChange` (on that thread).
    public func stop() {
        guard
            let running = lock.withLock({ () -> pthread_t? in
                defer { thread = nil }; return thread
            })
        else { return }
        listener.stop()
        joinUnlessCurrent(running)
    }
}

/// The connection and what it last heard, held by the thread that dispatches it: the handle
/// may be released before that thread has run a line, and the bus's callbacks reach this
/// object by a raw pointer.
private final class Listener: @unchecked Sendable {
    static let service = "net.hadess.SensorProxy"
    static let path = "/net/hadess/SensorProxy"
    static let orientations = ["normal": 0, "left-up": 90, "bottom-up": 180, "right-up": 270]

    private var bus: OpaquePointer?
    private var slots: [OpaquePointer?] = [nil, nil]
    private let lock = ConditionLock()
    private var current = 0
    private var available = true
    private var stopped = false
    private let onChange: (Int) -> Void

    init(busAddress: String?, onChange: @escaping (Int) -> Void) throws(OcellusError) {
        self.onChange = onChange
        var connection: OpaquePointer?
        var result = csdbus_connect(busAddress, 0, &connection)
        guard result >= 0, let connection else {
            throw OcellusError(.backendUnavailable, "cannot reach the D-Bus \(busAddress ?? "system bus"): \(String(cString: strerror(-result)))")
        }
        bus = connection
        var error = sd_bus_error()
        result = csdbus_call_void(connection, Self.service, Self.path, Self.service, "ClaimAccelerometer", &error)
        let reason = error.message.map { String(cString: $0) } ?? String(cString: strerror(-result))
        sd_bus_error_free(&error)
        guard result >= 0 else {
            sd_bus_unref(connection)
            bus = nil
            throw OcellusError(.backendUnavailable, "iio-sensor-proxy does not answer (\(reason))")
        }
        current = readOrientation() ?? 0
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = sd_bus_match_signal(
            connection, &slots[0], Self.service, Self.path, "org.freedesktop.DBus.Properties",
            "PropertiesChanged",
            { _, data, _ in
                Unmanaged<Listener>.fromOpaque(data!).takeUnretainedValue().propertiesChanged()
                return 0
            }, me)
        _ = sd_bus_match_signal(
            connection, &slots[1], "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "NameOwnerChanged",
            { message, data, _ in
                var name: UnsafePointer<CChar>?, old: UnsafePointer<CChar>?, new: UnsafePointer<CChar>?
                // NameOwnerChanged(s name, s old_owner, s new_owner)
                guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &name) >= 0,
                    sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &old) >= 0,
                    sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &new) >= 0,
                    let name, String(cString: name) == Listener.service
                else { return 0 }
                let gone = new.map { String(cString: $0).isEmpty } ?? true
                Unmanaged<Listener>.fromOpaque(data!).takeUnretainedValue().ownerChanged(present: !gone)
                return 0
            }, me)
    }

    var orientation: Int { lock.withLock { current } }
    var isAvailable: Bool { lock.withLock { available } }

    func stop() { lock.withLock { stopped = true } }

    /// Dispatches bus messages until stopped, then closes the connection.
    func run() {
        while !lock.withLock({ stopped }) {
            if sd_bus_process(bus, nil) > 0 { continue }
            _ = sd_bus_wait(bus, 100_000) // µs: wakes to notice stop()
        }
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    private func readOrientation() -> Int? {
        var error = sd_bus_error()
        var value: UnsafeMutablePointer<CChar>?
        defer { sd_bus_error_free(&error); free(value) }
        guard
            sd_bus_get_property_string(
                bus, Self.service, Self.path, Self.service, "AccelerometerOrientation",
                &error, &value) >= 0, let value
        else { return nil }
        return Self.orientations[String(cString: value)] // "undefined" → nil: keep the last value
    }

    private func propertiesChanged() {
        guard let value = readOrientation() else { return }
        let changed = lock.withLock { () -> Bool in
            defer { current = value }
            return current != value
        }
        if changed { onChange(value) }
    }

    private func ownerChanged(present: Bool) {
        lock.withLock { available = present }
    }
}
