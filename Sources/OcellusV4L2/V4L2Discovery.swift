import CV4L2
import OcellusCore
import OcellusUSB

/// One capture node as the kernel describes it.
struct V4L2Node {
    var name: String
    var driver: String
    var card: String
    var busInfo: String
    var capabilities: UInt32
    var formats: [VideoFormat]
    /// `V4L2_CID_CAMERA_ORIENTATION` as a location: front, back, external.
    var location: String?
    /// `V4L2_CID_CAMERA_SENSOR_ROTATION`, degrees counter-clockwise (V4L2's convention).
    var sensorRotation: Int32?
    var deviceDirectory: String?
}

/// Finds the cameras among the video nodes: keeps single- and multi-planar
/// capture nodes, skips metadata, output and memory-to-memory nodes and infrared
/// nodes, and groups the nodes of one physical device into one `DeviceFacts`.
public struct V4L2Discovery {
    let system: any V4L2System

    public init(system: any V4L2System) { self.system = system }

    /// Every camera present, keyed by a stable group key (never by `/dev/videoN`).
    public func cameras() -> [DeviceFacts] {
        let nodes = system.videoNodes().compactMap(describe)
        var groups: [(key: String, nodes: [V4L2Node])] = []
        for node in nodes {
            let key = groupKey(node)
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].nodes.append(node)
            } else {
                groups.append((key, [node]))
            }
        }
        return groups.compactMap { facts(key: $0.key, nodes: $0.nodes) }
    }

    // MARK: Nodes

    private func describe(_ name: String) -> V4L2Node? {
        let fd = system.open(node: name)
        guard fd >= 0 else { return nil }  // gone meanwhile, or not ours to open
        defer { system.close(fd) }
        var capability = v4l2_capability()
        guard system.ioctl(fd, CV4L2_VIDIOC_QUERYCAP, &capability) == 0 else { return nil }
        let caps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? capability.device_caps : capability.capabilities
        let singlePlanar = caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0
        let multiPlanar = caps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0
        let memoryToMemory = caps & UInt32(V4L2_CAP_VIDEO_M2M | V4L2_CAP_VIDEO_M2M_MPLANE) != 0
        guard singlePlanar || multiPlanar, !memoryToMemory else { return nil }
        let bufferType = multiPlanar && !singlePlanar ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE
        return V4L2Node(
            name: name, driver: cString(capability.driver), card: cString(capability.card),
            busInfo: cString(capability.bus_info), capabilities: caps,
            formats: formats(fd, bufferType: bufferType.rawValue),
            location: control(fd, CV4L2_CID_CAMERA_ORIENTATION).flatMap { ["front", "back", "external"][safe: Int($0)] },
            sensorRotation: control(fd, CV4L2_CID_CAMERA_SENSOR_ROTATION),
            deviceDirectory: system.deviceDirectory(ofNode: name))
    }

    private func formats(_ fd: Int32, bufferType: UInt32) -> [VideoFormat] {
        var result: [VideoFormat] = []
        for index in 0..<UInt32(256) {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = bufferType
            guard system.ioctl(fd, CV4L2_VIDIOC_ENUM_FMT, &description) == 0 else { break }
            let pixelFormat = FourCC(rawValue: description.pixelformat)
            for (width, height) in sizes(fd, pixelFormat: description.pixelformat) {
                let (rates, isRange) = frameRates(fd, pixelFormat: description.pixelformat, width: width, height: height)
                result.append(VideoFormat(pixelFormat: pixelFormat, width: width, height: height,
                                          frameRates: rates, frameRatesAreRange: isRange))
            }
        }
        return result
    }

    /// Discrete sizes as listed; for stepwise and continuous ranges, the smallest and largest.
    private func sizes(_ fd: Int32, pixelFormat: UInt32) -> [(UInt32, UInt32)] {
        var result: [(UInt32, UInt32)] = []
        for index in 0..<UInt32(256) {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = pixelFormat
            guard system.ioctl(fd, CV4L2_VIDIOC_ENUM_FRAMESIZES, &size) == 0 else { break }
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                result.append((size.discrete.width, size.discrete.height))
            } else {
                result.append((size.stepwise.min_width, size.stepwise.min_height))
                result.append((size.stepwise.max_width, size.stepwise.max_height))
                break
            }
        }
        return result
    }

    private func frameRates(_ fd: Int32, pixelFormat: UInt32, width: UInt32, height: UInt32) -> ([FrameRate], Bool) {
        var rates: [FrameRate] = []
        for index in 0..<UInt32(256) {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = pixelFormat
            interval.width = width
            interval.height = height
            guard system.ioctl(fd, CV4L2_VIDIOC_ENUM_FRAMEINTERVALS, &interval) == 0 else { break }
            // An interval of n/d seconds is a rate of d/n frames per second.
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                rates.append(FrameRate(interval.discrete.denominator, interval.discrete.numerator))
            } else {
                let slowest = interval.stepwise.max, fastest = interval.stepwise.min
                return ([FrameRate(fastest.denominator, fastest.numerator), FrameRate(slowest.denominator, slowest.numerator)], true)
            }
        }
        return (rates.filter { $0.numerator > 0 }, false)
    }

    private func control(_ fd: Int32, _ id: UInt32) -> Int32? {
        var control = v4l2_control(id: id, value: 0)
        return system.ioctl(fd, CV4L2_VIDIOC_G_CTRL, &control) == 0 ? control.value : nil
    }

    // MARK: Grouping and facts

    /// Nodes of one USB device share a key (its sysfs path); other nodes group by bus
    /// info, which a driver sets per device instance (vivid's instances share one
    /// platform device but not their bus info).
    private func groupKey(_ node: V4L2Node) -> String {
        if let usb = node.deviceDirectory.flatMap(system.usbIdentity(containing:)) { return usb.sysfsPath }
        return node.busInfo.isEmpty ? node.deviceDirectory ?? node.name : node.busInfo
    }

    static let infraredFormats: Set<FourCC> = [.grey, FourCC("Y10 "), FourCC("Y12 "), FourCC("Y16 "), FourCC("Y8I "),
                                               FourCC("Y12I"), FourCC("Y10B"), FourCC("Y16I")]

    /// A greyscale-only node is an infrared camera when its name says so or when its
    /// device also has a colour node (a face-login camera beside the webcam).
    static func isInfrared(_ node: V4L2Node, siblings: [V4L2Node]) -> Bool {
        guard !node.formats.isEmpty, node.formats.allSatisfy({ infraredFormats.contains($0.pixelFormat) }) else { return false }
        let card = node.card.lowercased()
        let named = card.contains("infrared") || card.split(whereSeparator: { !$0.isLetter }).contains("ir")
            || card.hasSuffix(": integrated i")  // uvcvideo truncates "Integrated IR Camera" to 32 bytes
        let hasColourSibling = siblings.contains { sibling in
            sibling.name != node.name && sibling.formats.contains { !infraredFormats.contains($0.pixelFormat) && !$0.pixelFormat.isDepth }
        }
        return named || hasColourSibling
    }

    private func facts(key: String, nodes allNodes: [V4L2Node]) -> DeviceFacts? {
        let nodes = allNodes.filter { !Self.isInfrared($0, siblings: allNodes) }
        guard let primary = nodes.max(by: { $0.formats.count < $1.formats.count }) else { return nil }
        let usb = primary.deviceDirectory.flatMap(system.usbIdentity(containing:))
        let name = usb?.product ?? primary.card
        var facts = DeviceFacts(media: .video, name: name, backendKey: key, fallbackName: primary.busInfo)
        var formats: [VideoFormat] = []
        for node in nodes { formats += node.formats.filter { !formats.contains($0) } }
        facts.formats = formats
        facts.location = nodes.lazy.compactMap(\.location).first
        facts.isSoftwareSource = ["v4l2 loopback", "vivid"].contains(primary.driver)
        if let usb {
            usb.apply(to: &facts)
        } else if let directory = primary.deviceDirectory {
            facts.bus = directory.contains("/platform/") ? "platform" : nil
            facts.firmwarePath = firmwarePath(directory)
        }
        facts.properties.merge([
            "api.v4l2.path": "/dev/" + primary.name,
            "api.v4l2.nodes": nodes.map { "/dev/" + $0.name }.joined(separator: " "),
            "api.v4l2.cap.driver": primary.driver,
            "api.v4l2.cap.card": primary.card,
            "api.v4l2.cap.bus_info": primary.busInfo,
        ]) { _, new in new }
        if let rotation = nodes.lazy.compactMap(\.sensorRotation).first {
            facts.properties["api.v4l2.sensor_rotation"] = String(rotation)
        }
        return facts
    }

    /// The device-tree or ACPI node of a platform camera, if sysfs links one.
    private func firmwarePath(_ directory: String) -> String? {
        if let node = system.resolveLink(directory + "/of_node") {
            return String(node.dropFirst(node.hasPrefix("/sys/firmware/devicetree") ? "/sys/firmware/devicetree".count : 0))
        }
        return system.resolveLink(directory + "/firmware_node").map { String($0.dropFirst($0.hasPrefix("/sys/devices") ? "/sys/devices".count : 0)) }
    }
}

func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
