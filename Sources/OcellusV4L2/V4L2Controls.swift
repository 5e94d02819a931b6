import CV4L2
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// Controls of one V4L2 node through `VIDIOC_QUERY_EXT_CTRL`, `VIDIOC_QUERYMENU`
/// and `VIDIOC_G/S_EXT_CTRLS`. The configuration lock keeps a file descriptor
/// with `VIDIOC_S_PRIORITY(RECORD)` open: while held, other clients' changes
/// fail with EBUSY, and ours go through that descriptor.
public final class V4L2Controls: CameraControlling, @unchecked Sendable {
    public let node: String
    private let system: any V4L2System
    private let lock = ConditionLock()
    private var lockedFD: Int32?

    /// `devicePath`: `/dev/videoN` (or `videoN`).
    public init(devicePath: String, system: any V4L2System = defaultV4L2System()) {
        node = String(devicePath.split(separator: "/").last ?? "")
        self.system = system
    }

    deinit {
        if let lockedFD { system.close(lockedFD) }
    }

    public func controls() throws(OcellusError) -> [CameraControl] {
        try withDescriptor { (fd: Int32) throws(OcellusError) -> [CameraControl] in
            describe(fd).map { described in
                guard !described.flags.contains(.writeOnly) && described.kind != .button else { return described }
                if described.hasPayload {
                    let payload = try? readPayload(fd, described)
                    return described.with(value: nil, payload: payload, elementCount: payload.map { $0.count / max(1, described.elementSize) })
                }
                return described.with(value: try? read(fd, id: described.id, kind: described.kind), payload: nil, elementCount: nil)
            }
        }
    }

    /// The device's controls as the driver describes them, without their values (reading a UVC
    /// camera's value is a USB request each; a set needs only the description).
    private func describe(_ fd: Int32) -> [CameraControl] {
        var result: [CameraControl] = []
        var query = v4l2_query_ext_ctrl()
        // Compound controls (arrays, areas) are listed only when asked for as well.
        let next = CV4L2_CTRL_FLAG_NEXT_CTRL | CV4L2_CTRL_FLAG_NEXT_COMPOUND
        query.id = next
        while system.ioctl(fd, CV4L2_VIDIOC_QUERY_EXT_CTRL, &query) == 0 {
            defer { query.id |= next }
            // Control classes are headings, not controls; codec compound types are not a camera's.
            guard let kind = CameraControl.Kind(rawValue: Int32(query.type)) else { continue }
            let dimensions = withUnsafeBytes(of: query.dims) { Array($0.bindMemory(to: UInt32.self).prefix(Int(query.nr_of_dims))) }
            result.append(
                CameraControl(
                    id: query.id, name: CameraControl.canonicalName(cString(query.name)), kind: kind,
                    minimum: query.minimum, maximum: query.maximum, step: Int64(clamping: query.step),
                    defaultValue: query.default_value, flags: CameraControl.Flags(rawValue: query.flags),
                    menu: kind == .menu || kind == .integerMenu ? menu(fd, query) : [], value: nil,
                    dimensions: dimensions, elementSize: Int(query.elem_size), elementCount: Int(query.elems)))
        }
        return result
    }

    /// The control called `name`, described (not read), or why not.
    private func described(_ fd: Int32, named name: String) throws(OcellusError) -> CameraControl {
        let all = describe(fd)
        guard let control = all.first(where: { $0.name == name }) else {
            throw OcellusError(.notFound, "/dev/\(node) has no control named \(name) (it has: \(all.map(\.name).joined(separator: ", ")))")
        }
        return control
    }

    public func setControl(named name: String, to value: Int64) throws(OcellusError) {
        try withDescriptor { (fd: Int32) throws(OcellusError) in
            let control = try described(fd, named: name)
            try control.validate(value)
            let request = UnsafeMutablePointer<cv4l2_control_request>.allocate(capacity: 1)
            defer { request.deallocate() }
            cv4l2_control_request_init(request, control.id, control.kind == .integer64 ? 1 : 0, value)
            let result = system.ioctl(fd, CV4L2_VIDIOC_S_EXT_CTRLS, request)
            guard result == 0 else { throw Self.error(result, "set \(name) on /dev/\(node)") }
        }
    }

    public func setControl(named name: String, payload: [UInt8]) throws(OcellusError) {
        try withDescriptor { (fd: Int32) throws(OcellusError) in
            let control = try described(fd, named: name)
            var bytes = try control.validatePayload(payload)
            let (result, _) = payloadRequest(fd, CV4L2_VIDIOC_S_EXT_CTRLS, id: control.id, &bytes)
            guard result == 0 else { throw Self.error(result, "set \(name) on /dev/\(node)") }
        }
    }

    /// `VIDIOC_G/S_EXT_CTRLS` for one payload control over `bytes`: the ioctl's result and
    /// the payload size the driver answered with.
    private func payloadRequest(_ fd: Int32, _ request: UInt, id: UInt32, _ bytes: inout [UInt8]) -> (Int32, Int) {
        let call = UnsafeMutablePointer<cv4l2_control_request>.allocate(capacity: 1)
        defer { call.deallocate() }
        let result = bytes.withUnsafeMutableBytes { buffer in
            cv4l2_control_request_init_payload(call, id, buffer.baseAddress, UInt32(buffer.count))
            return system.ioctl(fd, request, call)
        }
        return (result, Int(cv4l2_control_request_size(call)))
    }

    public func lockForConfiguration() throws(OcellusError) {
        try lock.withLock { () throws(OcellusError) in
            guard lockedFD == nil else { throw OcellusError(.wrongState, "/dev/\(node) is already locked for configuration") }
            let fd = system.open(node: node)
            guard fd >= 0 else { throw Self.error(fd, "open /dev/\(node)") }
            var priority = V4L2_PRIORITY_RECORD.rawValue
            let result = system.ioctl(fd, CV4L2_VIDIOC_S_PRIORITY, &priority)
            // A driver without priority support still gets the in-process exclusivity.
            guard result == 0 || result == -ENOTTY else {
                system.close(fd)
                throw Self.error(result, "lock /dev/\(node) for configuration")
            }
            lockedFD = fd
        }
    }

    public func unlockForConfiguration() throws(OcellusError) {
        try lock.withLock { () throws(OcellusError) in
            guard let fd = lockedFD else { throw OcellusError(.wrongState, "/dev/\(node) is not locked for configuration") }
            system.close(fd)
            lockedFD = nil
        }
    }

    public var holdsConfigurationLock: Bool { lock.withLock { lockedFD != nil } }

    /// Another process with the node open. PipeWire's daemon is not counted: it holds the node
    /// while it streams to this process (another app's PipeWire stream is not seen here).
    public var hasOtherClients: Bool {
        system.otherProcessesHolding(node: node).contains { !["pipewire", "wireplumber"].contains($0) }
    }

    // MARK: Internals

    private func withDescriptor<T>(_ body: (Int32) throws(OcellusError) -> T) throws(OcellusError) -> T {
        if let fd = lock.withLock({ lockedFD }) { return try body(fd) }
        let fd = system.open(node: node)
        guard fd >= 0 else { throw Self.error(fd, "open /dev/\(node)") }
        defer { system.close(fd) }
        return try body(fd)
    }

    private func read(_ fd: Int32, id: UInt32, kind: CameraControl.Kind) throws(OcellusError) -> Int64 {
        let request = UnsafeMutablePointer<cv4l2_control_request>.allocate(capacity: 1)
        defer { request.deallocate() }
        let is64: Int32 = kind == .integer64 ? 1 : 0
        cv4l2_control_request_init(request, id, is64, 0)
        let result = system.ioctl(fd, CV4L2_VIDIOC_G_EXT_CTRLS, request)
        guard result == 0 else { throw Self.error(result, "read control \(id)") }
        let value = cv4l2_control_request_value(request, is64)
        // A bitmask is a 32-bit unsigned value in a signed field.
        return kind == .bitmask ? Int64(UInt32(truncatingIfNeeded: value)) : value
    }

    /// A payload control's bytes: a dynamic array is read at its largest and trimmed to what the driver filled.
    private func readPayload(_ fd: Int32, _ control: CameraControl) throws(OcellusError) -> [UInt8] {
        let capacity = control.elementSize * (control.flags.contains(.dynamicArray) ? Int(control.dimensions.first ?? 1) : control.elementCount)
        guard capacity > 0, capacity <= 1 << 20 else { throw OcellusError(.invalidArgument, "control \(control.name) has no readable payload") }
        var bytes = [UInt8](repeating: 0, count: capacity)
        let (result, size) = payloadRequest(fd, CV4L2_VIDIOC_G_EXT_CTRLS, id: control.id, &bytes)
        guard result == 0 else { throw Self.error(result, "read control \(control.id)") }
        return Array(bytes.prefix(min(capacity, size)))
    }

    private func menu(_ fd: Int32, _ query: v4l2_query_ext_ctrl) -> [CameraControl.MenuItem] {
        guard query.minimum >= 0, query.maximum - query.minimum < 1024 else { return [] }
        var items: [CameraControl.MenuItem] = []
        var entry = v4l2_querymenu()
        for index in query.minimum...query.maximum {
            cv4l2_querymenu_init(&entry, query.id, UInt32(index))
            // Menus may have holes: a missing index answers EINVAL.
            guard system.ioctl(fd, CV4L2_VIDIOC_QUERYMENU, &entry) == 0 else { continue }
            if query.type == V4L2_CTRL_TYPE_INTEGER_MENU.rawValue {
                let value = cv4l2_querymenu_value(&entry)
                items.append(.init(value: index, name: String(value)))
            } else {
                items.append(.init(value: index, name: String(cString: cv4l2_querymenu_name(&entry))))
            }
        }
        return items
    }

    static func error(_ result: Int32, _ action: String) -> OcellusError {
        v4l2Error(result, action, busyMeans: "the device is locked for configuration by another client")
    }
}
