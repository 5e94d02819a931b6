public enum HotplugEvent: Int32, Sendable {
    case added = 0
    case removed = 1
}

/// What a hub tells its observers.
public enum HubEvent: Sendable {
    case device(HotplugEvent, Device)
    /// A backend lost its connection (its devices were reported removed just before).
    case backendFailed(BackendKind, OcellusError)
    /// behaviour §2: the computed user / system preferred camera changed (nil: none).
    case userPreferredChanged(Device?)
    case systemPreferredChanged(Device?)
    /// behaviour §5: the `microphone` device now routes to this input (nil: no microphone).
    case microphoneRouteChanged(Device?)
    /// The answer to camera access request `request` (`CameraAccess`), and why it failed if it did.
    case cameraAccessAnswered(request: UInt64, CameraAuthorization, OcellusError?)
}

/// The live set of devices of one library context: backends report into it,
/// it applies the identity rules and tells observers on its event thread.
public final class DeviceHub: DeviceBackendDelegate, @unchecked Sendable {
    public let appID: String
    /// Resolved per-app state directory (behaviour §2); not created until state is written.
    public let stateDirectory: String
    private let sharedSerials: SharedSerials
    /// Observers run here, one at a time, on a library thread.
    public let events = EventThread<HubEvent>()

    private let lock = ConditionLock()
    /// What each backend reported, by backend and key; `device` is nil while shadowed.
    private struct Entry {
        /// As the backend reported them, or with the identity of a view sharing a kernel node.
        var facts: DeviceFacts
        let backend: BackendKind
        let capabilities: BackendCapabilities
        /// The camera's unique ID, also while another view of it is listed instead (`device` nil).
        var uniqueID: String
        var device: Device?
        /// When the hub first saw it (monotonic µs): a microphone's plug time when the system gives none.
        let seenAt: UInt64
    }
    private var entries: [String: Entry] = [:]
    private var backendProblems: [BackendKind: OcellusError] = [:]
    private var closeHandlers: [() -> Void] = []
    private var backends: [any DeviceBackend] = []
    private var closed = false
    private var selection: CameraSelection?
    // behaviour §5 microphone routing inputs (under `lock`).
    private var preferredMicrophoneID: String?
    private var systemDefaultMicrophone: String?
    private var systemDefaultMicrophoneChangedAt: UInt64 = 0

    /// One controller per camera instance (`DeviceControllers`).
    let controllers = DeviceControllers()
    /// behaviour §4 face-driven exposure and focus: what the app set per camera, what runs.
    public let faceDriven = FaceDrivenSettings()
    /// behaviour §4 Center Stage: which cameras the app wants framed, what their framing shows.
    public let centerStage = CenterStageSettings()
    /// Where the `microphone` device's sound comes from now.
    public let microphoneRoute = MicrophoneRoute()
    /// The one file watcher (one inotify descriptor) of the hub and its backends; nil when
    /// inotify is unavailable (then hotplug relies on uevents and the registry).
    public let fileWatcher = FileWatcher()
    /// behaviour §5: the single `microphone` device, following the default input. The same
    /// instance for the hub's life (a session keeps it as its audio input across routes).
    public let microphone: Device

    /// Validates `appID`, resolves the state directory, starts every backend and returns once each has reported
    /// its devices. Fails when no backend could start, with the first backend's error.
    /// `stateDirectory` nil: resolved from the environment (`StateDirectory`).
    ///
    /// A backend in `required` that cannot start fails the whole init; the others'
    /// failures are kept as `backendProblem(_:)` while the hub works without them.
    public init(
        appID: String, backends: [any DeviceBackend], timeoutMilliseconds: UInt32,
        stateDirectory: String? = nil, required: Set<BackendKind> = []
    ) throws(OcellusError) {
        try AppID.validate(appID)
        self.appID = appID
        // The microphone device routes to inputs of the backend that streams sound; with none it
        // never connects and reports OC_BACKEND_PIPEWIRE, the header's default.
        microphone = Device(
            uniqueID: "microphone", name: "Microphone", type: .microphone, position: .unspecified,
            backend: backends.first(where: \.capabilities.streamsSound)?.kind ?? .pipewire, backendKey: "", formats: [], vendorID: nil, productID: nil,
            serialNumber: nil, pluggedMicroseconds: nil, properties: [:], route: microphoneRoute,
            capabilities: BackendCapabilities(streamsSound: true))
        self.stateDirectory = try StateDirectory.resolve(explicit: stateDirectory) { name throws(OcellusError) in try environmentVariable(name) }
        sharedSerials = SharedSerials(directory: self.stateDirectory)
        microphone.listed(by: self)
        var firstError: OcellusError?
        for backend in backends {
            do {
                try backend.start(delegate: self, timeoutMilliseconds: timeoutMilliseconds)
                lock.withLock { self.backends.append(backend) }
            } catch {
                if required.contains(backend.kind) {
                    for started in lock.withLock({ self.backends }) { started.stop() }
                    throw error
                }
                firstError = firstError ?? error
                lock.withLock { backendProblems[backend.kind] = error }
            }
        }
        // No backend at all is a hub waiting for access (a sandbox before the portal's yes).
        if !backends.isEmpty, lock.withLock({ self.backends.isEmpty }) {
            throw firstError ?? OcellusError(.backendUnavailable, "no device backend is available")
        }
        let started = CameraSelection(appID: appID, directory: self.stateDirectory, cameras: devices(), watcher: fileWatcher) {
            [events] event in events.post(event)
        }
        lock.withLock {
            selection = started
            // Microphones present at start were not plugged in "since the default changed".
            systemDefaultMicrophoneChangedAt = monotonicMicroseconds()
        }
        updateMicrophoneRoute()
    }

    // MARK: Microphones (behaviour §5)

    /// The `microphone` device while some input is connected, else nil.
    public var defaultMicrophone: Device? { microphoneRoute.current == nil ? nil : microphone }

    /// The app's preferred input while it is connected (it then carries the route), else nil.
    public var preferredMicrophone: Device? {
        let wanted = lock.withLock { preferredMicrophoneID }
        return wanted.flatMap { id in devices().first { $0.uniqueID == id } }
    }

    /// Chooses the input the `microphone` device routes to while it is connected (by
    /// unique ID, so a replugged microphone is preferred again); nil returns to the
    /// system's default. Kept in memory for the context's life.
    public func setPreferredMicrophone(_ device: Device?) throws(OcellusError) {
        if let device {
            guard device.type == .microphone, device.route == nil else {
                throw OcellusError(
                    .invalidArgument,
                    device.route != nil
                        ? "the microphone device follows the route; prefer one of the inputs it routes to"
                        : "\(device.uniqueID) is a \(device.type.name), not a microphone")
            }
            let known = lock.withLock { entries.values.contains { $0.device === device } }
            guard known, device.isConnected else {
                throw OcellusError(.notFound, "microphone \(device.uniqueID) is not connected")
            }
        }
        lock.withLock { preferredMicrophoneID = device?.uniqueID }
        updateMicrophoneRoute()
    }

    /// Recomputes the route and tells its followers and the hub's observers when it moved.
    /// Under the lock, so that concurrent changes (a plug, a new preference) apply in order;
    /// the route and the event threads only queue.
    private func updateMicrophoneRoute() {
        lock.withLock {
            guard !closed else { return }
            let inputs = entries.values.compactMap { entry in
                entry.device.flatMap {
                    $0.type == .microphone
                        ? MicrophoneRouting.Input(device: $0, pluggedAt: $0.pluggedMicroseconds ?? entry.seenAt) : nil
                }
            }
            let input = MicrophoneRouting.route(
                inputs: inputs, preferred: preferredMicrophoneID,
                systemDefault: systemDefaultMicrophone,
                systemDefaultChangedAt: systemDefaultMicrophoneChangedAt)
            if microphoneRoute.update(input) { events.post(.microphoneRouteChanged(input)) }
        }
    }

    /// A camera's own microphone (the audio interface of the same USB device), when it is
    /// connected: same vendor and product on the same port.
    public func associatedMicrophone(of camera: Device) -> Device? {
        guard camera.type.isCamera, let port = camera.usbPort, let vendor = camera.vendorID else { return nil }
        return devices().first {
            $0.type == .microphone && $0.usbPort == port && $0.vendorID == vendor && $0.productID == camera.productID
        }
    }

    /// Starts `backend` on a running hub (e.g. PipeWire once its daemon appears), in
    /// place of a stopped backend of the same kind; its devices join as hotplug events.
    public func attach(_ backend: any DeviceBackend, timeoutMilliseconds: UInt32 = 0) throws(OcellusError) {
        guard !lock.withLock({ closed }) else { throw OcellusError(.wrongState, "the context is closed") }
        try backend.start(delegate: self, timeoutMilliseconds: timeoutMilliseconds)
        let replaced: [any DeviceBackend] = lock.withLock {
            let old = backends.filter { $0.kind == backend.kind }
            backends.removeAll { $0.kind == backend.kind }
            backends.append(backend)
            backendProblems[backend.kind] = nil
            return old
        }
        for old in replaced where old !== backend { old.stop() }
    }

    /// The running backend of `kind` (the one whose devices are listed), if any.
    func runningBackend(_ kind: BackendKind) -> (any DeviceBackend)? {
        lock.withLock { backends.last { $0.kind == kind } }
    }

    func runningBackends() -> [any DeviceBackend] { lock.withLock { backends } }

    /// Runs `body` when the hub closes (before its backends stop): for helpers it owns.
    public func onClose(_ body: @escaping () -> Void) {
        lock.withLock { closeHandlers.append(body) }
    }

    /// Records why `kind` is not running (a backend that could not be attached).
    public func noteProblem(_ problem: OcellusError, for kind: BackendKind) {
        lock.withLock { backendProblems[kind] = problem }
    }

    /// Why a backend is not running (e.g. no PipeWire daemon), or nil when it runs.
    public func backendProblem(_ kind: BackendKind) -> OcellusError? {
        lock.withLock { backendProblems[kind] }
    }

    /// Why devices may be missing, for an error that found none: "; the pipewire backend is not
    /// running: …" per backend that failed, or "" when every backend runs.
    public var missingBackendsSaid: String {
        lock.withLock { backendProblems }.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "; the \($0.key.name) backend is not running: \($0.value.message)" }.joined()
    }

    // MARK: Camera selection (behaviour §2)

    /// The user preferred camera: the latest choice still connected, else the camera
    /// most recently streamed, else the first in the default order; nil with no camera.
    public var userPreferredCamera: Device? { currentSelection?.preferred.user }

    /// The user preferred camera, unless an external camera was plugged in since the last choice.
    public var systemPreferredCamera: Device? { currentSelection?.preferred.system }

    /// Why selection state could not be read or written (it then works in memory), or nil.
    public var selectionStateProblem: String? { currentSelection?.stateProblem }
    /// True when the last selection change could not be written to the state directory.
    public var selectionIsUnsaved: Bool { currentSelection?.isUnsaved ?? false }

    /// Records the user's choice (persisted for the app, seen by its other processes).
    public func setUserPreferredCamera(_ device: Device) throws(OcellusError) {
        guard device.type.isCamera else {
            throw OcellusError(.invalidArgument, "\(device.uniqueID) is a \(device.type.name), not a camera")
        }
        let known = lock.withLock { entries.values.contains { $0.device === device } }
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

    /// Connected devices in the default selection order (behaviour §2), then by name.
    public func devices() -> [Device] {
        lock.withLock { entries.values.compactMap(\.device) }.sorted(by: DeviceHub.defaultOrder)
    }

    /// Stops the backends and the event thread; devices become disconnected.
    public func close() {
        let (running, handlers): ([any DeviceBackend], [() -> Void]) = lock.withLock {
            guard !closed else { return ([], []) }
            closed = true
            defer { closeHandlers.removeAll() }
            return (backends, closeHandlers)
        }
        for handler in handlers { handler() }
        for backend in running { backend.stop() }
        lock.withLock { selection }?.stop()
        fileWatcher?.stop()
        // Observers hear no last route change: a session following the route would reopen its
        // microphone stream, and when close runs on that stream's thread (from an audio
        // callback) the two would wait for each other.
        microphoneRoute.changes.stop()
        microphoneRoute.update(nil)
        microphone.markDisconnected()
        events.stop()
        lock.withLock {
            for entry in entries.values { entry.device?.markDisconnected() }
            entries.removeAll()
        }
    }

    // MARK: DeviceBackendDelegate
    //
    // One camera can reach the hub as several entries with one unique ID: seen by PipeWire
    // and by raw V4L2, and, through PipeWire, once per video function of a USB device (its
    // infrared or depth node beside the colour one). It is listed once, as the entry that
    // ranks highest: PipeWire's, since it lets several apps share the camera, unless V4L2
    // sees depth, which PipeWire cannot stream; among one backend's entries, the one with
    // the most picture formats (the colour function, not the infrared). The others are kept
    // as facts; when the listed one goes away (e.g. the daemon exits) while the camera
    // stays, the best of them becomes a device again.

    /// Whether two entries with one unique ID are views of one camera: seen by the two backends,
    /// two video functions of one USB unit (same port), or two views of one kernel node (one
    /// device number). Two software sources of one backend that happen to share a name are two
    /// cameras.
    private static func sameCamera(_ kind: BackendKind, _ facts: DeviceFacts, _ other: Entry) -> Bool {
        guard other.backend == kind, !facts.sharesDeviceNumber(with: other.facts) else { return true }
        let port = DeviceClassifier.port(of: facts)
        return facts.vendorID != nil && port != nil && DeviceClassifier.port(of: other.facts) == port
    }

    /// Which of two views of one kernel node names the camera: the one that knows more of the
    /// hardware, then the kernel's own view (V4L2) over a daemon's; else the one listed first.
    private static func namesCamera(
        _ facts: DeviceFacts, _ view: BackendCapabilities, over other: DeviceFacts,
        _ otherView: BackendCapabilities
    ) -> Bool {
        (facts.identityStrength, view.isKernelView ? 1 : 0) > (other.identityStrength, otherView.isKernelView ? 1 : 0)
    }

    /// One device number, one camera (lock held): `facts` take the identity and unique ID of a
    /// listed view of the same kernel node that names the camera better; else the views that
    /// share a node take this one's, and any of them listed is taken down to be ranked again.
    /// Returns the facts to list and the unique ID they must have (nil: their own).
    private func sharingDeviceNumbers(
        _ reported: DeviceFacts, capabilities: BackendCapabilities, key: String,
        changes: inout [(HotplugEvent, Device)]
    ) -> (DeviceFacts, String?, renamed: [String]) {
        var facts = reported
        let sharing = entries.filter { $0.key != key && facts.sharesDeviceNumber(with: $0.value.facts) }
        guard !sharing.isEmpty else { return (facts, nil, []) }
        if let donor = sharing.values.first(where: { view in
            !sharing.values.contains { Self.namesCamera($0.facts, $0.capabilities, over: view.facts, view.capabilities) }
        }), !Self.namesCamera(facts, capabilities, over: donor.facts, donor.capabilities) {
            if donor.facts.identityStrength > facts.identityStrength { facts.adoptIdentity(of: donor.facts) }
            return (facts, donor.uniqueID, [])
        }
        for (otherKey, other) in sharing {
            if facts.identityStrength > other.facts.identityStrength { entries[otherKey]?.facts.adoptIdentity(of: facts) }
            if let listed = other.device {
                entries[otherKey]?.device = nil
                if listed.markDisconnected() { changes.append((.removed, listed)) }
            }
        }
        return (facts, nil, Array(sharing.keys))
    }

    /// How an entry ranks among the views of one camera (compared in order).
    private static func rank(_ view: BackendCapabilities, _ facts: DeviceFacts) -> (Int, Int) {
        let backendRank = view.viewRank(listsDepth: !facts.depthFormatsListed.isEmpty)
        let pictures = facts.formats.filter { ![FourCC.grey, .y16, .y12, .z16].contains($0.pixelFormat) }.count
        return (backendRank, pictures)
    }

    public func backend(_ backend: any DeviceBackend, didAdd reported: DeviceFacts) {
        let changes: [(HotplugEvent, Device)] = lock.withLock {
            guard !closed else { return [] }
            var changes: [(HotplugEvent, Device)] = []
            let key = Self.key(backend.kind, reported.backendKey)
            if let replaced = entries.removeValue(forKey: key)?.device, replaced.markDisconnected() {
                changes.append((.removed, replaced))
            }
            let (facts, sharedID, renamed) = sharingDeviceNumbers(reported, capabilities: backend.capabilities, key: key, changes: &changes)
            let device = makeDevice(facts, backend: backend.kind, capabilities: backend.capabilities, uniqueID: sharedID)
            for otherKey in renamed { entries[otherKey]?.uniqueID = device.uniqueID }
            let rank = Self.rank(backend.capabilities, facts)
            let views = entries.filter { $0.value.uniqueID == device.uniqueID && Self.sameCamera(backend.kind, facts, $0.value) }
            // Ties keep what is listed: a camera does not change instance for an equal view. A
            // view taken down above competes again, and comes back when it ranks higher.
            let outranked = views.values.contains { $0.device != nil && Self.rank($0.capabilities, $0.facts) >= rank }
            let aside = views.filter { $0.value.device == nil && Self.rank($0.value.capabilities, $0.value.facts) > rank }
                .max { Self.rank($0.value.capabilities, $0.value.facts) < Self.rank($1.value.capabilities, $1.value.facts) }
            if !outranked {
                for (otherKey, other) in views {
                    guard let loser = other.device else { continue }
                    entries[otherKey]?.device = nil
                    if loser.markDisconnected() { changes.append((.removed, loser)) }
                }
            }
            let listed = !outranked && aside == nil
            if !outranked, let (asideKey, best) = aside {
                let revived = makeDevice(best.facts, backend: best.backend, capabilities: best.capabilities, uniqueID: best.uniqueID)
                entries[asideKey]?.device = revived
                changes.append((.added, revived))
            }
            entries[key] = Entry(
                facts: facts, backend: backend.kind, capabilities: backend.capabilities, uniqueID: device.uniqueID,
                device: listed ? device : nil, seenAt: monotonicMicroseconds())
            if listed { changes.append((.added, device)) }
            return changes
        }
        publish(changes)
    }

    public func backend(_ backend: any DeviceBackend, didRemoveDeviceWithKey key: String) {
        let changes = lock.withLock { removeEntries { $0 == Self.key(backend.kind, key) } }
        publish(changes)
    }

    public func backend(_ backend: any DeviceBackend, didReportProblem problem: OcellusError?) {
        lock.withLock { backendProblems[backend.kind] = problem }
    }

    public func backend(_ backend: any DeviceBackend, didFail error: OcellusError) {
        let changes = lock.withLock { removeEntries { $0.hasPrefix(backend.kind.name + ":") } }
        publish(changes)
        lock.withLock { backendProblems[backend.kind] = error }
        events.post(.backendFailed(backend.kind, error))
    }

    public func backend(_ backend: any DeviceBackend, didChangeDefaultMicrophone nodeName: String?) {
        lock.withLock {
            guard systemDefaultMicrophone != nodeName else { return }
            systemDefaultMicrophone = nodeName
            systemDefaultMicrophoneChangedAt = monotonicMicroseconds()
        }
        updateMicrophoneRoute()
    }

    /// Removes entries (lock held); the best view of a removed camera that was kept aside
    /// comes back as a new device.
    private func removeEntries(where matches: (String) -> Bool) -> [(HotplugEvent, Device)] {
        var changes: [(HotplugEvent, Device)] = []
        for key in entries.keys.filter(matches).sorted() {
            guard let entry = entries.removeValue(forKey: key), let device = entry.device else { continue }
            if device.markDisconnected() { changes.append((.removed, device)) }
            let kept = entries.filter {
                $0.value.device == nil && $0.value.uniqueID == entry.uniqueID && Self.sameCamera(entry.backend, entry.facts, $0.value)
            }
            guard
                let best = kept.max(by: { a, b in
                    let (ra, rb) = (Self.rank(a.value.capabilities, a.value.facts), Self.rank(b.value.capabilities, b.value.facts))
                    return ra != rb ? ra < rb : a.key > b.key
                })
            else { continue }
            let revived = makeDevice(best.value.facts, backend: best.value.backend, capabilities: best.value.capabilities, uniqueID: best.value.uniqueID)
            entries[best.key]?.device = revived
            changes.append((.added, revived))
        }
        return changes
    }

    private func publish(_ changes: [(HotplugEvent, Device)]) {
        for (change, device) in changes {
            events.post(.device(change, device))
            if change == .added { currentSelection?.deviceAdded(device) } else { currentSelection?.deviceRemoved(device) }
        }
        if changes.contains(where: { $0.1.type == .microphone }) { updateMicrophoneRoute() }
    }

    /// A device for `facts`, with the behaviour §1 rules (lock held: a serial another
    /// listed device of the same model already uses does not identify the unit).
    private func makeDevice(
        _ facts: DeviceFacts, backend: BackendKind, capabilities: BackendCapabilities,
        uniqueID sharedID: String? = nil
    ) -> Device {
        let port = DeviceClassifier.port(of: facts)
        let serialTaken = entries.values.contains { entry in
            guard let other = entry.device, other.backendKey != facts.backendKey, other.vendorID != nil,
                other.vendorID == facts.vendorID, other.productID == facts.productID,
                other.serialNumber == facts.serial, (other.type == .microphone) == (facts.media == .audio)
            else { return false }
            // The same unit (same port: seen by the other backend, or another of its video
            // functions through PipeWire) does not make the serial shared.
            let sameUnit = other.usbPort == nil || port == nil || other.usbPort == port
            return !sameUnit
        }
        if serialTaken, let vendor = facts.vendorID, let product = facts.productID, let serial = facts.serial {
            sharedSerials.remember(vendor: vendor, product: product, serial: serial)
        }
        let serialShared =
            serialTaken
            || facts.vendorID.flatMap { vendor in
                facts.productID.flatMap { product in
                    facts.serial.map { sharedSerials.contains(vendor: vendor, product: product, serial: $0) }
                }
            } == true
        var uniqueID = sharedID ?? DeviceClassifier.uniqueID(of: facts, backend: backend, serialTaken: serialShared)
        if sharedID == nil && DeviceClassifier.hasFallbackID(facts) {
            // Two producers may publish one node name (two GStreamer pipelines, two copies of a
            // tool): the later one gets a number, so that an ID names one device.
            let base = uniqueID
            var number = 2
            while entries.values.contains(where: { $0.device?.uniqueID == uniqueID && $0.device?.backendKey != facts.backendKey }) {
                uniqueID = "\(base)-\(number)"
                number += 1
            }
        }
        let device = Device(classifying: facts, uniqueID: uniqueID, backend: backend, capabilities: capabilities)
        device.listed(by: self)
        return device
    }

    private static func key(_ kind: BackendKind, _ backendKey: String) -> String { "\(kind.name):\(backendKey)" }

    /// behaviour §2 default order: built-in front > external > built-in back > others > virtual; microphones last.
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
