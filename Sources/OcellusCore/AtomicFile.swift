import Synchronization
#if canImport(Glibc)
import Glibc
#endif

private let temporaryNames = Atomic<UInt64>(0)

/// Writes `bytes` to `path` whole or not at all: a temporary file beside it (unique
/// per process and call), synced, renamed over `path`, then the directory synced, so a
/// crash leaves the old content or the new, never a torn file.
public func writeFileAtomically(_ bytes: UnsafeRawBufferPointer, to path: String, mode: mode_t) throws(OcellusError) {
    let temporary = "\(path).tmp-\(getpid())-\(temporaryNames.add(1, ordering: .relaxed).newValue)"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    var failure: Int32 = fd < 0 ? errno : 0
    var written = 0
    while failure == 0 && written < bytes.count {
        let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { failure = count < 0 ? errno : ENOSPC } else { written += count }
    }
    if failure == 0 && fsync(fd) != 0 { failure = errno }
    if fd >= 0 { close(fd) }
    if failure == 0 && rename(temporary, path) != 0 { failure = errno }
    guard failure == 0 else {
        unlink(temporary)
        throw OcellusError(.io, "cannot write \(path): \(String(cString: strerror(failure)))")
    }
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryFD >= 0 { fsync(directoryFD); close(directoryFD) }
}
