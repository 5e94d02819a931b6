public enum HotplugEvent: Int32, Sendable {
    case added = 0
    case removed = 1
}

/// What a hub tells its observers.
public enum HubEvent: Sendable {
    case device(HotplugEvent, Device)
    /// A backend lost its connection (its devices were reported removed just before).
    case backendFailed(BackendKind, OcellusError)
    /// SPEC §2: the computed user / system preferred camera changed (nil: none).
    case userPreferredChanged(Device?)
    case systemPreferredChanged(Device?)
}

/// The live set of devices of one library context: backends report into it,
/// it applies the identity rules and tells observers on its event thread.
public final class DeviceHub: DeviceBackendDelegate, @unchecked Sendable {
    public let appID: String
    /// Resolved per-app state directory (SPEC §2); not created until state is written.
    public let stateDirectory: String
    /// Observers run here, one at a time, on a library thread.
    public let events = EventThread<HubEvent>()

    private let lock = ConditionLock()
    private var devicesByKey: [String: Device] = [:]
    private var backends: [any DeviceBackend] = []
    private var closed = false
    private var selection: CameraSelection?

    /// Validates `appID`, resolves the state directory, starts every backend and returns once each has reported
    /// its devices. Fails when no backend could start, with the first backend's error.
    /// `stateDirectory` nil: resolved from the environment (`StateDirectory`).
    public init(appID: String, backends: [any DeviceBackend], timeoutMilliseconds: UInt32,
                stateDirectory: String? = nil) throws(OcellusError) {
        try AppID.validate(appID)
        self.appID = appID
        self.stateDirectory = try StateDirectory.resolve(explicit: stateDirectory, environment: environmentVariable)
        var firstError: OcellusError?
        for backend in backends {
            do {
                try backend.start(delegate: self, timeoutMilliseconds: timeoutMilliseconds)
                lock.withLock { self.backends.append(backend) }
            } catch {
                firstError = firstError ?? error
            }
        }
        if lock.withLock({ self.backends.isEmpty }) {
            throw firstError ?? OcellusError(.backendUnavailable, "no device backend is available")
        }
        let started = CameraSelection(appID: appID, directory: self.stateDirectory, cameras: devices()) {
            [events] event in events.post(event)
        }
        lock.withLock { selection = started }
    }

    // MARK: Camera selection (SPEC §2)

    /// The user preferred camera: the latest choice still connected, else the camera
    /// most recently streamed, else the first in the default order; nil with no camera.
    public var userPreferredCamera: Device? { currentSelection?.preferred.user }

    /// The user preferred camera, unless an external camera was plugged in since the last choice.
    public var systemPreferredCamera: Device? { currentSelection?.preferred.system }

    /// Why selection state could not be read or written (it then works in memory), or nil.
    public var selectionStateProblem: String? { currentSelection?.stateProblem }

    /// Records the user's choice (persisted for the app, seen by its other processes).
    public func setUserPreferredCamera(_ device: Device) throws(OcellusError) {
        guard device.type.isCamera else {
            throw OcellusError(.invalidArgument, "\(device.uniqueID) is a \(device.type.name), not a camera")
        }
        let known = lock.withLock { devicesByKey.values.contains { $0 === device } }
        guard known, device.isConnected else {
            throw OcellusError(.notFound, "camera \(device.uniqueID) is not connected")
        }
        currentSelection?.choose(device)
    }

    /// Records that a capture session started running with `device`.
    public func noteStreaming(with device: Device) {
        currentSelection?.noteStreaming(device)
    }

    private var currentSelection: CameraSelection? { lock.withLock { selection } }

    /// Connected devices in the default selection order (SPEC §2), then by name.
    public func devices() -> [Device] {
        lock.withLock { Array(devicesByKey.values) }.sorted(by: DeviceHub.defaultOrder)
    }

    /// Stops the backends and the event thread; devices become disconnected.
    public func close() {
        let running: [any DeviceBackend] = lock.withLock {
            guard !closed else { return [] }
            closed = true
            return backends
        }
        for backend in running { backend.stop() }
        lock.withLock { selection }?.stop()
        events.stop()
        lock.withLock {
            for device in devicesByKey.values { device.markDisconnected() }
            devicesByKey.removeAll()
        }
    }

    // MARK: DeviceBackendDelegate

    public func backend(_ backend: any DeviceBackend, didAdd facts: DeviceFacts) {
        let device: Device? = lock.withLock {
            guard !closed else { return nil }
            let key = Self.key(backend.kind, facts.backendKey)
            let serialTaken = devicesByKey.values.contains { other in
                other.backendKey != facts.backendKey && other.vendorID != nil
                    && other.vendorID == facts.vendorID && other.productID == facts.productID
                    && other.serialNumber == facts.serial && (other.type == .microphone) == (facts.media == .audio)
            }
            let type = DeviceClassifier.type(of: facts)
            let device = Device(
                uniqueID: DeviceClassifier.uniqueID(of: facts, backend: backend.kind, serialTaken: serialTaken),
                name: facts.name, type: type, position: DeviceClassifier.position(of: facts, type: type),
                backend: backend.kind, backendKey: facts.backendKey, formats: facts.formats,
                vendorID: facts.vendorID, productID: facts.productID, serialNumber: facts.serial,
                pluggedMicroseconds: facts.pluggedMicroseconds, properties: facts.properties)
            devicesByKey[key]?.markDisconnected()
            devicesByKey[key] = device
            return device
        }
        if let device {
            events.post(.device(.added, device))
            currentSelection?.deviceAdded(device)
        }
    }

    public func backend(_ backend: any DeviceBackend, didRemoveDeviceWithKey key: String) {
        let device = lock.withLock { devicesByKey.removeValue(forKey: Self.key(backend.kind, key)) }
        if let device, device.markDisconnected() {
            events.post(.device(.removed, device))
            currentSelection?.deviceRemoved(device)
        }
    }

    public func backend(_ backend: any DeviceBackend, didFail error: OcellusError) {
        let lost: [Device] = lock.withLock {
            let gone = devicesByKey.filter { $0.value.backend == backend.kind }
            for key in gone.keys { devicesByKey.removeValue(forKey: key) }
            return Array(gone.values)
        }
        for device in lost.sorted(by: DeviceHub.defaultOrder) where device.markDisconnected() {
            events.post(.device(.removed, device))
            currentSelection?.deviceRemoved(device)
        }
        events.post(.backendFailed(backend.kind, error))
    }

    private static func key(_ kind: BackendKind, _ backendKey: String) -> String { "\(kind.name):\(backendKey)" }

    /// SPEC §2 default order: built-in front > external > built-in back > others > virtual; microphones last.
    static func rank(_ device: Device) -> Int {
        switch (device.type, device.position) {
        case (.builtInCamera, .front): 0
        case (.externalCamera, _): 1
        case (.builtInCamera, .back): 2
        case (.builtInCamera, _), (.depthCamera, _): 3
        case (.virtualCamera, _): 4
        case (.microphone, _): 5
        }
    }

    public static func defaultOrder(_ a: Device, _ b: Device) -> Bool {
        let (rankA, rankB) = (rank(a), rank(b))
        if rankA != rankB { return rankA < rankB }
        if a.name != b.name { return a.name < b.name }
        return a.uniqueID < b.uniqueID
    }
}
