#if canImport(Glibc)
import Glibc
#endif

/// The per-app selection file: `<state dir>/<app id>.selection`, 0600, written
/// atomically (temp file, fsync, rename, fsync of the directory) under an
/// exclusive `flock` on `<app id>.lock`, which serialises processes of the same
/// app. Every update re-reads the file under the lock, so concurrent processes
/// merge instead of overwriting each other.
public final class SelectionStore: @unchecked Sendable {
    public let directory: String
    public let path: String
    private let lockPath: String
    private var temporaryCounter = 0

    public enum LoadResult {
        case missing
        case loaded(SelectionState)
        /// The file was unreadable as a selection file; it was moved to `movedTo` (kept).
        case corrupt(reason: String, movedTo: String?)
    }

    public init(directory: String, appID: String) {
        self.directory = directory
        path = directory + "/" + appID + ".selection"
        lockPath = directory + "/" + appID + ".lock"
    }

    /// Creates the directory (and parents) with mode 0700 when missing.
    public func prepareDirectory() throws(OcellusError) {
        var current = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw OcellusError(.other, "cannot create the state directory \(current): \(String(cString: strerror(errno)))")
            }
        }
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw OcellusError(.other, "the state directory \(directory) is not a directory")
        }
    }

    /// Reads the file; a corrupt one is moved aside so that nothing readable is ever overwritten.
    public func load(bootID: String) -> LoadResult {
        withLock { locked in
            guard let text = readFile(path) else { return .missing }
            do {
                return .loaded(try SelectionState.parse(text, currentBootID: bootID))
            } catch {
                guard locked else { return .corrupt(reason: "\(error)", movedTo: nil) }
                let aside = path + ".corrupt-\(time(nil))"
                let moved = rename(path, aside) == 0
                return .corrupt(reason: "\(error)", movedTo: moved ? aside : nil)
            }
        }
    }

    /// Re-reads the file under the lock, applies `change`, writes the result
    /// atomically, and returns it. A corrupt file met here is moved aside first.
    public func update(bootID: String, fallback: SelectionState,
                       _ change: (inout SelectionState) -> Void) throws(OcellusError) -> SelectionState {
        try prepareDirectory()
        let outcome: Result<SelectionState, OcellusError> = withLock { locked in
            guard locked else {
                return .failure(OcellusError(.other, "cannot lock \(lockPath): \(String(cString: strerror(errno)))"))
            }
            var state = fallback
            if let text = readFile(path) {
                if let stored = try? SelectionState.parse(text, currentBootID: bootID) {
                    state = stored
                } else {
                    _ = rename(path, path + ".corrupt-\(time(nil))")
                }
            }
            change(&state)
            return writeAtomically(state.serialized(bootID: bootID)).map { state }
        }
        return try outcome.get()
    }

    private func withLock<T>(_ body: (Bool) -> T) -> T {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return body(false) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        return body(true)
    }

    private func writeAtomically(_ text: String) -> Result<Void, OcellusError> {
        temporaryCounter += 1
        let temporary = "\(path).tmp-\(getpid())-\(temporaryCounter)"
        func failure(_ what: String) -> Result<Void, OcellusError> {
            let message = "cannot \(what) \(temporary): \(String(cString: strerror(errno)))"
            unlink(temporary)
            return .failure(OcellusError(.other, message))
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return failure("create") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { close(fd); return failure("write") }
            written += count
        }
        guard fsync(fd) == 0 else { close(fd); return failure("sync") }
        close(fd)
        guard rename(temporary, path) == 0 else { return failure("rename") }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 { fsync(directoryFD); close(directoryFD) }
        return .success(())
    }
}

/// The whole file as text, or nil when it cannot be opened.
func readFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += chunk[0..<count]
    }
    return String(validating: bytes, as: UTF8.self) ?? String(decoding: bytes, as: UTF8.self) + "\u{FFFD}"
}

