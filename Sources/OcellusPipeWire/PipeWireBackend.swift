import CLibPipeWire
import CPipeWire
import OcellusCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Discovers cameras (`Video/Source`) and microphones (`Audio/Source*`) in a
/// PipeWire graph, with hotplug.
///
/// Runs its own `pw_thread_loop`; every PipeWire callback below runs on that
/// thread with the loop lock held. Nodes are bound to read their full
/// properties and formats; a node is reported only once a core sync round
/// trip confirms its info and EnumFormat params have all arrived, so every
/// reported device is complete. Nodes are keyed by `object.serial`, because
/// PipeWire reuses global ids at once.
public final class PipeWireBackend: DeviceBackend, @unchecked Sendable {
    public let kind = BackendKind.pipewire
    public let capabilities = BackendCapabilities(sharesCameras: true, streamsSound: true)
    public let remote: PipeWireRemote
    /// The format another app streams a camera in, by unique ID, from a stream refused for it
    /// until the session asks (`takeFormatInUse`).
    private let formatsInUse = Locked<[String: (format: VideoFormat, rate: FrameRate)]>([:])

    private var connection: PipeWireConnection?
    private var registry: OpaquePointer?
    private let coreHook = Hook()
    private let registryHook = Hook()
    private let coreEvents = Pinned(pw_core_events())
    private let registryEvents = Pinned(pw_registry_events())
    private weak var delegate: (any DeviceBackendDelegate)?

    private var nodes: [UInt32: BoundNode] = [:]
    private var devices: [UInt32: BoundDevice] = [:]
    private var defaults: DefaultMetadata?
    private var outstandingSync: Int32?
    /// A round trip a control call waits for, and whether it came back.
    private var controlSync: Int32?
    private var controlSyncDone = false
    private var needsAnotherSync = false
    private var settledOnce = false
    private var failure: OcellusError?

    /// Names the discovery client and the streams in PipeWire (`wpctl status`) as the app's.
    private let application: PipeWireApplication?

    public init(remote: PipeWireRemote = nil, appID: String? = nil) {
        self.remote = remote
        application = appID.map(PipeWireApplication.init(id:))
    }

    // MARK: Controls (a camera's node: its PropInfo and Props params)

    /// A camera's controls through its node's PropInfo and Props params.
    public func controller(for device: Device) throws(OcellusError) -> any CameraControlling {
        PipeWireControls(backend: self, nodeSerial: device.backendKey)
    }

    /// The node's controls and the values known for them, asked for afresh.
    func controls(ofNode serial: String) throws(OcellusError) -> ([ocpw_prop_info], [UInt32: Int64]) {
        try withNode(serial, refresh: true) { node in (node.controls, node.controlValues) }
    }

    /// Sets a control of the node, and waits until the daemon has it.
    func setControl(ofNode serial: String, key: UInt32, value: Int32, isBoolean: Bool) throws(OcellusError) {
        let result = try withNode(serial, refresh: false) { node in node.setControl(key: key, value: value, isBoolean: isBoolean) }
        guard result >= 0 else {
            throw OcellusError(
                result == -EACCES || result == -EPERM ? .permissionDenied : .io,
                "PipeWire refused the control: \(String(cString: strerror(-result)))")
        }
    }

    /// Runs `body` on the node (loop locked) after a round trip, so that what was asked for has come.
    private func withNode<T>(_ serial: String, refresh: Bool, _ body: (BoundNode) -> T) throws(OcellusError) -> T {
        guard let connection else { throw OcellusError(.disconnected, "PipeWire is not connected") }
        let outcome: T? = connection.withLock {
            guard let node = nodes.values.first(where: { $0.serial == serial }), let core = connection.core else { return nil }
            if refresh { node.refreshControls() }
            let value = body(node)
            (controlSync, controlSyncDone) = (ocpw_core_sync(core, UInt32(PW_ID_CORE), 0), false)
            guard connection.wait(milliseconds: 3000, until: { controlSyncDone || failure != nil }) else { return nil }
            return refresh ? body(node) : value
        }
        guard let outcome else { throw OcellusError(.disconnected, "the PipeWire node \(serial) is gone or did not answer") }
        return outcome
    }

    /// Where the daemon's socket for `remote` (a name or a path) lives.
    public static func socketPath(for remote: String) -> String? { PipeWireSocket.path(for: remote) }

    deinit { stop() }

    // MARK: DeviceBackend

    /// A camera by its node's `object.serial` (its `backendKey`), on a connection of its own.
    public func openStream(
        for device: Device, format: VideoFormat, frameRate: FrameRate,
        handler: @escaping (CameraStreamEvent) -> Void
    ) throws(OcellusError) -> any CameraStream {
        let camera = device.uniqueID
        return try PipeWireStream(
            remote: remote, objectSerial: device.backendKey, format: format, frameRate: frameRate,
            application: application, deviceName: device.name,
            foundInUse: { [formatsInUse] running in formatsInUse.withLock { $0[camera] = running } },
            handler: handler)
    }

    public func takeFormatInUse(of device: Device) -> (format: VideoFormat, rate: FrameRate)? {
        formatsInUse.withLock { $0.removeValue(forKey: device.uniqueID) }
    }

    public func openAudioStream(
        for device: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream {
        guard device.type == .microphone else { throw OcellusError(.invalidArgument, "\(device.uniqueID) is not a microphone") }
        return try PipeWireAudioStream(
            remote: remote, objectSerial: device.backendKey, format: format,
            application: application, deviceName: device.name, handler: handler)
    }

    public func openPlaybackReference(
        beside microphone: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream {
        try PipeWireAudioStream.playbackReference(remote: remote, format: format, application: application, handler: handler)
    }

    public func start(delegate: any DeviceBackendDelegate, timeoutMilliseconds: UInt32) throws(OcellusError) {
        self.delegate = delegate
        let connection = try PipeWireConnection(
            threadName: "ocellus-pw", remote: remote,
            clientProperties: application?.clientProperties ?? [:])
        self.connection = connection
        let result = connection.withLock {
            enumerate(connection, timeoutMilliseconds: timeoutMilliseconds == 0 ? 3000 : timeoutMilliseconds)
        }
        if case .failure(let error) = result {
            stop()
            throw error
        }
    }

    public func stop() {
        guard let connection else { return }
        connection.close(
            quiesce: { [self] in delegate = nil },
            { [self] in
                for node in nodes.values { node.destroy() }
                nodes.removeAll()
                for device in devices.values { device.destroy() }
                devices.removeAll()
                defaults?.destroy()
                defaults = nil
                registryHook.remove()
                coreHook.remove()
                if let registry { pw_proxy_destroy(registry) }
                registry = nil
            })
        self.connection = nil
    }

    // MARK: Enumeration (loop locked)

    private func enumerate(_ connection: PipeWireConnection, timeoutMilliseconds: UInt32) -> Result<Void, OcellusError> {
        guard let core = connection.core else { return .failure(OcellusError(.backendUnavailable, "not connected to PipeWire")) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        coreEvents.pointer.pointee.version = UInt32(PW_VERSION_CORE_EVENTS)
        coreEvents.pointer.pointee.done = { data, id, seq in
            Unmanaged<PipeWireBackend>.fromOpaque(data!).takeUnretainedValue().coreDone(id: id, seq: seq)
        }
        coreEvents.pointer.pointee.error = { data, id, seq, res, message in
            Unmanaged<PipeWireBackend>.fromOpaque(data!).takeUnretainedValue()
                .coreError(id: id, res: res, message: message.map { String(cString: $0) } ?? "")
        }
        ocpw_core_add_listener(core, coreHook.pointer, coreEvents.pointer, me)

        registry = pw_core_get_registry(core, UInt32(PW_VERSION_REGISTRY), 0)
        registryEvents.pointer.pointee.version = UInt32(PW_VERSION_REGISTRY_EVENTS)
        registryEvents.pointer.pointee.global = { data, id, _, type, _, props in
            guard let type else { return }
            Unmanaged<PipeWireBackend>.fromOpaque(data!).takeUnretainedValue()
                .global(id: id, type: String(cString: type), properties: dictionary(props))
        }
        registryEvents.pointer.pointee.global_remove = { data, id in
            Unmanaged<PipeWireBackend>.fromOpaque(data!).takeUnretainedValue().globalRemoved(id: id)
        }
        ocpw_registry_add_listener(registry, registryHook.pointer, registryEvents.pointer, me)
        requestSync()

        guard connection.wait(milliseconds: timeoutMilliseconds, until: { settledOnce || failure != nil }) else {
            return .failure(
                OcellusError(
                    .timeout,
                    "PipeWire at \(remote.description) did not finish listing devices within \(timeoutMilliseconds) ms"))
        }
        if let failure { return .failure(failure) }
        return .success(())
    }

    /// Asks for a round trip; when it returns, everything requested before it has been answered.
    private func requestSync() {
        guard let core = connection?.core else { return }
        if outstandingSync != nil {
            needsAnotherSync = true
        } else {
            outstandingSync = ocpw_core_sync(core, UInt32(PW_ID_CORE), 0)
        }
    }

    private func coreDone(id: UInt32, seq: Int32) {
        if id == UInt32(PW_ID_CORE), let waited = controlSync, seq == waited {
            (controlSync, controlSyncDone) = (nil, true)
            connection?.signal()
            return
        }
        guard id == UInt32(PW_ID_CORE), seq == outstandingSync else { return }
        outstandingSync = nil
        if needsAnotherSync {
            needsAnotherSync = false
            requestSync()
            return
        }
        announceCompleteNodes()
        if !settledOnce {
            settledOnce = true
            connection?.signal()
        }
    }

    private func coreError(id: UInt32, res: Int32, message: String) {
        guard id == UInt32(PW_ID_CORE), res == -EPIPE else { return }
        let error = OcellusError(.backendUnavailable, "the PipeWire daemon went away (\(message))")
        failure = error
        for node in nodes.values { node.destroy() }
        nodes.removeAll()
        for device in devices.values { device.destroy() }
        devices.removeAll()
        delegate?.backend(self, didFail: error)
        connection?.signal()
    }

    // MARK: Registry (loop locked)

    private func global(id: UInt32, type: String, properties: [String: String]) {
        let mediaClass = properties["media.class"] ?? ""
        if type == PipeWireTypes.node, let media = PipeWireFacts.media(ofClass: mediaClass) {
            guard let proxy = pw_registry_bind(registry, id, PipeWireTypes.node, UInt32(PW_VERSION_NODE), 0) else { return }
            nodes[id]?.destroy()
            // Weak: a node's event may come while this backend's deinit waits for the loop lock.
            nodes[id] = BoundNode(
                globalID: id, media: media, proxy: proxy, properties: properties,
                onChange: { [weak self] in self?.requestSync() })
            requestSync()
        } else if type == PipeWireTypes.device, mediaClass.hasSuffix("/Device") {
            guard let proxy = pw_registry_bind(registry, id, PipeWireTypes.device, UInt32(PW_VERSION_DEVICE), 0) else { return }
            devices[id]?.destroy()
            devices[id] = BoundDevice(proxy: proxy, properties: properties)
            requestSync()
        } else if type == PipeWireTypes.metadata, properties["metadata.name"] == "default" {
            guard let proxy = pw_registry_bind(registry, id, PipeWireTypes.metadata, UInt32(PW_VERSION_METADATA), 0) else { return }
            defaults?.destroy()
            defaults = DefaultMetadata(globalID: id, proxy: proxy) { [weak self] source in
                guard let self else { return }
                delegate?.backend(self, didChangeDefaultMicrophone: source)
            }
            requestSync()
        }
    }

    private func globalRemoved(id: UInt32) {
        if let node = nodes.removeValue(forKey: id) {
            node.destroy()
            if node.announced, let key = node.serial {
                delegate?.backend(self, didRemoveDeviceWithKey: key)
            }
        } else if let device = devices.removeValue(forKey: id) {
            device.destroy()
        } else if let metadata = defaults, metadata.globalID == id {
            metadata.destroy()
            defaults = nil
            delegate?.backend(self, didChangeDefaultMicrophone: nil)
        }
    }

    private func announceCompleteNodes() {
        for node in nodes.values where !node.announced && node.infoReceived {
            guard node.serial != nil else { continue }
            let deviceProperties = node.properties["device.id"].flatMap(UInt32.init).flatMap { devices[$0]?.properties } ?? [:]
            guard PipeWireFacts.isCamera(properties: deviceProperties.merging(node.properties) { _, own in own }) else { continue }
            node.announced = true
            delegate?.backend(self, didAdd: PipeWireFacts.make(node: node, deviceProperties: deviceProperties))
        }
    }
}

enum PipeWireTypes {
    // PW_TYPE_INTERFACE_* are string-pasting macros Swift cannot import.
    static let node = "PipeWire:Interface:Node"
    static let device = "PipeWire:Interface:Device"
    static let metadata = "PipeWire:Interface:Metadata"
}

enum PipeWireLibrary {
    private static let initialized: Void = { pw_init(nil, nil) }()
    static func initializeOnce() { _ = initialized }

    /// Stops a thread loop and frees it with its context (call with the loop unlocked).
    /// On the loop's own thread — its owner released inside one of its callbacks — the
    /// thread cannot join itself, and freeing the context there would unload code it is
    /// still running: a helper thread finishes once the callback has returned.
    static func shutDown(loop: OpaquePointer, context: OpaquePointer?) {
        let teardown = {
            pw_thread_loop_stop(loop)
            if let context { pw_context_destroy(context) }
            pw_thread_loop_destroy(loop)
        }
        if pw_thread_loop_in_thread(loop) {
            pthread_detach(startThread(teardown))
        } else {
            teardown()
        }
    }
}

/// A `spa_hook` at a stable address, removable once.
final class Hook {
    let pointer: UnsafeMutablePointer<spa_hook>
    private var attached = true

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: spa_hook())
    }

    func remove() {
        // A hook never added has a zeroed link; spa_hook_remove needs a linked one.
        if attached && pointer.pointee.link.next != nil { spa_hook_remove(pointer) }
        attached = false
    }

    deinit {
        remove()
        pointer.deallocate()
    }
}

func dictionary(_ dict: UnsafePointer<spa_dict>?) -> [String: String] {
    guard let dict, let items = dict.pointee.items else { return [:] }
    var result: [String: String] = [:]
    for index in 0..<Int(dict.pointee.n_items) {
        let item = items[index]
        guard let key = item.key, let value = item.value else { continue }
        result[String(cString: key)] = String(cString: value)
    }
    return result
}

/// A new `pw_properties` holding `values`; ownership passes to the PipeWire call it is given to.
func makeProperties(_ values: [String: String]) -> UnsafeMutablePointer<pw_properties>? {
    let properties = pw_properties_new_string("")
    for (key, value) in values { pw_properties_set(properties, key, value) }
    return properties
}
