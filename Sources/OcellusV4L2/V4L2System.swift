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
    /// A sysfs attribute (e.g. a USB interface's `interface` string), or nil.
    func attribute(_ path: String) -> String?
    /// The descriptors of the USB device at a sysfs directory: what feeds its functions.
    func usbLayout(ofDevice directory: String) -> USBDeviceLayout?
    /// Opens `/dev/<node>`; a file descriptor or -errno.
    func open(node: String) -> Int32
    func close(_ fd: Int32)
    /// ioctl with one argument; 0 or -errno.
    func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32
    /// Maps a driver buffer (`QUERYBUF` offset); nil on failure.
    func map(_ fd: Int32, length: Int, offset: Int64) -> UnsafeMutableRawPointer?
    func unmap(_ memory: UnsafeMutableRawPointer, length: Int)
    /// The names (`comm`) of other processes that have `/dev/<node>` open, as far as this process
    /// may look (its user's processes; all of them as root).
    func otherProcessesHolding(node: String) -> [String]
}

extension V4L2System {
    public func otherProcessesHolding(node: String) -> [String] { [] }
}

/// The system to use: the kernel's interface, or libv4l2 in front of it when the
/// `OCELLUS_LIBV4L2=1` switch is set (for cameras whose formats only libv4l can
/// convert, such as vendor-specific Bayer). Off by default: libv4l2 converts in
/// software and hides what the camera really sends.
public func defaultV4L2System() -> any V4L2System {
    if (try? environmentVariable("OCELLUS_LIBV4L2")) == "1", let converting = LibV4L2System() { return converting }
    return LinuxV4L2System()
}

public class LinuxV4L2System: V4L2System, @unchecked Sendable {
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

    public func attribute(_ path: String) -> String? { readAttribute(path) }

    public func usbLayout(ofDevice directory: String) -> USBDeviceLayout? { USBDeviceLayout.read(deviceDirectory: directory) }

    public func open(node: String) -> Int32 {
        let fd = Glibc.open("\(deviceRoot)/\(node)", O_RDWR | O_NONBLOCK | O_CLOEXEC)
        return fd >= 0 ? fd : -errno
    }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }

    public func otherProcessesHolding(node: String) -> [String] {
        let target = "\(deviceRoot)/\(node)"
        let own = getpid()
        guard let processes = opendir("/proc") else { return [] }
        defer { closedir(processes) }
        var holders: [String] = []
        while let entry = readdir(processes) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid != own, let descriptors = opendir("/proc/\(pid)/fd") else { continue }
            defer { closedir(descriptors) }
            var link = [CChar](repeating: 0, count: 256)
            while let descriptor = readdir(descriptors) {
                let fd = withUnsafeBytes(of: descriptor.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                let length = readlink("/proc/\(pid)/fd/\(fd)", &link, link.count - 1)
                guard length > 0, String(decoding: link[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) == target else { continue }
                let comm = attribute("/proc/\(pid)/comm") ?? name
                holders.append(comm)
                break
            }
        }
        return holders
    }

    public func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        cv4l2_ioctl(fd, request, argument)
    }

    public func map(_ fd: Int32, length: Int, offset: Int64) -> UnsafeMutableRawPointer? {
        let memory = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        return memory == MAP_FAILED ? nil : memory
    }

    public func unmap(_ memory: UnsafeMutableRawPointer, length: Int) { munmap(memory, length) }
}

/// The kernel interface through libv4l2 (see `defaultV4L2System`).
public final class LibV4L2System: LinuxV4L2System, @unchecked Sendable {
    /// nil when libv4l2.so.0 is not installed.
    public init?() {
        guard cv4l2_libv4l2_load() == 0 else { return nil }
        super.init()
    }

    public override func open(node: String) -> Int32 {
        cv4l2_libv4l2_open("\(deviceRoot)/\(node)", O_RDWR | O_NONBLOCK | O_CLOEXEC)
    }

    public override func close(_ fd: Int32) { cv4l2_libv4l2_close(fd) }

    public override func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        cv4l2_libv4l2_ioctl(fd, request, argument)
    }

    public override func map(_ fd: Int32, length: Int, offset: Int64) -> UnsafeMutableRawPointer? {
        cv4l2_libv4l2_mmap(length, fd, offset)
    }

    public override func unmap(_ memory: UnsafeMutableRawPointer, length: Int) { cv4l2_libv4l2_munmap(memory, length) }
}
