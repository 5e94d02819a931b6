#if canImport(Glibc)
import Glibc
#endif

/// A small state file that processes share safely: created 0600 in a 0700
/// directory, replaced atomically (temp file, fsync, rename, fsync of the
/// directory) so a crash leaves the old or the new content, and guarded by an
/// exclusive `flock` on a lock file beside it for read-modify-write updates.
public final class StateFile: @unchecked Sendable {
    public let directory: String
    public let path: String
    public let lockPath: String

    public init(directory: String, name: String, lockName: String) {
        self.directory = directory
        path = directory + "/" + name
        lockPath = directory + "/" + lockName
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

    public func read() -> String? { readFile(path) }

    /// Runs `body` holding the lock; `body` learns whether the lock could be taken.
    public func withLock<T>(_ body: (Bool) -> T) -> T {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return body(false) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        return body(true)
    }

    public func writeAtomically(_ text: String) -> Result<Void, OcellusError> {
        Array(text.utf8).withUnsafeBytes { bytes in Result { () throws(OcellusError) in try writeFileAtomically(bytes, to: path, mode: 0o600) } }
    }
}

