import OcellusCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The newest frame an output delivered, for callers that pull frames or poll a file
/// descriptor instead of taking callbacks: one deep, never a queue — a newer frame
/// replaces one not yet taken. Off until first used; then the stream thread copies each
/// frame into one reused buffer (no allocation once it has the frame's size) and, if a
/// descriptor was asked for, makes it readable. A reader gets a copy of its own.
public final class LatestFrame: @unchecked Sendable {
    private let lock = ConditionLock()
    private let slot = RetainedFrame()
    /// The slot holds a frame not yet taken.
    private var waiting = false
    private var closed = false
    /// The output is part of a running session, so frames can come.
    private var streaming = false
    /// Why the session stopped on its own (the camera unplugged or stalled); nil when asked to stop.
    private var stoppedBy: OcellusError?
    /// A pipe whose read end is readable while a frame waits (one byte in it); -1 until asked for.
    private var readFD: Int32 = -1, writeFD: Int32 = -1
    private let enabled = Atomic<Bool>(false)

    public init() {}

    deinit { for fd in [readFD, writeFD] where fd >= 0 { Glibc.close(fd) } }

    /// Whether the stream thread should `store` frames (cheap: read per frame).
    @inline(__always)
    public var isEnabled: Bool { enabled.load(ordering: .relaxed) }

    /// On the stream thread: `frame` becomes the one waiting.
    public func store(_ frame: CameraFrame) {
        lock.withLock {
            guard !closed else { return }
            slot.store(frame)
            if !waiting { signalDescriptor() }
            waiting = true
            lock.broadcast()
        }
    }

    public enum Taken {
        case frame(RetainedFrame)
        case timedOut
        /// No frame can come: the output is not part of a running session (or stopped being),
        /// with the error that stopped the session when it was not asked to stop.
        case notStreaming(OcellusError?)
        case closed
    }

    /// The error that stopped the output's session on its own, until the output streams again.
    public var stoppedByError: OcellusError? { lock.withLock { streaming ? nil : stoppedBy } }

    /// Set by the session: whether frames can come, and when not, the error that stopped it
    /// if it stopped on its own. Readers waiting when it turns false return.
    public func setStreaming(_ value: Bool, stoppedBy error: OcellusError? = nil) {
        lock.withLock {
            guard streaming != value else { return }
            streaming = value
            stoppedBy = value ? nil : error
            lock.broadcast()
        }
    }

    /// A copy of the waiting frame, waiting up to `timeoutMilliseconds` for one (0: only
    /// what is there now); the frame then counts as taken.
    public func take(timeoutMilliseconds: UInt32) -> Taken {
        enabled.store(true, ordering: .relaxed)
        let deadline = monotonicNanoseconds() + UInt64(timeoutMilliseconds) * 1_000_000
        return lock.withLock {
            while !waiting && !closed {
                guard streaming else { return .notStreaming(stoppedBy) }
                if !lock.wait(untilMonotonicNanoseconds: deadline) && !waiting { return .timedOut }
            }
            guard !closed else { return .closed }
            waiting = false
            drainDescriptor()
            return .frame(RetainedFrame(copying: slot.frame))
        }
    }

    /// A descriptor that is readable while a frame waits (for epoll, GLib, asyncio), owned
    /// by this slot; the same one on every call.
    public func fileDescriptor() throws(OcellusError) -> Int32 {
        enabled.store(true, ordering: .relaxed)
        return try lock.withLock { () throws(OcellusError) -> Int32 in
            if readFD < 0 {
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { throw OcellusError(.noResources, "pipe: \(String(cString: strerror(errno)))") }
                for fd in ends {
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                }
                (readFD, writeFD) = (ends[0], ends[1])
                if waiting { signalDescriptor() }
            }
            return readFD
        }
    }

    /// Wakes readers for good (the output is going away).
    public func close() {
        lock.withLock {
            closed = true
            lock.broadcast()
        }
    }

    private func signalDescriptor() {
        guard writeFD >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    private func drainDescriptor() {
        guard readFD >= 0 else { return }
        var bytes = (UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(readFD, $0.baseAddress, $0.count) }) > 0 {}
    }
}
