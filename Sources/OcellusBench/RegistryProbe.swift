import CLibPipeWire
import CPipeWire
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The baseline: a bare libpipewire client that only connects and listens to the
/// registry (no binding, no formats). What any PipeWire client pays at minimum.
final class RegistryProbe: @unchecked Sendable {
    private let loop: OpaquePointer
    private let context: OpaquePointer
    private var core: OpaquePointer?
    private var registry: OpaquePointer?
    private let coreHook = Pinned(spa_hook()), registryHook = Pinned(spa_hook())
    private let coreEvents = Pinned(pw_core_events()), registryEvents = Pinned(pw_registry_events())
    private var syncSeq: Int32 = -1
    private var synced = false
    private let lock = ConditionLock()
    /// node.name → monotonic ns when its global appeared / was removed.
    private var appeared: [String: UInt64] = [:]
    private var removed: [String: UInt64] = [:]
    private var names: [UInt32: String] = [:]

    init() {
        pw_init(nil, nil)
        loop = pw_thread_loop_new("bench-probe", nil)
        context = pw_context_new(pw_thread_loop_get_loop(loop), nil, 0)
        pw_thread_loop_start(loop)
    }

    /// Connects and waits for the first registry round trip; returns false if the daemon is absent.
    func connect() -> Bool {
        pw_thread_loop_lock(loop)
        defer { pw_thread_loop_unlock(loop) }
        core = pw_context_connect(context, nil, 0)
        guard let core else { return false }
        let me = Unmanaged.passUnretained(self).toOpaque()
        coreEvents.pointer.pointee.version = UInt32(PW_VERSION_CORE_EVENTS)
        coreEvents.pointer.pointee.done = { data, _, seq in
            let probe = Unmanaged<RegistryProbe>.fromOpaque(data!).takeUnretainedValue()
            if seq == probe.syncSeq { probe.synced = true; pw_thread_loop_signal(probe.loop, false) }
        }
        ocpw_core_add_listener(core, coreHook.pointer, coreEvents.pointer, me)
        registry = pw_core_get_registry(core, UInt32(PW_VERSION_REGISTRY), 0)
        registryEvents.pointer.pointee.version = UInt32(PW_VERSION_REGISTRY_EVENTS)
        registryEvents.pointer.pointee.global = { data, id, _, _, _, props in
            let probe = Unmanaged<RegistryProbe>.fromOpaque(data!).takeUnretainedValue()
            guard let name = ocpw_dict_lookup(props, "node.name") else { return }
            let now = monotonicNanoseconds()
            probe.lock.withLock {
                probe.names[id] = String(cString: name)
                probe.appeared[String(cString: name)] = now
                probe.lock.broadcast()
            }
        }
        registryEvents.pointer.pointee.global_remove = { data, id in
            let probe = Unmanaged<RegistryProbe>.fromOpaque(data!).takeUnretainedValue()
            let now = monotonicNanoseconds()
            probe.lock.withLock {
                if let name = probe.names.removeValue(forKey: id) { probe.removed[name] = now }
                probe.lock.broadcast()
            }
        }
        ocpw_registry_add_listener(registry, registryHook.pointer, registryEvents.pointer, me)
        syncSeq = ocpw_core_sync(core, UInt32(PW_ID_CORE), 0)
        while !synced { pw_thread_loop_wait(loop) }
        return true
    }

    func appearance(of name: String) -> UInt64? { wait { $0.appeared[name] } }
    func removal(of name: String) -> UInt64? { wait { $0.removed[name] } }

    private func wait(_ value: (RegistryProbe) -> UInt64?) -> UInt64? {
        let deadline = monotonicNanoseconds() + 5_000_000_000
        return lock.withLock {
            while value(self) == nil && lock.wait(untilMonotonicNanoseconds: deadline) {}
            return value(self)
        }
    }

    func forget(_ name: String) {
        lock.withLock {
            appeared[name] = nil; removed[name] = nil
        }
    }

    func close() {
        pw_thread_loop_lock(loop)
        spa_hook_remove(registryHook.pointer)
        spa_hook_remove(coreHook.pointer)
        if let registry { pw_proxy_destroy(registry) }
        if let core { pw_core_disconnect(core) }
        pw_thread_loop_unlock(loop)
        pw_thread_loop_stop(loop)
        pw_context_destroy(context)
        pw_thread_loop_destroy(loop)
    }
}
