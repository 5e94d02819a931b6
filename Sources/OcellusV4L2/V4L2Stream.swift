import CV4L2
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// Streaming from one V4L2 capture node: `S_FMT`, `S_PARM`, `REQBUFS` with
/// memory-mapped buffers, then a library thread that polls, dequeues, hands each
/// buffer up without copying and queues it again — or lends it (`BufferLoans`), and the
/// borrower's return queues it. Kernel errors are mapped to
/// what they mean for an app: EBUSY → in use by another client; POLLERR, ENODEV
/// or EINVAL after an unplug → disconnected; EIO → a driver error; ENOSPC → not
/// enough USB bandwidth.
public final class V4L2Stream: @unchecked Sendable {
    public struct Format: Equatable, Sendable {
        public let pixelFormat: FourCC
        public let width: UInt32
        public let height: UInt32
        public let bytesPerLine: UInt32
        public let frameRate: FrameRate
    }

    /// A filled buffer, valid only during the handler call (it is requeued after, unless borrowed from `lender`).
    public struct Frame {
        /// The format the stream runs with.
        public let format: Format
        public let bytes: UnsafeRawBufferPointer
        public let sequence: UInt32
        /// CLOCK_MONOTONIC nanoseconds of the capture.
        public let timestampNanoseconds: UInt64
        /// The driver flagged the data as possibly corrupt (V4L2_BUF_FLAG_ERROR).
        public let isCorrupt: Bool
        /// Lends this buffer beyond the handler call.
        public let lender: any CameraBufferLending
    }

    public enum Event {
        case frame(Frame)
        /// Streaming stopped on its own: the device went away or the driver failed.
        case failed(OcellusError)
    }

    public let node: String
    private let system: any V4L2System
    private var fd: Int32 = -1
    /// Single-planar capture, or multi-planar where the node has only that (SoC camera receivers).
    private var bufferType = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    /// This streaming run's lent buffers (tokens: index + 1); closed before the buffers are unmapped.
    private var loans: BufferLoans?
    private var thread: pthread_t?
    private var wakeRead: Int32 = -1, wakeWrite: Int32 = -1
    private var stoppedFromHandler = Flag()

    /// Set on the streaming thread by `stop()` from the handler, read by the same thread.
    private final class Flag: @unchecked Sendable {
        private(set) var isSet = false
        func set() { isSet = true }
    }

    public init(devicePath: String, system: any V4L2System = defaultV4L2System()) {
        node = String(devicePath.split(separator: "/").last ?? "")
        self.system = system
    }

    deinit { stop() }

    /// Configures and starts streaming; `handler` runs on the stream's own thread.
    /// Returns the format the driver settled on (it may adjust size and rate).
    public func start(
        pixelFormat: FourCC, width: UInt32, height: UInt32, frameRate: FrameRate,
        bufferCount: UInt32 = 4, handler: @escaping (Event) -> Void
    ) throws(OcellusError) -> Format {
        guard fd < 0 else { throw OcellusError(.wrongState, "/dev/\(node) is already streaming") }
        fd = system.open(node: node)
        guard fd >= 0 else { defer { fd = -1 }; throw Self.error(fd, "open /dev/\(node)") }
        do {
            var capability = v4l2_capability()
            try check(system.ioctl(fd, CV4L2_VIDIOC_QUERYCAP, &capability), "query /dev/\(node)")
            let caps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? capability.device_caps : capability.capabilities
            bufferType =
                caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) == 0 && caps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0
                ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE.rawValue : V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            let format = try configure(pixelFormat: pixelFormat, width: width, height: height, frameRate: frameRate)
            try allocateBuffers(count: bufferCount)
            var type = bufferType
            try check(system.ioctl(fd, CV4L2_VIDIOC_STREAMON, &type), "start streaming on /dev/\(node)")
            startThread(format: format, handler: handler)
            return format
        } catch {
            release()
            throw error
        }
    }

    /// Stops streaming and frees the buffers; returns after the handler's last call.
    /// From the handler itself (the thread cannot join itself), the handler is not
    /// called again and the thread frees the buffers when the handler returns.
    public func stop() {
        if let running = thread {
            thread = nil
            if pthread_equal(running, pthread_self()) != 0 {
                stoppedFromHandler.set()
                pthread_detach(running)
                (fd, buffers, wakeRead, wakeWrite, loans) = (-1, [], -1, -1, nil) // the thread's now
                return
            }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
            pthread_join(running, nil)
        }
        loans?.close()
        loans = nil
        release()
    }

    // MARK: Setup

    private func check(_ result: Int32, _ action: String) throws(OcellusError) {
        if result != 0 { throw Self.error(result, action) }
    }

    private func configure(pixelFormat: FourCC, width: UInt32, height: UInt32, frameRate: FrameRate) throws(OcellusError) -> Format {
        var format = v4l2_format()
        cv4l2_format_init(&format, bufferType, pixelFormat.rawValue, width, height)
        try check(system.ioctl(fd, CV4L2_VIDIOC_S_FMT, &format), "set the format \(pixelFormat) \(width)x\(height)")
        var (chosen, chosenWidth, chosenHeight, bytesPerLine, planes): (UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0)
        cv4l2_format_read(&format, &chosen, &chosenWidth, &chosenHeight, &bytesPerLine, &planes)
        guard chosen == pixelFormat.rawValue else {
            throw OcellusError(.invalidArgument, "/dev/\(node) does not offer \(pixelFormat) (the driver chose \(FourCC(rawValue: chosen)))")
        }
        // Drivers adjust sizes they cannot stream instead of refusing them: an app asking for a size
        // must get that size or an error, never silently another.
        guard chosenWidth == width && chosenHeight == height else {
            throw OcellusError(
                .invalidArgument, "/dev/\(node) does not stream \(pixelFormat) at \(width)x\(height) (the driver chose \(chosenWidth)x\(chosenHeight))")
        }
        guard planes == 1 else {
            throw OcellusError(.invalidArgument, "/dev/\(node) wants \(pixelFormat) in \(planes) separate memory planes, which Ocellus does not stream yet")
        }
        var parameters = v4l2_streamparm()
        parameters.type = bufferType
        // The frame interval is the inverse of the rate.
        parameters.parm.capture.timeperframe = v4l2_fract(numerator: frameRate.denominator, denominator: frameRate.numerator)
        let rateResult = system.ioctl(fd, CV4L2_VIDIOC_S_PARM, &parameters)
        let interval = parameters.parm.capture.timeperframe
        let actualRate = rateResult == 0 && interval.numerator > 0 ? FrameRate(interval.denominator, interval.numerator) : frameRate
        return Format(
            pixelFormat: pixelFormat, width: chosenWidth, height: chosenHeight,
            bytesPerLine: bytesPerLine, frameRate: actualRate)
    }

    private func allocateBuffers(count: UInt32) throws(OcellusError) {
        var request = v4l2_requestbuffers()
        request.count = count
        request.type = bufferType
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try check(system.ioctl(fd, CV4L2_VIDIOC_REQBUFS, &request), "allocate \(count) buffers")
        guard request.count >= 2 else { throw OcellusError(.noResources, "/dev/\(node) granted only \(request.count) buffer") }
        let buffer = UnsafeMutablePointer<cv4l2_buffer_request>.allocate(capacity: 1) // at one address: it points into itself
        defer { buffer.deallocate() }
        for index in 0..<request.count {
            cv4l2_buffer_request_init(buffer, bufferType, index)
            try check(system.ioctl(fd, CV4L2_VIDIOC_QUERYBUF, &buffer.pointee.buffer), "query buffer \(index)")
            let length = Int(cv4l2_buffer_request_length(buffer))
            guard let memory = system.map(fd, length: length, offset: Int64(cv4l2_buffer_request_offset(buffer))) else {
                throw OcellusError(.noResources, "cannot map buffer \(index) of /dev/\(node): \(String(cString: strerror(errno)))")
            }
            buffers.append(UnsafeMutableRawBufferPointer(start: memory, count: length))
            try check(system.ioctl(fd, CV4L2_VIDIOC_QBUF, &buffer.pointee.buffer), "queue buffer \(index)")
        }
    }

    private func release() {
        Self.release(fd: fd, type: bufferType, buffers: buffers, wake: [wakeRead, wakeWrite], system: system)
        (fd, buffers, wakeRead, wakeWrite) = (-1, [], -1, -1)
    }

    private static func release(
        fd: Int32, type bufferType: UInt32, buffers: [UnsafeMutableRawBufferPointer], wake: [Int32],
        system: any V4L2System
    ) {
        if fd >= 0 {
            var type = bufferType
            _ = system.ioctl(fd, CV4L2_VIDIOC_STREAMOFF, &type)
        }
        for buffer in buffers { system.unmap(buffer.baseAddress!, length: buffer.count) }
        if fd >= 0 { system.close(fd) }
        for pipeFD in wake where pipeFD >= 0 { close(pipeFD) }
    }

    // MARK: The streaming thread

    private func startThread(format: Format, handler: @escaping (Event) -> Void) {
        var pipeFDs: [Int32] = [-1, -1]
        _ = pipe(&pipeFDs)
        (wakeRead, wakeWrite) = (pipeFDs[0], pipeFDs[1])
        let (fd, wake, system, buffers, node, bufferType) = (self.fd, wakeRead, self.system, self.buffers, self.node, self.bufferType)
        let wakeFDs = [wakeRead, wakeWrite]
        let stoppedFromHandler = Flag()
        self.stoppedFromHandler = stoppedFromHandler
        // A returned buffer is queued from the borrower's thread (the driver serialises its queue).
        let loans = BufferLoans { token in
            withUnsafeTemporaryAllocation(of: cv4l2_buffer_request.self, capacity: 1) { request in
                cv4l2_buffer_request_init(request.baseAddress!, bufferType, UInt32(token - 1))
                _ = system.ioctl(fd, CV4L2_VIDIOC_QBUF, &request.baseAddress!.pointee.buffer)
            }
        }
        self.loans = loans
        thread = OcellusCore.startThread {
            defer {
                if stoppedFromHandler.isSet {
                    loans.close()
                    V4L2Stream.release(fd: fd, type: bufferType, buffers: buffers, wake: wakeFDs, system: system)
                }
            }
            var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            // One request for the stream's life, at one address (a multi-planar one points into itself).
            let request = UnsafeMutablePointer<cv4l2_buffer_request>.allocate(capacity: 1)
            defer { request.deallocate() }
            while true {
                guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
                if descriptors[1].revents != 0 { return }
                let events = Int32(descriptors[0].revents)
                guard events != 0 else { continue }
                cv4l2_buffer_request_init(request, bufferType, 0)
                let result = system.ioctl(fd, CV4L2_VIDIOC_DQBUF, &request.pointee.buffer)
                let buffer = request.pointee.buffer
                if result == -EAGAIN && events & (POLLERR | POLLHUP) == 0 { continue }
                if result != 0 {
                    handler(.failed(V4L2Stream.streamingError(result, node: node)))
                    return
                }
                let timestamp = UInt64(buffer.timestamp.tv_sec) * 1_000_000_000 + UInt64(buffer.timestamp.tv_usec) * 1000
                let memory = buffers[Int(buffer.index)]
                let used = min(Int(cv4l2_buffer_request_bytes_used(request)), memory.count)
                let start = min(Int(cv4l2_buffer_request_data_offset(request)), used)
                let borrowed = loans.handOver(UInt(buffer.index) + 1) {
                    handler(
                        .frame(
                            Frame(
                                format: format, bytes: UnsafeRawBufferPointer(rebasing: memory[start..<used]),
                                sequence: buffer.sequence, timestampNanoseconds: timestamp,
                                isCorrupt: buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0, lender: loans)))
                }
                if stoppedFromHandler.isSet { return }
                if borrowed { continue }
                let requeued = system.ioctl(fd, CV4L2_VIDIOC_QBUF, &request.pointee.buffer)
                if requeued != 0 {
                    handler(.failed(V4L2Stream.streamingError(requeued, node: node)))
                    return
                }
            }
        }
    }

    /// DQBUF/QBUF failures while streaming: after an unplug the kernel answers ENODEV (or EINVAL).
    static func streamingError(_ result: Int32, node: String) -> OcellusError {
        switch -result {
        case ENODEV, EINVAL, EPIPE: OcellusError(.disconnected, "/dev/\(node) was disconnected while streaming")
        case EIO: OcellusError(.other, "the driver of /dev/\(node) reported an I/O error while streaming")
        default: OcellusError(.other, "streaming from /dev/\(node) failed: \(String(cString: strerror(-result)))")
        }
    }

    static func error(_ result: Int32, _ action: String) -> OcellusError {
        v4l2Error(result, action, busyMeans: "the camera is in use by another client")
    }
}

/// A V4L2 stream as a `CameraStream`: frames converted to the core's `CameraFrame` (views, no copy).
public final class V4L2CameraStream: CameraStream, @unchecked Sendable {
    public let format: VideoFormat
    private let stream: V4L2Stream

    public init(
        devicePath: String, format requested: VideoFormat, frameRate: FrameRate,
        system: any V4L2System = defaultV4L2System(), handler: @escaping (CameraStreamEvent) -> Void
    ) throws(OcellusError) {
        stream = V4L2Stream(devicePath: devicePath, system: system)
        let depthUnit = requested.pixelFormat.isDepthMap ? Self.depthUnit(of: devicePath, system: system) ?? 0 : 0
        let settled = try stream.start(
            pixelFormat: requested.pixelFormat, width: requested.width, height: requested.height,
            frameRate: frameRate
        ) { event in
            switch event {
            case .frame(let frame):
                let active = frame.format
                let planes = CameraFrame.planes(
                    of: active.pixelFormat, height: active.height,
                    stride: Int(active.bytesPerLine), in: frame.bytes)
                let view = CameraFrame(
                    pixelFormat: active.pixelFormat, width: active.width, height: active.height,
                    sequence: UInt64(frame.sequence), timestampNanoseconds: frame.timestampNanoseconds,
                    isCorrupt: frame.isCorrupt, depthUnit: depthUnit, planes: planes.0, planes.1, planes.2)
                withUnsafePointer(to: view) { handler(.frame($0, lender: frame.lender)) }
            case .failed(let error):
                handler(.failed(error))
            }
        }
        let pixelFormat = settled.pixelFormat
        format = VideoFormat(
            pixelFormat: pixelFormat, width: settled.width, height: settled.height,
            frameRates: [settled.frameRate])
    }

    public func stop() { stream.stop() }

    /// Metres per unit of a depth node's samples when its driver has a depth-unit control
    /// (RealSense-style `depth_units`, in micrometres per unit); nil when it has none (millimetres).
    static func depthUnit(of devicePath: String, system: any V4L2System = defaultV4L2System()) -> Float? {
        let controls = (try? V4L2Controls(devicePath: devicePath, system: system).controls()) ?? []
        guard let control = controls.first(where: { $0.name == "depth_units" || $0.name == "depth_unit" }),
            let micrometres = control.value, micrometres > 0
        else { return nil }
        return Float(micrometres) * 1e-6
    }
}
