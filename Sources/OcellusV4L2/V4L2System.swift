import CV4L2
import OcellusCore
import OcellusUSB
#if canImport(Glibc)
import Glibc
#endif

/// Everything the V4L2 backend asks of the kernel, behind one protocol: the
/// real system below, and in tests a replay of device profiles taken from real
/// cameras (the kernel's answers, not a model of our own code).
public protocol V4L2System: AnyObject, Sendable {
    /// Names of the video nodes present (`video0`, …).
    func videoNodes() -> [String]
    /// The resolved sysfs directory of a node's device (`/sys/class/video4linux/videoN/device`).
    func deviceDirectory(ofNode node: String) -> String?
    /// A sysfs link resolved (e.g. a device's `of_node`), or nil.
    func resolveLink(_ path: String) -> String?
    /// The USB device containing a sysfs directory, if any.
    func usbIdentity(containing directory: String) -> USBIdentity?
    /// Opens `/dev/<node>`; a file descriptor or -errno.
    func open(node: String) -> Int32
    func close(_ fd: Int32)
    /// ioctl with one argument; 0 or -errno.
    func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32
}

public final class LinuxV4L2System: V4L2System {
    public let sysfsRoot: String
    public let deviceRoot: String

    public init(sysfsRoot: String = "/sys", deviceRoot: String = "/dev") {
        self.sysfsRoot = sysfsRoot
        self.deviceRoot = deviceRoot
    }

    public func videoNodes() -> [String] {
        guard let directory = opendir(sysfsRoot + "/class/video4linux") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("video") { names.append(name) }
        }
        return names.sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
    }

    public func deviceDirectory(ofNode node: String) -> String? {
        realPath("\(sysfsRoot)/class/video4linux/\(node)/device")
    }

    public func resolveLink(_ path: String) -> String? { realPath(path) }

    public func usbIdentity(containing directory: String) -> USBIdentity? {
        USBIdentity(containing: directory)
    }

    public func open(node: String) -> Int32 {
        let fd = Glibc.open("\(deviceRoot)/\(node)", O_RDWR | O_NONBLOCK | O_CLOEXEC)
        return fd >= 0 ? fd : -errno
    }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }

    public func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        cv4l2_ioctl(fd, request, argument)
    }
}
