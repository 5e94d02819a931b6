#if canImport(Glibc)
import Glibc
#endif

/// Watches directories for files appearing, going or being replaced (created, deleted,
/// renamed into place, closed after writing) and calls each watch's handler on the
/// watcher's own thread, one call at a time.
///
/// One watcher serves a whole context — the selection file, `/dev` for V4L2 nodes, the
/// PipeWire socket — on one inotify descriptor: closing an inotify descriptor waits for
/// the kernel (several milliseconds each), and a short-lived client pays that at exit.
public final class FileWatcher: @unchecked Sendable {
    /// A registration, for `remove(_:)`.
    public struct Watch: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    /// What a watch wants to hear of. The kernel is asked for these alone: a directory like
    /// `/dev` sees a file closed after writing whenever any process writes to `/dev/null`.
    public struct Changes: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Created, or renamed into the directory.
        public static let appeared = Changes(rawValue: UInt32(IN_CREATE | IN_MOVED_TO))
        /// Deleted, or renamed out of it.
        public static let removed = Changes(rawValue: UInt32(IN_DELETE | IN_MOVED_FROM))
        /// Closed after writing (rewritten in place).
        public static let rewritten = Changes(rawValue: UInt32(IN_CLOSE_WRITE))
    }

    private struct Entry {
        let id: UInt64
        let directory: String
        let descriptor: Int32
        let changes: Changes
        let matches: (String) -> Bool
        let onChange: () -> Void
    }
    private let inotifyFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var thread: pthread_t?
    private let lock = ConditionLock()
    private var entries: [Entry] = []
    private var nextID: UInt64 = 1
    /// Set by the thread when its loop has ended (shared with it: the watcher may be deinitialising).
    private let loopEnded = LockedFlag()

    private final class LockedFlag: @unchecked Sendable {
        private let condition = ConditionLock()
        var value = false
        func withLock<T>(_ body: () -> T) -> T { condition.withLock(body) }
        func wait() { condition.wait() }
        func broadcast() { condition.broadcast() }
    }

    public init?() {
        var pipeFDs: [Int32] = [-1, -1]
        inotifyFD = inotify_init1(Int32(IN_CLOEXEC))
        _ = pipe(&pipeFDs)
        (wakeRead, wakeWrite) = (pipeFDs[0], pipeFDs[1])
        for fd in [wakeRead, wakeWrite] where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        guard inotifyFD >= 0, wakeRead >= 0 else {
            for fd in [inotifyFD, wakeRead, wakeWrite] where fd >= 0 { close(fd) }
            return nil
        }
        let (inotify, wake, wakeWriter) = (inotifyFD, wakeRead, wakeWrite)
        let ended = loopEnded
        // The thread closes the descriptors as it ends, after `stop()` has returned: closing an
        // inotify descriptor waits for the kernel (up to tens of milliseconds under load), and
        // every short-lived client would pay that in `oc_context_destroy`.
        thread = startThread { [weak self] in
            var descriptors = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
            ]
            var buffer = [UInt8](repeating: 0, count: 4096)
            while poll(&descriptors, 2, -1) >= 0 || errno == EINTR {
                if descriptors[1].revents != 0 { break }
                guard descriptors[0].revents != 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                guard count > 0 else { continue }
                self?.dispatch(FileWatcher.events(in: buffer[0..<count]))
            }
            ended.withLock {
                ended.value = true
                ended.broadcast()
            }
            for fd in [inotify, wake, wakeWriter] { close(fd) }
        }
    }

    /// Calls `onChange` for `changes` of any file in `directory` whose name passes `matches`
    /// (e.g. `video*` in `/dev`); nil when the directory cannot be watched.
    public func watch(
        directory: String, for changes: Changes, matching matches: @escaping (String) -> Bool,
        onChange: @escaping () -> Void
    ) -> Watch? {
        lock.withLock {
            // One descriptor per directory, asking the kernel for what its watches want together.
            let descriptor = inotify_add_watch(inotifyFD, directory, changes.rawValue | UInt32(IN_MASK_ADD))
            guard descriptor >= 0 else { return nil }
            defer { nextID += 1 }
            entries.append(
                Entry(
                    id: nextID, directory: directory, descriptor: descriptor, changes: changes,
                    matches: matches, onChange: onChange))
            return Watch(id: nextID)
        }
    }

    public func watch(directory: String, fileName: String, for changes: Changes, onChange: @escaping () -> Void) -> Watch? {
        watch(directory: directory, for: changes, matching: { $0 == fileName }, onChange: onChange)
    }

    /// Ends a watch; a call of its handler in flight on the watcher's thread may still finish.
    public func remove(_ watch: Watch) {
        lock.withLock {
            guard let index = entries.firstIndex(where: { $0.id == watch.id }) else { return }
            let removed = entries.remove(at: index)
            let others = entries.filter { $0.descriptor == removed.descriptor }
            if others.isEmpty {
                _ = inotify_rm_watch(inotifyFD, removed.descriptor)
            } else {
                // What the remaining watches of the directory want, and no more.
                let wanted = others.reduce(Changes()) { $0.union($1.changes) }
                _ = inotify_add_watch(inotifyFD, removed.directory, wanted.rawValue)
            }
        }
    }

    private func dispatch(_ events: [Event]) {
        let due = lock.withLock {
            entries.filter { entry in
                events.contains { $0.descriptor == entry.descriptor && $0.mask & entry.changes.rawValue != 0 && entry.matches($0.name) }
            }
        }
        for entry in due { entry.onChange() }
    }

    struct Event {
        let descriptor: Int32
        let mask: UInt32
        let name: String
    }

    /// Each `struct inotify_event` in a buffer.
    static func events(in buffer: ArraySlice<UInt8>) -> [Event] {
        var events: [Event] = []
        var offset = buffer.startIndex
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= buffer.endIndex {
            let descriptor = buffer[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
            let mask = buffer[offset + 4..<offset + 8].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            let nameLength = buffer[offset + 12..<offset + 16].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            let nameStart = offset + headerSize
            let nameBytes = buffer[nameStart..<min(buffer.endIndex, nameStart + nameLength)].prefix { $0 != 0 }
            events.append(Event(descriptor: descriptor, mask: mask, name: String(decoding: nameBytes, as: UTF8.self)))
            offset = nameStart + nameLength
        }
        return events
    }

    /// Names in a buffer of `struct inotify_event` records.
    static func names(in buffer: ArraySlice<UInt8>) -> [String] { events(in: buffer).map(\.name) }

    /// Stops the thread (once; every watch ends): returns when no handler runs any more, and
    /// leaves closing the descriptor to the thread.
    public func stop() {
        guard
            let running = lock.withLock({ () -> pthread_t? in
                defer { thread = nil }; return thread
            })
        else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        // From one of its own handlers it ends once the handler returns; from elsewhere, wait for its loop to end.
        if pthread_equal(running, pthread_self()) == 0 {
            loopEnded.withLock { while !loopEnded.value { loopEnded.wait() } }
        }
        pthread_detach(running)
        lock.withLock { entries.removeAll() }
    }

    deinit { stop() }
}
