import CLibPipeWire
import CPipeWire
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// A connection to a PipeWire daemon on a `pw_thread_loop` of its own: the loop, its
/// context and the core. Every PipeWire callback of its objects runs on the loop's
/// thread with the loop locked; other threads take the lock with `withLock`. Discovery
/// and each capture stream have one, so frame callbacks never hold up discovery.
final class PipeWireConnection {
    let loop: OpaquePointer
    private(set) var core: OpaquePointer?
    private var context: OpaquePointer?

    /// Starts the loop thread and connects to `remote` with `clientProperties` on the client.
    init(threadName: String, remote: PipeWireRemote, clientProperties: [String: String] = [:]) throws(OcellusError) {
        PipeWireLibrary.initializeOnce()
        guard let loop = pw_thread_loop_new(threadName, nil) else {
            throw OcellusError(.noResources, "could not create a PipeWire thread loop")
        }
        self.loop = loop
        // PipeWire's plain client.conf: no realtime module, a capture library does not ask for RT on its own.
        context = pw_context_new(pw_thread_loop_get_loop(loop), nil, 0)
        guard context != nil, pw_thread_loop_start(loop) == 0 else {
            let reason = errnoText()
            close {}
            throw OcellusError(.noResources, "could not start a PipeWire thread: \(reason)")
        }
        // The descriptor is asked for outside the loop's lock: the portal may take a moment.
        var handedOver: Int32?
        if let open = remote.openDescriptor {
            do throws(OcellusError) { handedOver = try open() } catch {
                close {}
                throw error
            }
        }
        let connected = withLock { () -> Result<OpaquePointer, OcellusError> in
            errno = 0
            if let fd = handedOver {
                core = pw_context_connect_fd(context, fd, makeClientProperties(clientProperties), 0)
            } else if let remote = remote.name {
                // PIPEWIRE_REMOTE would override a `remote.name` property, so an explicit remote is
                // connected here and handed over as a socket.
                switch PipeWireSocket.connect(remote) {
                case .success(let fd): core = pw_context_connect_fd(context, fd, makeClientProperties(clientProperties), 0)
                case .failure(let error): return .failure(error)
                }
            } else {
                core = pw_context_connect(context, makeClientProperties(clientProperties), 0)
            }
            guard let core else {
                return .failure(
                    OcellusError(
                        .backendUnavailable,
                        "cannot connect to PipeWire at \(remote.description): \(errnoText()) (is the daemon running?)"))
            }
            return .success(core)
        }
        if case .failure(let error) = connected {
            close {}
            throw error
        }
    }

    /// The daemon `remote` names, for messages.
    static func describe(_ remote: String?) -> String {
        if let remote { return remote }
        if let env = getenv("PIPEWIRE_REMOTE") { return String(cString: env) }
        return "the default PipeWire socket"
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pw_thread_loop_lock(loop)
        defer { pw_thread_loop_unlock(loop) }
        return try body()
    }

    /// Waits (loop locked) until `done` or the deadline `timeoutMilliseconds` from now; false on timeout.
    func wait(milliseconds timeoutMilliseconds: UInt32, until done: () -> Bool) -> Bool {
        var deadline = timespec()
        pw_thread_loop_get_time(loop, &deadline, Int64(timeoutMilliseconds) * 1_000_000)
        while !done() {
            if pw_thread_loop_timed_wait_full(loop, &deadline) != 0 { return false }
        }
        return true
    }

    /// Wakes `wait`.
    func signal() { pw_thread_loop_signal(loop, false) }

    private var closed = false

    /// Tears the connection down in the order PipeWire's threads need: `quiesce` (loop locked)
    /// stops the owner's objects from making more work — a disconnected stream has left the
    /// context's data loop — then everything that thread had already queued for this loop
    /// runs, and only then `teardown` (loop locked) frees the owner's objects and hooks, the
    /// core disconnects and the thread stops. (A stream freed while an invoke for it was still
    /// queued was written to after `free` on every stop.) Once; from the loop's own thread — an
    /// owner released inside one of its callbacks — the sequence runs on a helper thread after
    /// the callback has returned.
    func close(quiesce: @escaping () -> Void = {}, _ teardown: @escaping () -> Void) {
        guard !closed else { return }
        closed = true
        let sequence = { [self] in
            withLock {
                quiesce()
                // A blocking invoke waits with the thread loop's lock released by the loop's
                // own hooks, and holds it again when it returns.
                _ = ocpw_loop_flush(pw_thread_loop_get_loop(loop))
                teardown()
                if let core { pw_core_disconnect(core) }
                core = nil
            }
            PipeWireLibrary.shutDown(loop: loop, context: context)
            context = nil
        }
        if pw_thread_loop_in_thread(loop) {
            pthread_detach(startThread(sequence))
        } else {
            sequence()
        }
    }
}

/// nil for none (PipeWire's defaults), else the properties to give the connection (it takes them).
private func makeClientProperties(_ values: [String: String]) -> UnsafeMutablePointer<pw_properties>? {
    values.isEmpty ? nil : makeProperties(values)
}
