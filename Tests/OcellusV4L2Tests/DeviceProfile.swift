import CV4L2
import Foundation
import OcellusCore
import OcellusUSB

@testable import OcellusV4L2

/// Replays a device profile (Profiles/*.profile): what the kernel answered for a
/// real camera — QUERYCAP, the formats as `v4l2-ctl --list-formats-ext` printed
/// them, orientation controls, and the sysfs attributes of its USB device — at
/// the ioctl layer the V4L2 backend talks to — and, through `streams`, a node's buffer queue,
/// so that a replay streams the frames a test produces. Named for what it is: a stand-in
/// for the kernel, since these machines have no cameras.
final class ProfileSystem: V4L2System, @unchecked Sendable {
    struct Node {
        var name: String
        var directory: String?
        var driver = "", card = "", busInfo = ""
        var deviceCaps: UInt32 = 0
        /// fourcc → sizes → intervals (seconds as fraction n/d)
        var formats: [(fourcc: UInt32, sizes: [(width: UInt32, height: UInt32, intervals: [(UInt32, UInt32)])])] = []
        var controls: [UInt32: Int32] = [:]
        /// Controls as `v4l2-ctl --all` lists them, in ID order.
        var extendedControls: [ProfileControl] = []
    }

    struct ProfileControl {
        var id: UInt32
        var name: String
        var type: UInt32
        var minimum: Int64 = 0, maximum: Int64 = 1, step: UInt64 = 1, defaultValue: Int64 = 0, value: Int64 = 0
        var flags: UInt32 = 0
        var menu: [(UInt32, String)] = []
        /// A compound control's value (a rectangle: left, top, width, height as 32-bit fields).
        var payload: [UInt8]?
        /// Every payload set, oldest first (what a test reads back of what Ocellus wrote).
        var payloadsSet: [[UInt8]] = []
    }

    private(set) var nodes: [Node] = []
    private var usbDevices: [String: [String: String]] = [:] // sysfs path → attributes
    /// Other sysfs attributes by full path (`attribute PATH VALUE`: a USB interface's string).
    private var attributes: [String: String] = [:]
    /// Open descriptors and their node (streams' threads call in while tests open and close).
    private let lock = NSLock()
    private var openNodes: [Int32: Int] = [:]
    private var requests: [UInt: Int] = [:]

    /// How many times `request` was issued so far (a UVC camera answers each read over USB).
    func count(of request: UInt) -> Int { lock.withLock { requests[request, default: 0] } }
    /// The nodes' buffer queues, and the frames tests produce into them.
    let streams = ReplayedStreams()

    init(profiles: [String]) throws {
        for name in profiles { try load(name) }
    }

    static func directory() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Profiles")
    }

    private func load(_ profile: String) throws {
        let text = try String(contentsOf: Self.directory().appendingPathComponent(profile + ".profile"), encoding: .utf8)
        var usbPath: String?
        var node: Node?
        func finishNode() { if let node { nodes.append(node) }; node = nil }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || line.isEmpty { continue }
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            let rest = words.count > 1 ? words[1] : ""
            switch words[0] {
            case "attribute":
                let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
                attributes[parts[0]] = parts.count > 1 ? parts[1] : ""
            case "usb":
                finishNode()
                usbPath = rest
                usbDevices[rest] = [:]
            case "node":
                finishNode()
                let parts = rest.split(separator: " ").map(String.init)
                node = Node(name: parts[0], directory: parts.count > 1 ? parts[1] : nil)
            case _ where node == nil:
                usbDevices[usbPath!]![words[0]] = rest
            case "driver": node!.driver = rest
            case "card": node!.card = rest
            case "bus_info": node!.busInfo = rest
            case "device_caps": node!.deviceCaps = UInt32(rest.dropFirst(2), radix: 16)!
            case "orientation": node!.controls[CV4L2_CID_CAMERA_ORIENTATION] = Int32(rest)!
            case "sensor_rotation": node!.controls[CV4L2_CID_CAMERA_SENSOR_ROTATION] = Int32(rest)!
            default:
                if !parseControlLine(line, into: &node!) { parseFormatLine(line, into: &node!) }
            }
        }
        finishNode()
    }

    /// Lines as v4l2-ctl prints them: `[0]: 'YUYV' (…)` or `Pixel Format: 'Z16 '`,
    /// `Size: Discrete 640x480`, `Interval: Discrete 0.033s (30.000 fps)`.
    private func parseFormatLine(_ line: String, into node: inout Node) {
        if line.hasPrefix("[") || line.hasPrefix("Pixel Format"), let open = line.firstIndex(of: "'") {
            let code = line[line.index(after: open)...].prefix(4)
            node.formats.append((FourCC(String(code)).rawValue, []))
        } else if line.hasPrefix("Size: Discrete ") {
            let size = line.dropFirst("Size: Discrete ".count).split(separator: "x").compactMap { UInt32($0) }
            node.formats[node.formats.count - 1].sizes.append((size[0], size[1], []))
        } else if line.hasPrefix("Interval: Discrete "), let open = line.firstIndex(of: "("),
            let fps = Double(line[line.index(after: open)...].split(separator: " ")[0])
        {
            // fps as thousandths, reduced: 7.500 fps → an interval of 2/15 s.
            var (numerator, denominator) = (UInt32(1000), UInt32((fps * 1000).rounded()))
            let divisor = gcd(numerator, denominator)
            (numerator, denominator) = (numerator / divisor, denominator / divisor)
            let last = node.formats.count - 1
            node.formats[last].sizes[node.formats[last].sizes.count - 1].intervals.append((numerator, denominator))
        }
    }

    /// A number as v4l2-ctl prints it: decimal, or hex for bitmasks (`0x00000001`).
    private func number(_ text: String) -> Int64 {
        text.hasPrefix("0x") ? Int64(text.dropFirst(2), radix: 16) ?? 0 : Int64(text) ?? 0
    }

    /// `name 0x00980900 (int) : min=0 max=255 step=1 default=128 value=128 flags=inactive`,
    /// and menu items below a menu control as `1: Manual Mode`.
    private func parseControlLine(_ line: String, into node: inout Node) -> Bool {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if words.count >= 3, words[1].hasPrefix("0x"), let id = UInt32(words[1].dropFirst(2), radix: 16) {
            let types = ["(int)": 1, "(bool)": 2, "(menu)": 3, "(button)": 4, "(int64)": 5, "(bitmask)": 8, "(intmenu)": 9, "(rect)": 0x0107]
            var control = ProfileControl(id: id, name: words[0], type: UInt32(types[words[2]] ?? 1))
            for field in words.dropFirst(3) {
                let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                switch pair[0] {
                case "min": control.minimum = number(pair[1])
                case "max": control.maximum = number(pair[1])
                case "step": control.step = UInt64(pair[1]) ?? 1
                case "default": control.defaultValue = number(pair[1])
                case "value" where control.type == 0x0107:
                    // A rectangle as v4l2-ctl prints it: (left,top)/widthxheight.
                    let numbers = pair[1].split(whereSeparator: { !$0.isNumber && $0 != "-" }).compactMap { Int64($0) }
                    control.payload =
                        numbers.count == 4
                        ? numbers.flatMap { value in
                            withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, Array.init)
                        } : nil
                    control.flags |= 0x100 // has-payload
                case "value": control.value = number(pair[1])
                case "flags":
                    let known: [String: UInt32] = ["read-only": 0x4, "inactive": 0x10, "volatile": 0x80, "write-only": 0x40]
                    control.flags = pair[1].split(separator: ",").reduce(0) { $0 | (known[String($1)] ?? 0) }
                default: break
                }
            }
            node.extendedControls.append(control)
            return true
        }
        if let colon = line.firstIndex(of: ":"), let index = UInt32(line[..<colon]), !node.extendedControls.isEmpty {
            let name = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            node.extendedControls[node.extendedControls.count - 1].menu.append((index, name))
            return true
        }
        return false
    }

    // MARK: V4L2System

    func videoNodes() -> [String] { nodes.map(\.name) }

    func deviceDirectory(ofNode node: String) -> String? { nodes.first { $0.name == node }?.directory }

    func resolveLink(_ path: String) -> String? { nil }

    func attribute(_ path: String) -> String? { attributes[path] }

    /// `video_input_terminals 0=0x0201,0x0202 2=0x0200` and `audio_input_terminals 0x0602` in a
    /// `usb` block: the input terminals `lsusb -v` lists, by VideoControl interface; with
    /// `video_streaming 0=1` (the streaming interfaces of each) and `isochronous 1=0x13fc/1,0x0400/1`
    /// (a streaming interface's isochronous IN endpoints by alternate setting: wMaxPacketSize/bInterval).
    func usbLayout(ofDevice directory: String) -> USBDeviceLayout? {
        guard let device = usbDevices[directory], device["video_input_terminals"] != nil else { return nil }
        func hex(_ text: Substring) -> UInt16? { UInt16(text.dropFirst(2), radix: 16) }
        var layout = USBDeviceLayout()
        for entry in (device["video_input_terminals"] ?? "").split(separator: " ") {
            let parts = entry.split(separator: "=")
            guard parts.count == 2, let interface = Int(parts[0]) else { continue }
            layout.videoInputTerminals[interface] = parts[1].split(separator: ",").compactMap(hex)
        }
        layout.audioInputTerminals = (device["audio_input_terminals"] ?? "").split(separator: ",").compactMap(hex)
        for entry in (device["video_streaming"] ?? "").split(separator: " ") {
            let parts = entry.split(separator: "=")
            guard parts.count == 2, let interface = Int(parts[0]) else { continue }
            layout.videoStreamingInterfaces[interface] = parts[1].split(separator: ",").compactMap { Int($0) }
        }
        for entry in (device["isochronous"] ?? "").split(separator: " ") {
            let parts = entry.split(separator: "=")
            guard parts.count == 2, let interface = Int(parts[0]) else { continue }
            layout.isochronousSettings[interface] = parts[1].split(separator: ",").compactMap { setting in
                let fields = setting.split(separator: "/")
                guard fields.count == 2, let size = hex(fields[0]), let interval = UInt8(fields[1]) else { return nil }
                return USBDeviceLayout.IsochronousSetting(wMaxPacketSize: size, bInterval: interval)
            }
        }
        return layout
    }

    func usbIdentity(containing directory: String) -> USBIdentity? {
        USBIdentity(containing: directory) { path in
            // Attributes below the device too (`port/connect_type`, `physical_location/panel`).
            for (device, attributes) in self.usbDevices where path.hasPrefix(device + "/") {
                if let value = attributes[String(path.dropFirst(device.count + 1))] { return value }
            }
            return nil
        }
    }

    func open(node: String) -> Int32 {
        guard let index = nodes.firstIndex(where: { $0.name == node }) else { return -ENOENT }
        let fd = streams.open(node: node)
        if fd >= 0 { lock.withLock { openNodes[fd] = index } }
        return fd
    }

    func close(_ fd: Int32) {
        guard lock.withLock({ openNodes.removeValue(forKey: fd) }) != nil else { return }
        streams.close(fd)
    }

    var openDescriptorCount: Int { lock.withLock { openNodes.count } }

    func map(_ fd: Int32, length: Int, offset: Int64) -> UnsafeMutableRawPointer? { streams.map(fd, length: length, offset: offset) }
    func unmap(_ memory: UnsafeMutableRawPointer, length: Int) { streams.unmap(memory, length: length) }

    func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        guard let index = lock.withLock({ openNodes[fd] }) else { return -EBADF }
        let node = lock.withLock { () -> Node in
            requests[request, default: 0] += 1
            return nodes[index]
        }
        if let answer = streams.ioctl(fd, request, argument, formats: node.formats) { return answer }
        switch request {
        case CV4L2_VIDIOC_QUERYCAP:
            var capability = v4l2_capability()
            copy(node.driver, into: &capability.driver)
            copy(node.card, into: &capability.card)
            copy(node.busInfo, into: &capability.bus_info)
            capability.device_caps = node.deviceCaps
            capability.capabilities = node.deviceCaps | UInt32(V4L2_CAP_DEVICE_CAPS)
            argument.storeBytes(of: capability, as: v4l2_capability.self)
            return 0
        case CV4L2_VIDIOC_ENUM_FMT:
            let description = argument.assumingMemoryBound(to: v4l2_fmtdesc.self)
            guard Int(description.pointee.index) < node.formats.count else { return -EINVAL }
            description.pointee.pixelformat = node.formats[Int(description.pointee.index)].fourcc
            return 0
        case CV4L2_VIDIOC_ENUM_FRAMESIZES:
            let size = argument.assumingMemoryBound(to: v4l2_frmsizeenum.self)
            guard let format = node.formats.first(where: { $0.fourcc == size.pointee.pixel_format }),
                Int(size.pointee.index) < format.sizes.count
            else { return -EINVAL }
            let entry = format.sizes[Int(size.pointee.index)]
            size.pointee.type = V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
            size.pointee.discrete = v4l2_frmsize_discrete(width: entry.width, height: entry.height)
            return 0
        case CV4L2_VIDIOC_ENUM_FRAMEINTERVALS:
            let interval = argument.assumingMemoryBound(to: v4l2_frmivalenum.self)
            guard let format = node.formats.first(where: { $0.fourcc == interval.pointee.pixel_format }),
                let size = format.sizes.first(where: { $0.width == interval.pointee.width && $0.height == interval.pointee.height }),
                Int(interval.pointee.index) < size.intervals.count
            else { return -EINVAL }
            let (numerator, denominator) = size.intervals[Int(interval.pointee.index)]
            interval.pointee.type = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
            interval.pointee.discrete = v4l2_fract(numerator: numerator, denominator: denominator)
            return 0
        case CV4L2_VIDIOC_QUERY_EXT_CTRL:
            let query = argument.assumingMemoryBound(to: v4l2_query_ext_ctrl.self)
            let wanted = query.pointee.id & ~(CV4L2_CTRL_FLAG_NEXT_CTRL | 0x4000_0000)
            let next = query.pointee.id & CV4L2_CTRL_FLAG_NEXT_CTRL != 0
            guard let control = node.extendedControls.first(where: { next ? $0.id > wanted : $0.id == wanted }) else { return -EINVAL }
            var answer = v4l2_query_ext_ctrl()
            answer.id = control.id
            answer.type = control.type
            copy(control.name, into: &answer.name)
            (answer.minimum, answer.maximum, answer.step) = (control.minimum, control.maximum, control.step)
            (answer.default_value, answer.flags) = (control.defaultValue, control.flags)
            if let payload = control.payload { (answer.elem_size, answer.elems) = (UInt32(payload.count), 1) }
            query.pointee = answer
            return 0
        case CV4L2_VIDIOC_QUERYMENU:
            let menu = argument.assumingMemoryBound(to: v4l2_querymenu.self)
            guard let control = node.extendedControls.first(where: { $0.id == menu.pointee.id }),
                let item = control.menu.first(where: { $0.0 == menu.pointee.index })
            else { return -EINVAL }
            cv4l2_querymenu_set_name(menu, item.1)
            return 0
        case CV4L2_VIDIOC_G_EXT_CTRLS, CV4L2_VIDIOC_S_EXT_CTRLS:
            let controlRequest = argument.assumingMemoryBound(to: cv4l2_control_request.self)
            guard let position = node.extendedControls.firstIndex(where: { $0.id == controlRequest.pointee.control.id }) else { return -EINVAL }
            let is64: Int32 = node.extendedControls[position].type == 5 ? 1 : 0
            if let stored = node.extendedControls[position].payload {
                guard let bytes = cv4l2_control_request_payload(controlRequest),
                    cv4l2_control_request_size(controlRequest) >= UInt32(stored.count)
                else { return -ENOSPC }
                if request == CV4L2_VIDIOC_S_EXT_CTRLS {
                    let written = Array(UnsafeRawBufferPointer(start: bytes, count: stored.count))
                    lock.withLock {
                        nodes[index].extendedControls[position].payload = written
                        nodes[index].extendedControls[position].payloadsSet.append(written)
                    }
                } else {
                    stored.withUnsafeBytes { bytes.copyMemory(from: $0.baseAddress!, byteCount: stored.count) }
                }
                return 0
            }
            if request == CV4L2_VIDIOC_S_EXT_CTRLS {
                lock.withLock { nodes[index].extendedControls[position].value = cv4l2_control_request_value(controlRequest, is64) }
            } else {
                cv4l2_control_request_init(controlRequest, controlRequest.pointee.control.id, is64, node.extendedControls[position].value)
            }
            return 0
        case CV4L2_VIDIOC_G_CTRL:
            let control = argument.assumingMemoryBound(to: v4l2_control.self)
            guard let value = node.controls[control.pointee.id] else { return -EINVAL }
            control.pointee.value = value
            return 0
        default:
            return -ENOTTY
        }
    }

    private func copy<T>(_ text: String, into field: inout T) {
        withUnsafeMutableBytes(of: &field) { bytes in
            let utf8 = Array(text.utf8.prefix(bytes.count - 1))
            bytes.copyBytes(from: utf8)
            bytes[utf8.count] = 0
        }
    }
}

private func gcd(_ a: UInt32, _ b: UInt32) -> UInt32 { b == 0 ? a : gcd(b, a % b) }
