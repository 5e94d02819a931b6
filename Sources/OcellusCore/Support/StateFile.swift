#if canImport(Glibc)
import Glibc
#endif

/// A small state file that processes share safely: created 0600 in a 0700
/// directory only its owner can write, replaced atomically (temp file, fsync,
/// rename, fsync of the directory) so a crash leaves the old or the new content,
/// and guarded by an exclusive `flock` on a lock file beside it for
/// read-modify-write updates. Every file ends with `end <checksum>`, so a file cut
/// short — even at a line boundary — or altered is told from a good one; nothing
/// under the directory is opened through a symbolic link.
public final class StateFile: @unchecked Sendable {
    public let directory: String
    public let path: String
    public let lockPath: String
    /// The first line of the format's version from before the end line (Ocellus 0.1):
    /// only a file starting with it may lack the end line. Newer versions always have it.
    public let unsealedHeader: String?

    public enum Contents: Equatable {
        case missing
        case intact(String)
        /// Unusable as written (cut short, altered, not text, unsafe directory): why.
        case damaged(String)
    }

    public init(directory: String, name: String, lockName: String, unsealedHeader: String? = nil) {
        self.directory = directory
        path = directory + "/" + name
        lockPath = directory + "/" + lockName
        self.unsealedHeader = unsealedHeader
    }

    /// Creates the directory (and parents) with mode 0700 when missing, and refuses one
    /// that another user owns or that others can write (they could plant or swap files).
    public func prepareDirectory() throws(OcellusError) {
        var current = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw OcellusError(.io, "cannot create the state directory \(current): \(String(cString: strerror(errno)))")
            }
        }
        if let unsafe = directoryProblem() { throw OcellusError(.io, unsafe) }
    }

    private func directoryProblem() -> String? {
        var info = stat()
        guard lstat(directory, &info) == 0 else { return nil } // missing: nothing to read yet
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "the state directory \(directory) is not a directory" }
        if info.st_uid != geteuid() { return "the state directory \(directory) belongs to another user (uid \(info.st_uid))" }
        if info.st_mode & 0o022 != 0 {
            return
                "the state directory \(directory) can be written by others (mode \(String(info.st_mode & 0o7777, radix: 8))); Ocellus keeps state only where its owner alone can write"
        }
        return nil
    }

    public func read() -> Contents {
        if let unsafe = directoryProblem() { return .damaged(unsafe) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            return errno == ENOENT ? .missing : .damaged("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return Self.verify(bytes, unsealedHeader: unsealedHeader)
    }

    /// The body of a file as `serialize` wrote it. A file without the end line is
    /// accepted only as the 0.1 format (`unsealedHeader`, whole lines): a newer file
    /// cut at a line boundary is damaged, not read with its last lines missing.
    static func verify(_ bytes: [UInt8], unsealedHeader: String?) -> Contents {
        guard let text = String(validating: bytes, as: UTF8.self) else { return .damaged("the file is not UTF-8 text") }
        guard text.hasSuffix("\n") else { return .damaged("the file ends mid-line (cut short)") }
        let body = text.dropLast()
        guard let newline = body.lastIndex(of: "\n"), body[body.index(after: newline)...].hasPrefix("end ") else {
            if let unsealedHeader, text.hasPrefix(unsealedHeader + "\n") { return .intact(text) }
            return .damaged("the file has no end line (cut short)")
        }
        let content = String(body[...newline])
        let stored = body[body.index(newline, offsetBy: 5)...]
        guard stored == checksum(content) else { return .damaged("the checksum does not match (the file was altered or torn)") }
        return .intact(content)
    }

    static func serialize(_ text: String) -> String { text + "end " + checksum(text) + "\n" }

    /// FNV-1a (64 bits) in hex: enough to tell a torn or edited file, not a defence against forgery.
    static func checksum(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Moves a damaged file aside (kept for inspection) under a name no other copy has
    /// (linked, never renamed over one: several set aside in one second all stay); returns where, or nil.
    public func moveAside() -> String? {
        let stamp = time(nil)
        for number in 0..<1000 {
            let aside = path + ".corrupt-\(stamp)" + (number == 0 ? "" : "-\(number)")
            if link(path, aside) == 0 {
                unlink(path)
                return aside
            }
            guard errno == EEXIST else { return nil }
        }
        return nil
    }

    /// Runs `body` holding the lock; `body` learns whether the lock could be taken.
    public func withLock<T>(_ body: (Bool) -> T) -> T {
        guard directoryProblem() == nil else { return body(false) }
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return body(false) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        return body(true)
    }

    /// `text` (whole lines) with its end line, replacing the file atomically.
    public func writeAtomically(_ text: String) -> Result<Void, OcellusError> {
        if let unsafe = directoryProblem() { return .failure(OcellusError(.io, unsafe)) }
        return Array(Self.serialize(text).utf8).withUnsafeBytes { bytes in
            Result { () throws(OcellusError) in try writeFileAtomically(bytes, to: path, mode: 0o600) }
        }
    }
}
