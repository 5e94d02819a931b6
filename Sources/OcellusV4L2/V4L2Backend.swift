import CV4L2
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// Cameras straight from the kernel, for machines without PipeWire (servers,
/// kiosks, containers, boards). Hotplug comes from kernel uevents on a
/// `NETLINK_KOBJECT_UEVENT` socket (and inotify on /dev), so no udevd is needed:
/// any add or remove in the video4linux subsystem triggers a rescan, and the
/// difference of camera groups (keyed by bus identity, never by `/dev/videoN`) is
/// reported.
public final class V4L2Backend: DeviceBackend, @unchecked Sendable {
    public let kind = BackendKind.v4l2
    public let capabilities = BackendCapabilities(streamsDepth: true, isKernelView: true)
    private let system: any V4L2System
    private let lock = ConditionLock()
    private weak var delegate: (any DeviceBackendDelegate)?
    private var present: [String: DeviceFacts] = [:]
    private var listener: UEventListener?
    /// The `/dev` watch on the context's file watcher (inotify, for containers without uevents).
    private var deviceWatch: (FileWatcher, FileWatcher.Watch)?
    private let hotplug: Bool

    /// `hotplug: false` scans once and listens for nothing (device-profile tests).
    public init(system: any V4L2System = defaultV4L2System(), hotplug: Bool = true) {
        self.system = system
        self.hotplug = hotplug
    }

    deinit { stop() }

    /// A camera through the node that lists `format` at its size (a device's formats may span
    /// nodes), with this backend's system (a recorded profile streams from its replay).
    public func openStream(
        for device: Device, format: VideoFormat, frameRate: FrameRate,
        handler: @escaping (CameraStreamEvent) -> Void
    ) throws(OcellusError) -> any CameraStream {
        guard let primary = device.details.videoNodes.first else {
            throw OcellusError(.notFound, "\(device.uniqueID) has no V4L2 node")
        }
        let nodes = device.details.videoNodes.map { $0.split(separator: "/").last.map(String.init) ?? "" }
        let path = V4L2Discovery(system: system).node(offering: format, among: nodes).map { "/dev/" + $0 } ?? primary
        return try V4L2CameraStream(devicePath: path, format: format, frameRate: frameRate, system: system, handler: handler)
    }

    /// The controls of the camera's first V4L2 node — a PipeWire camera's too, when that node is here.
    public func controller(for device: Device) throws(OcellusError) -> any CameraControlling {
        guard let node = device.details.videoNodes.first else {
            throw OcellusError(.notFound, "\(device.uniqueID) has no V4L2 node")
        }
        guard device.backend == .v4l2 || access(node, F_OK) == 0 else {
            throw OcellusError(.notFound, "\(device.uniqueID)'s node \(node) is not here")
        }
        return V4L2Controls(devicePath: node, system: system)
    }

    public func start(delegate: any DeviceBackendDelegate, timeoutMilliseconds: UInt32) throws(OcellusError) {
        lock.withLock { self.delegate = delegate }
        // Listen before the first scan, so nothing plugged in between is missed.
        // Kernel uevents first; inotify on /dev as well, for containers whose network
        // namespace gets no uevents. A rescan is idempotent, so hearing both is harmless.
        if hotplug {
            let listener = UEventListener(subsystem: "video4linux") { [weak self] in self?.rescan() }
            let watcher = delegate.fileWatcher
            let nodeWatch = watcher?.watch(directory: "/dev", for: [.appeared, .removed], matching: { $0.hasPrefix("video") }) { [weak self] in
                self?.rescan()
            }
            lock.withLock { (self.listener, self.deviceWatch) = (listener, nodeWatch.map { (watcher!, $0) }) }
        }
        rescan()
    }

    public func stop() {
        let (running, watch) = lock.withLock { () -> (UEventListener?, (FileWatcher, FileWatcher.Watch)?) in
            delegate = nil
            defer { (listener, deviceWatch) = (nil, nil) }
            return (listener, deviceWatch)
        }
        running?.stop()
        if let (watcher, watch) = watch { watcher.remove(watch) }
    }

    /// Scans the video nodes and reports what appeared and what went away.
    public func rescan() {
        lock.withLock {
            guard let delegate else { return }
            let survey = V4L2Discovery(system: system).survey()
            let found = Dictionary(survey.cameras.map { ($0.backendKey, $0) }, uniquingKeysWith: { first, _ in first })
            delegate.backend(self, didReportProblem: survey.problem)
            for key in present.keys where found[key] == nil {
                present.removeValue(forKey: key)
                delegate.backend(self, didRemoveDeviceWithKey: key)
            }
            for (key, facts) in found.sorted(by: { $0.key < $1.key }) where present[key] == nil {
                present[key] = facts
                delegate.backend(self, didAdd: facts)
            }
        }
    }
}

/// Kernel uevents (the messages udevd would otherwise consume) on a netlink
/// socket: `onChange` runs on a library thread after a burst of events that
/// includes one of `subsystem`, or after the kernel dropped events because the
/// socket was full (so the caller rescans rather than missing an unplug).
final class UEventListener: @unchecked Sendable {
    private let socketFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var thread: pthread_t?

    init?(subsystem wanted: String, onChange: @escaping () -> Void) {
        socketFD = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), NETLINK_KOBJECT_UEVENT)
        // A driver unbinding sends dozens of events at once; room for them (the
        // FORCE variant works as root, beyond the system's rmem_max).
        var receiveBuffer: Int32 = 1 << 20
        let size = socklen_t(MemoryLayout<Int32>.size)
        if setsockopt(socketFD, SOL_SOCKET, SO_RCVBUFFORCE, &receiveBuffer, size) != 0 {
            _ = setsockopt(socketFD, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, size)
        }
        var pipeFDs: [Int32] = [-1, -1]
        _ = pipe(&pipeFDs)
        (wakeRead, wakeWrite) = (pipeFDs[0], pipeFDs[1])
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = 1 // the kernel's broadcast group
        let fd = socketFD
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
        }
        guard socketFD >= 0, wakeRead >= 0, bound == 0 else {
            for fd in [socketFD, wakeRead, wakeWrite] where fd >= 0 { close(fd) }
            return nil
        }
        let socketFD = self.socketFD, wake = wakeRead
        thread = startThread {
            var descriptors = [
                pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
            ]
            var buffer = [UInt8](repeating: 0, count: 8192)
            while true {
                guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
                if descriptors[1].revents != 0 { return }
                guard descriptors[0].revents != 0 else { continue }
                // Drain the burst, then report once.
                var changed = false
                while true {
                    let count = buffer.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    if count > 0 {
                        if UEventListener.subsystem(of: buffer[0..<count]) == wanted { changed = true }
                    } else if count < 0 && errno == ENOBUFS {
                        changed = true // events were lost: only a rescan can tell what changed
                    } else if !(count < 0 && errno == EINTR) {
                        break
                    }
                }
                if changed { onChange() }
            }
        }
    }

    /// `ACTION@DEVPATH\0KEY=VALUE\0…` → the SUBSYSTEM value.
    static func subsystem(of message: ArraySlice<UInt8>) -> String? {
        for field in message.split(separator: 0) where field.starts(with: Array("SUBSYSTEM=".utf8)) {
            return String(decoding: field.dropFirst("SUBSYSTEM=".utf8.count), as: UTF8.self)
        }
        return nil
    }

    func stop() {
        guard let running = thread else { return }
        thread = nil
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        pthread_join(running, nil)
        for fd in [socketFD, wakeRead, wakeWrite] { close(fd) }
    }

    deinit { stop() }
}
