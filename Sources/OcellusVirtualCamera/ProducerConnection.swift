import CLibPipeWire
import CPipeWire
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// What a test-bed producer process needs of PipeWire besides its own stream: a main loop that
/// ends on SIGINT or SIGTERM or when the daemon goes away, a core connection, and the node's
/// global ID and serial once the registry shows them (what scripts wait for).
final class ProducerConnection {
    let loop: OpaquePointer
    let core: OpaquePointer
    private var registry: OpaquePointer?
    private var node: (stream: OpaquePointer, ready: (UInt32, String) -> Void)?
    private var announced = false
    private(set) var failure: String?
    // PipeWire keeps pointers to hooks and event tables: they need fixed addresses.
    private let coreHook = Pinned(spa_hook()), registryHook = Pinned(spa_hook())
    private let coreEvents = Pinned(pw_core_events()), registryEvents = Pinned(pw_registry_events())

    init(remote: String?) throws(ProducerFailure) {
        pw_init(nil, nil)
        guard let loop = pw_main_loop_new(nil) else { throw ProducerFailure(description: "could not create a PipeWire loop") }
        self.loop = loop
        let pwLoop = pw_main_loop_get_loop(loop)
        let context = pw_context_new(pwLoop, nil, 0)
        var connectProperties = producerProperties([:])
        if let remote { pw_properties_set(connectProperties, "remote.name", remote) }
        guard let core = pw_context_connect(context, connectProperties, 0) else {
            pw_main_loop_destroy(loop)
            throw ProducerFailure(description: "cannot connect to PipeWire: \(String(cString: strerror(errno)))")
        }
        connectProperties = nil
        self.core = core
        let me = Unmanaged.passUnretained(self).toOpaque()
        for signalNumber in [SIGINT, SIGTERM] {
            _ = ocpw_loop_add_signal(
                pwLoop, signalNumber,
                { data, _ in
                    Unmanaged<ProducerConnection>.fromOpaque(data!).takeUnretainedValue().quit()
                }, me)
        }
        coreEvents.pointer.pointee.version = UInt32(PW_VERSION_CORE_EVENTS)
        coreEvents.pointer.pointee.error = { data, id, _, res, _ in
            let connection = Unmanaged<ProducerConnection>.fromOpaque(data!).takeUnretainedValue()
            if id == UInt32(PW_ID_CORE) && res == -EPIPE {
                connection.failure = "the PipeWire daemon went away"
                connection.quit()
            }
        }
        ocpw_core_add_listener(core, coreHook.pointer, coreEvents.pointer, me)
    }

    deinit {
        if registry != nil { spa_hook_remove(registryHook.pointer); pw_proxy_destroy(registry) }
        pw_core_disconnect(core)
        pw_main_loop_destroy(loop)
    }

    var pwLoop: UnsafeMutablePointer<pw_loop> { pw_main_loop_get_loop(loop) }

    /// A stream published as a node of `mediaClass` named `name`, with `properties` (its
    /// description `description`, else the name, unless the properties give one).
    func makeStream(
        name: String, description: String?, mediaClass: String, mediaType: String,
        properties: [String: String]
    ) throws(ProducerFailure) -> OpaquePointer {
        var all = properties
        (all["media.class"], all["media.type"], all["node.name"]) = (mediaClass, mediaType, name)
        all["node.description"] = all["node.description"] ?? description ?? name
        guard let stream = pw_stream_new(core, name, producerProperties(all)) else {
            throw ProducerFailure(description: "could not create the stream: \(String(cString: strerror(errno)))")
        }
        return stream
    }

    /// Calls `ready` once the registry shows `stream`'s node, with its global ID and serial.
    func announce(nodeOf stream: OpaquePointer, ready: @escaping (UInt32, String) -> Void) {
        node = (stream, ready)
        registry = pw_core_get_registry(core, UInt32(PW_VERSION_REGISTRY), 0)
        registryEvents.pointer.pointee.version = UInt32(PW_VERSION_REGISTRY_EVENTS)
        registryEvents.pointer.pointee.global = { data, id, _, type, _, props in
            let connection = Unmanaged<ProducerConnection>.fromOpaque(data!).takeUnretainedValue()
            guard !connection.announced, let type, String(cString: type) == "PipeWire:Interface:Node",
                let node = connection.node, id == pw_stream_get_node_id(node.stream),
                let serial = ocpw_dict_lookup(props, "object.serial")
            else { return }
            connection.announced = true
            node.ready(id, String(cString: serial))
        }
        ocpw_registry_add_listener(registry, registryHook.pointer, registryEvents.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs the loop until `quit` (a signal, the daemon gone); throws what ended it badly.
    func run() throws(ProducerFailure) {
        pw_main_loop_run(loop)
        if let failure { throw ProducerFailure(description: failure) }
    }

    func quit(failing failure: String? = nil) {
        if let failure { self.failure = self.failure ?? failure }
        pw_main_loop_quit(loop)
    }
}

/// Why a producer could not start or ran no more.
public struct ProducerFailure: Error, CustomStringConvertible {
    public let description: String
}

func producerProperties(_ values: [String: String]) -> UnsafeMutablePointer<pw_properties>? {
    let result = pw_properties_new_string("")
    for (key, value) in values { pw_properties_set(result, key, value) }
    return result
}
