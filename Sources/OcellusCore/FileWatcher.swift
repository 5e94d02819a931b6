#if canImport(Glibc)
import Glibc
#endif

/// Watches a directory for a file appearing, going or being replaced (created,
/// deleted, renamed into place, closed after writing) and calls `onChange` on its
/// own thread.
/// Stops on `stop()`.
public final class FileWatcher: @unchecked Sendable {
    private let inotifyFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var thread: pthread_t?

    public convenience init?(directory: String, fileName: String, onChange: @escaping () -> Void) {
        self.init(directory: directory, matching: { $0 == fileName }, onChange: onChange)
    }

    /// Calls `onChange` for any file whose name passes `matches` (e.g. `video*` in `/dev`).
    public init?(directory: String, matching matches: @escaping (String) -> Bool, onChange: @escaping () -> Void) {
        var pipeFDs: [Int32] = [-1, -1]
        inotifyFD = inotify_init1(Int32(IN_CLOEXEC))
        _ = pipe(&pipeFDs)
        (wakeRead, wakeWrite) = (pipeFDs[0], pipeFDs[1])
        guard inotifyFD >= 0, wakeRead >= 0,
              inotify_add_watch(inotifyFD, directory, UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_CLOSE_WRITE)) >= 0 else {
            for fd in [inotifyFD, wakeRead, wakeWrite] where fd >= 0 { close(fd) }
            return nil
        }
        for fd in [wakeRead, wakeWrite] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let inotify = inotifyFD, wake = wakeRead
        thread = startThread {
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
                if descriptors[1].revents != 0 { return }
                guard descriptors[0].revents != 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                guard count > 0 else { continue }
                if FileWatcher.names(in: buffer[0..<count]).contains(where: matches) { onChange() }
            }
        }
    }

    /// Names in a buffer of `struct inotify_event` records.
    static func names(in events: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = events.startIndex
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= events.endIndex {
            let nameLength = events[offset + 12..<offset + 16].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            let nameStart = offset + headerSize
            let nameBytes = events[nameStart..<min(events.endIndex, nameStart + nameLength)].prefix { $0 != 0 }
            names.append(String(decoding: nameBytes, as: UTF8.self))
            offset = nameStart + nameLength
        }
        return names
    }

    public func stop() {
        guard let running = thread else { return }
        thread = nil
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        pthread_join(running, nil)
        for fd in [inotifyFD, wakeRead, wakeWrite] { close(fd) }
    }

    deinit { stop() }
}
