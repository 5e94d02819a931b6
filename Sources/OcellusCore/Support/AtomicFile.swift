import Synchronization

#if canImport(Glibc)
import Glibc
#endif

private let temporaryNames = Atomic<UInt64>(0)

/// Writes `bytes` to `path` whole or not at all: a temporary file beside it (unique
/// per process and call), synced, renamed over `path`, then the directory synced, so a
/// crash leaves the old content or the new, never a torn file. Only a regular file is
/// replaced: a device node, FIFO, socket, directory or symbolic link at `path` is refused
/// (renaming over `/dev/full` replaced the device). Temporary files that writers killed
/// mid-write left beside `path` are removed.
public func writeFileAtomically(_ bytes: UnsafeRawBufferPointer, to path: String, mode: mode_t) throws(OcellusError) {
    var existing = stat()
    if lstat(path, &existing) == 0 && existing.st_mode & S_IFMT != S_IFREG {
        let what =
            switch existing.st_mode & S_IFMT {
            case S_IFLNK: "a symbolic link"
            case S_IFDIR: "a directory"
            case S_IFCHR, S_IFBLK: "a device"
            case S_IFIFO: "a FIFO"
            default: "not a regular file"
            }
        throw OcellusError(.invalidArgument, "cannot write \(path): it is \(what), and only a regular file is replaced")
    }
    removeAbandonedTemporaries(of: path)
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

/// Removes `PATH.tmp-PID-N` files whose writing process is gone (killed between creating and
/// renaming its temporary file); a live writer's are left alone.
private func removeAbandonedTemporaries(of path: String) {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let prefix = (slash.map { String(path[path.index(after: $0)...]) } ?? path) + ".tmp-"
    guard let listing = opendir(directory) else { return }
    defer { closedir(listing) }
    while let entry = readdir(listing) {
        // Read in place up to its NUL: the bytes after it are not initialised.
        let name = withUnsafeMutableBytes(of: &entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
        guard name.hasPrefix(prefix), let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ pid_t($0) }),
            pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
        else { continue }
        unlink(directory + "/" + name)
    }
}
