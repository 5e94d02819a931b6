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
    /// A capture queue (else an output queue, kept only to recognise processing pipelines).
    var isCapture: Bool
    /// `V4L2_CAP_IO_MC`: the node's format follows a media-controller pipeline that
    /// userspace (libcamera) must configure first.
    var isMediaControllerCentric: Bool
    /// The USB interface string (iInterface) of the function the node belongs to.
    var functionName: String?
    var formats: [VideoFormat]
    /// Whether the node offers a control only colour has (saturation, hue, white balance).
    var hasColourControls: Bool
    /// `V4L2_CID_CAMERA_ORIENTATION` as a location: front, back, external.
    var location: String?
    /// `V4L2_CID_CAMERA_SENSOR_ROTATION`, degrees counter-clockwise (V4L2's convention).
    var sensorRotation: Int32?
    var deviceDirectory: String?
}

/// Finds the cameras among the video nodes: keeps single- and multi-planar
/// capture nodes that stream pictures an app can use, skips metadata, output and
/// memory-to-memory nodes, the queues of processing pipelines (ISPs), nodes only a
/// media-controller pipeline handler can drive, and infrared functions, and groups
/// the nodes of one physical device into one `DeviceFacts`.
public struct V4L2Discovery {
    let system: any V4L2System

    public init(system: any V4L2System) { self.system = system }

    /// What a scan found: the cameras (keyed by a stable group key, never by
    /// `/dev/videoN`), and why a camera the machine has cannot be used here.
    public struct Survey {
        public var cameras: [DeviceFacts]
        public var problem: OcellusError?
    }

    public func cameras() -> [DeviceFacts] { survey().cameras }

    public func survey() -> Survey {
        let nodes = system.videoNodes().compactMap(describe)
        // A driver instance that also takes frames or parameters from memory (an output queue)
        // is a processing pipeline: its capture queues are an ISP's or a codec's, fed by an app.
        // Test drivers (vivid's output loops back to its capture only when asked) are sources.
        let pipelines = Set(
            nodes.filter { !$0.isCapture && !Self.softwareDrivers.contains($0.driver) }
                .map(\.busInfo).filter { !$0.isEmpty })
        let pipelineHandled = nodes.filter { $0.isCapture && $0.isMediaControllerCentric }
        let usable = nodes.filter { $0.isCapture && !$0.isMediaControllerCentric && !pipelines.contains($0.busInfo) }
        var groups: [(key: String, nodes: [V4L2Node])] = []
        for node in usable {
            let key = groupKey(node)
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].nodes.append(node)
            } else {
                groups.append((key, [node]))
            }
        }
        var problem: OcellusError?
        if !pipelineHandled.isEmpty {
            let names = Set(pipelineHandled.map { "\($0.card) (\($0.busInfo))" }).sorted().joined(separator: ", ")
            problem = OcellusError(
                .backendUnavailable,
                "this machine's camera pipeline \(names) is configured through the media controller, which only "
                    + "libcamera can do: use PipeWire with its libcamera plugin (the camera is then listed), or libcamera itself")
        }
        return Survey(cameras: groups.compactMap { facts(key: $0.key, nodes: $0.nodes) }, problem: problem)
    }

    /// The node among `nodes` (names like `video2`) that offers `format` at its size, as listed:
    /// a device's formats may come from several nodes (a UVC camera's H.264 function).
    public func node(offering format: VideoFormat, among nodes: [String]) -> String? {
        nodes.first { name in
            describe(name)?.formats.contains {
                $0.pixelFormat == format.pixelFormat && $0.offers(width: format.width, height: format.height)
            } == true
        }
    }

    // MARK: Nodes

    private func describe(_ name: String) -> V4L2Node? {
        let fd = system.open(node: name)
        guard fd >= 0 else { return nil } // gone meanwhile, or not ours to open
        defer { system.close(fd) }
        var capability = v4l2_capability()
        guard system.ioctl(fd, CV4L2_VIDIOC_QUERYCAP, &capability) == 0 else { return nil }
        let caps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? capability.device_caps : capability.capabilities
        let singlePlanar = caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0
        let multiPlanar = caps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0
        // Frames or parameters fed from memory: an ISP takes its tuning through a metadata output queue.
        let output = caps & UInt32(V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE | V4L2_CAP_META_OUTPUT) != 0
        let memoryToMemory = caps & UInt32(V4L2_CAP_VIDEO_M2M | V4L2_CAP_VIDEO_M2M_MPLANE) != 0
        guard singlePlanar || multiPlanar || output, !memoryToMemory else { return nil }
        let capture = singlePlanar || multiPlanar
        let bufferType = multiPlanar && !singlePlanar ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE
        let directory = system.deviceDirectory(ofNode: name)
        return V4L2Node(
            name: name, driver: cString(capability.driver), card: cString(capability.card),
            busInfo: cString(capability.bus_info), capabilities: caps, isCapture: capture,
            isMediaControllerCentric: caps & UInt32(V4L2_CAP_IO_MC) != 0,
            functionName: directory.flatMap { system.attribute($0 + "/interface") }
                ?? Self.uvcFunctionName(
                    card: cString(capability.card), driver: cString(capability.driver),
                    product: directory.flatMap(system.usbIdentity(containing:))?.product),
            formats: capture ? formats(fd, bufferType: bufferType.rawValue) : [],
            hasColourControls: capture && Self.colourControls.contains { hasControl(fd, $0) },
            location: (capture ? control(fd, CV4L2_CID_CAMERA_ORIENTATION) : nil).flatMap { ["front", "back", "external"][safe: Int($0)] },
            sensorRotation: capture ? control(fd, CV4L2_CID_CAMERA_SENSOR_ROTATION) : nil,
            deviceDirectory: directory)
    }

    private func formats(_ fd: Int32, bufferType: UInt32) -> [VideoFormat] {
        var result: [VideoFormat] = []
        for index in 0..<UInt32(256) {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = bufferType
            guard system.ioctl(fd, CV4L2_VIDIOC_ENUM_FMT, &description) == 0 else { break }
            let pixelFormat = FourCC(rawValue: description.pixelformat)
            // Formats split over several memory planes (NV12M, YUV420M…) are not streamed: not listed.
            if Self.multiMemoryPlaneFormats.contains(pixelFormat) { continue }
            for (width, height, range) in sizes(fd, pixelFormat: description.pixelformat) {
                // A range's rates are asked at a size it holds that a stream would use.
                let (probeWidth, probeHeight) = range?.sizesToOffer.first ?? (width, height)
                var (rates, isRange) = frameRates(fd, pixelFormat: description.pixelformat, width: probeWidth, height: probeHeight)
                if rates.isEmpty, let current = currentFrameRate(fd, bufferType: bufferType) { rates = [current] }
                result.append(
                    VideoFormat(
                        pixelFormat: pixelFormat, width: width, height: height,
                        frameRates: rates, frameRatesAreRange: isRange, sizeRange: range))
            }
        }
        return result
    }

    /// Discrete sizes as listed; a stepwise or continuous range as its largest size with the range.
    private func sizes(_ fd: Int32, pixelFormat: UInt32) -> [(UInt32, UInt32, SizeRange?)] {
        var result: [(UInt32, UInt32, SizeRange?)] = []
        for index in 0..<UInt32(256) {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = pixelFormat
            guard system.ioctl(fd, CV4L2_VIDIOC_ENUM_FRAMESIZES, &size) == 0 else { break }
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                result.append((size.discrete.width, size.discrete.height, nil))
            } else {
                let range = size.stepwise
                result.append(
                    (
                        range.max_width, range.max_height,
                        SizeRange(
                            minWidth: range.min_width, minHeight: range.min_height, maxWidth: range.max_width,
                            maxHeight: range.max_height, stepWidth: range.step_width, stepHeight: range.step_height)
                    ))
                break
            }
        }
        return result
    }

    /// The rate the node runs at now (`G_PARM`), for drivers that enumerate no intervals
    /// (an HDMI receiver's rate follows its input's timings).
    private func currentFrameRate(_ fd: Int32, bufferType: UInt32) -> FrameRate? {
        var parameters = v4l2_streamparm()
        parameters.type = bufferType
        guard system.ioctl(fd, CV4L2_VIDIOC_G_PARM, &parameters) == 0 else { return nil }
        let interval = parameters.parm.capture.timeperframe
        return interval.numerator > 0 && interval.denominator > 0 ? FrameRate(interval.denominator, interval.numerator) : nil
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

    /// Saturation, hue, automatic white balance, red and blue balance, automatic hue, white
    /// balance temperature (V4L2_CID_BASE + 2, 3, 12, 14, 15, 25, 26): what a sensor that sees
    /// colour offers and an infrared one, whatever its strings, does not.
    static let colourControls: [UInt32] = [
        0x0098_0902, 0x0098_0903, 0x0098_090c, 0x0098_090e, 0x0098_090f,
        0x0098_0919, 0x0098_091a
    ]

    private func hasControl(_ fd: Int32, _ id: UInt32) -> Bool {
        var query = v4l2_query_ext_ctrl()
        query.id = id
        return system.ioctl(fd, CV4L2_VIDIOC_QUERY_EXT_CTRL, &query) == 0 && query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) == 0
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

    static let multiMemoryPlaneFormats = Set(
        [
            "NM12", "NM21", "NM16", "NM61", "YM12", "YM21", "YM16", "YM61",
            "YM24", "YM42", "TM12", "VM12"
        ].map { FourCC($0) })

    /// Drivers whose pictures are made in software: virtual cameras.
    static let softwareDrivers: Set<String> = ["v4l2 loopback", "vivid"]

    static let infraredFormats: Set<FourCC> = [
        .grey, FourCC("Y10 "), FourCC("Y12 "), FourCC("Y16 "), FourCC("Y8I "),
        FourCC("Y12I"), FourCC("Y10B"), FourCC("Y16I")
    ]

    static let stereoInfraredFormats: Set<FourCC> = [FourCC("Y8I "), FourCC("Y12I"), FourCC("Y16I")]

    /// An infrared function (a face-login camera beside the webcam): its USB function is
    /// named so (iInterface), or — laptops often give both functions the same strings, and
    /// the infrared one may stream YUYV at an odd size — it offers none of the controls only
    /// colour has while a picture function of the same device does, or its node streams only
    /// greyscale and interleaves a stereo pair, or its card says so, or its device also has a
    /// colour node.
    static func isInfrared(_ node: V4L2Node, siblings: [V4L2Node]) -> Bool {
        if let function = node.functionName, namesInfrared(function),
            siblings.contains(where: { $0.name != node.name && !($0.functionName.map(namesInfrared) ?? false) })
        {
            return true
        }
        if !node.formats.isEmpty, !node.hasColourControls, !isDepth(node),
            siblings.contains(where: { sibling in
                sibling.deviceDirectory != node.deviceDirectory && sibling.hasColourControls && !sibling.formats.isEmpty
            })
        {
            return true
        }
        guard !node.formats.isEmpty, node.formats.allSatisfy({ infraredFormats.contains($0.pixelFormat) }) else { return false }
        // A left/right pair interleaved in one frame is only ever a stereo depth camera's infrared.
        if node.formats.contains(where: { stereoInfraredFormats.contains($0.pixelFormat) }) { return true }
        let card = node.card.lowercased()
        let named =
            namesInfrared(card)
            || card.hasSuffix(": integrated i") // uvcvideo truncates "Integrated IR Camera" to 32 bytes
        let hasColourSibling = siblings.contains { sibling in
            sibling.name != node.name && sibling.formats.contains { !infraredFormats.contains($0.pixelFormat) && !$0.pixelFormat.isDepth }
        }
        return named || hasColourSibling
    }

    /// The USB function's name where its interface has none: uvcvideo names a card
    /// "Product: Function" from the interface association's string (kernels from 6.12 give only
    /// the association a gadget function's name), cut to 31 bytes.
    static func uvcFunctionName(card: String, driver: String, product: String?) -> String? {
        guard driver == "uvcvideo", let product, card.hasPrefix(product + ": ") else { return nil }
        let function = card.dropFirst(product.count + 2)
        return function.isEmpty ? nil : String(function)
    }

    static func namesInfrared(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.contains("infrared") || lowered.split(whereSeparator: { !$0.isLetter }).contains("ir")
    }

    /// A depth function: its node streams only formats that are depth by their code (Z16), or
    /// only 12- and 16-bit greyscale (Y12, Y16: what time-of-flight and structured-light sensors
    /// send) where its USB function or card names depth, or — not named infrared — on a
    /// platform sensor, where greyscale that deep without an 8-bit mode is a ToF sensor's.
    static func isDepth(_ node: V4L2Node) -> Bool {
        guard !node.formats.isEmpty else { return false }
        if node.formats.allSatisfy({ $0.pixelFormat.isDepth }) { return true }
        guard node.formats.allSatisfy({ $0.pixelFormat == .y16 || $0.pixelFormat == .y12 }) else { return false }
        let names = [node.functionName, node.card].compactMap { $0?.lowercased() }
        if names.contains(where: { $0.contains("depth") || $0.contains("tof") }) { return true }
        return node.functionName == nil && !namesInfrared(node.card) && node.deviceDirectory?.contains("/platform/") == true
    }

    /// Formats of `nodes`, once each, also when a descriptor repeats one (the Cam Link 4K lists NV12 twice).
    private static func uniqueFormats(_ nodes: [V4L2Node]) -> [VideoFormat] {
        var formats: [VideoFormat] = []
        for format in nodes.flatMap(\.formats) where !formats.contains(format) { formats.append(format) }
        return formats
    }

    /// One device of `allNodes`: its picture nodes, and a depth camera's depth node beside them
    /// (its infrared nodes are part of the camera, not cameras or formats of their own).
    private func facts(key: String, nodes allNodes: [V4L2Node]) -> DeviceFacts? {
        let depthNodes = allNodes.filter(Self.isDepth)
        let pictureNodes = allNodes.filter { !Self.isDepth($0) && !Self.isInfrared($0, siblings: allNodes) }
        let nodes = pictureNodes + depthNodes
        guard let primary = pictureNodes.max(by: { $0.formats.count < $1.formats.count }) ?? depthNodes.first else { return nil }
        let usb = primary.deviceDirectory.flatMap(system.usbIdentity(containing:))
        let name = usb?.product ?? primary.card
        var facts = DeviceFacts(media: .video, name: name, backendKey: key, fallbackName: primary.busInfo)
        facts.depthFormats = Self.uniqueFormats(depthNodes)
        facts.formats = pictureNodes.isEmpty ? facts.depthFormats : Self.uniqueFormats(pictureNodes)
        facts.location = nodes.lazy.compactMap(\.location).first
        facts.isSoftwareSource = Self.softwareDrivers.contains(primary.driver)
        facts.deviceNumbers = nodes.compactMap { system.attribute("/sys/class/video4linux/\($0.name)/dev").flatMap(DeviceNumbers.parse(majorMinor:)) }
        if let usb {
            usb.apply(to: &facts)
            system.usbLayout(ofDevice: usb.sysfsPath)?.describeVideoFunction(of: primary.deviceDirectory, identity: usb, in: &facts)
        } else if let directory = primary.deviceDirectory {
            facts.bus = directory.contains("/platform/") ? "platform" : nil
            facts.firmwarePath = firmwarePath(directory)
        }
        facts.properties.merge([
            "api.v4l2.path": "/dev/" + primary.name,
            "api.v4l2.nodes": nodes.map { "/dev/" + $0.name }.joined(separator: " "),
            "api.v4l2.cap.driver": primary.driver,
            "api.v4l2.cap.card": primary.card,
            "api.v4l2.cap.bus_info": primary.busInfo
        ]) { _, new in new }
        facts.details.videoNodes = ["/dev/" + primary.name] + nodes.filter { $0.name != primary.name }.map { "/dev/" + $0.name }
        if let rotation = nodes.lazy.compactMap(\.sensorRotation).first {
            facts.details.sensorRotation = Int(rotation)
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
