#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

public func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func monotonicMicroseconds() -> UInt64 { monotonicNanoseconds() / 1000 }

/// The kernel's ID of this boot: monotonic times from another boot are not comparable.
func currentBootID() -> String {
    readFile("/proc/sys/kernel/random/boot_id").map { text in
        String(text.filter { !$0.isWhitespace })
    } ?? String(repeating: "0", count: 32)
}

/// The whole file as text, or nil when it cannot be opened.
public func readFile(_ path: String) -> String? {
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

/// What an errno value means, as strerror says it.
public func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

/// Starts a pthread running `body`; returns its handle for joining.
public func startThread(_ body: @escaping () -> Void) -> pthread_t {
    final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
    precondition(result == 0, "pthread_create failed: \(result)")
    return thread
}

/// Waits for `thread` to end; on that thread itself (its owner released from its own body)
/// detaches it instead, since a thread cannot join itself: it ends when its body returns.
public func joinUnlessCurrent(_ thread: pthread_t) {
    if pthread_equal(thread, pthread_self()) != 0 { pthread_detach(thread) } else { pthread_join(thread, nil) }
}

/// An environment variable's text. Bytes that are not UTF-8 are an error naming the
/// variable, never replaced: a repaired path would name another directory. `lookup` is the
/// process's environment, or a test's own (setenv beside other threads' getenv is a race).
public func environmentVariable(
    _ name: String, lookup: (String) -> UnsafePointer<CChar>? = { getenv($0).map { UnsafePointer($0) } }
) throws(OcellusError) -> String? {
    guard let raw = lookup(name) else { return nil }
    guard let text = String(validatingCString: raw) else {
        throw OcellusError(.invalidArgument, "\(name) is not valid UTF-8; Ocellus takes paths and names as UTF-8 bytes")
    }
    return text
}
