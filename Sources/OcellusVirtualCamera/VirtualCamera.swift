import CLibPipeWire
import CPipeWire
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// A PipeWire camera made of software, shaped like a UVC camera seen through
/// PipeWire's V4L2 plugin: one EnumFormat per (format, size) with a choice of
/// frame rates, `SPA_META_Header` with sequence and pts on every buffer, any
/// node properties, and optionally a `Video/Device` object carrying device
/// properties that the node's `device.id` points to. It plays a moving test
/// pattern; killing its process is an unplug.
public final class VirtualCamera {
    public struct Configuration {
        public var name = "ocellus-virtual-camera"
        public var description: String?
        public var formats: [VirtualPixelFormat] = [.yuy2, .nv12, .mjpg]
        public var sizes: [(width: UInt32, height: UInt32)] = [(640, 480), (1280, 720), (1920, 1080)]
        /// First one is the default.
        public var frameRates: [(numerator: UInt32, denominator: UInt32)] = [(30, 1), (15, 1)]
        public var nodeProperties: [String: String] = [:]
        /// When non-empty, a `Video/Device` object with these properties is exported too.
        public var deviceProperties: [String: String] = [:]
        /// PipeWire remote (socket name or path); nil = `PIPEWIRE_REMOTE` or the default.
        public var remote: String?
        /// Stop after this many frames (0 = run until SIGINT/SIGTERM).
        public var maxFrames: UInt64 = 0
        /// MJPEG frames are this JPEG file's bytes, unchanged, instead of the test pattern: pictures
        /// from an encoder that is not ours, for tests that compare against independent decoders.
        public var mjpegFile: [UInt8]?
        /// Each frame's chunk says a quarter of the bytes the agreed format needs: what a consumer
        /// sees when another app made the producer renegotiate to a smaller size (tests of the
        /// consumer's checks; no real camera should).
        public var shortFrames = false

        public init() {}
    }

    public enum Event {
        /// The node is in the registry.
        case ready(nodeID: UInt32, objectSerial: String)
        case deviceExported(deviceID: UInt32)
        case formatNegotiated(VirtualPixelFormat, width: UInt32, height: UInt32, rate: (UInt32, UInt32))
    }

    private let configuration: Configuration
    private let onEvent: (Event) -> Void
    private var connection: ProducerConnection?
    private var stream: OpaquePointer?
    private var timer: UnsafeMutablePointer<spa_source>?
    private var device: OpaquePointer?
    private var deviceID: UInt32?
    // PipeWire keeps pointers to hooks and event tables: they need fixed addresses.
    private let streamHook = Pinned(spa_hook()), streamEvents = Pinned(pw_stream_events())

    private var pattern: TestPattern?
    private var frameInterval: UInt64 = 0
    private var sequence: UInt64 = 0

    public init(_ configuration: Configuration, onEvent: @escaping (Event) -> Void = { _ in }) {
        self.configuration = configuration
        self.onEvent = onEvent
    }

    /// Publishes the camera and serves frames until a signal, `maxFrames`, or the daemon going away.
    public func run() throws(ProducerFailure) {
        let connection = try ProducerConnection(remote: configuration.remote)
        self.connection = connection
        defer { tearDown() }
        timer = ocpw_loop_add_timer(
            connection.pwLoop,
            { data, _ in
                let camera = Unmanaged<VirtualCamera>.fromOpaque(data!).takeUnretainedValue()
                if let stream = camera.stream { pw_stream_trigger_process(stream) }
            }, Unmanaged.passUnretained(self).toOpaque())

        var nodeProperties = configuration.nodeProperties
        if !configuration.deviceProperties.isEmpty {
            try exportDevice(connection)
            nodeProperties["device.id"] = String(deviceID!)
        }
        let stream = try connectStream(connection, nodeProperties: nodeProperties)
        connection.announce(nodeOf: stream) { [onEvent] id, serial in onEvent(.ready(nodeID: id, objectSerial: serial)) }
        try connection.run()
    }

    private func quit() { connection?.quit() }

    private func exportDevice(_ connection: ProducerConnection) throws(ProducerFailure) {
        var deviceProperties = configuration.deviceProperties
        deviceProperties["media.class"] = deviceProperties["media.class"] ?? "Video/Device"
        deviceProperties["device.name"] = deviceProperties["device.name"] ?? "\(configuration.name).device"
        // Like udev's USEC_INITIALIZED for a real camera: when it appeared, CLOCK_MONOTONIC µs.
        if deviceProperties["device.plugged.usec"] == nil {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            deviceProperties["device.plugged.usec"] = String(UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000)
        }
        let dict = producerProperties(deviceProperties)
        defer { pw_properties_free(dict) }
        device = ocpw_props_device_export(
            connection.core, &dict!.pointee.dict,
            { data, id in
                let camera = Unmanaged<VirtualCamera>.fromOpaque(data!).takeUnretainedValue()
                camera.deviceID = id
                camera.quit()
            }, Unmanaged.passUnretained(self).toOpaque())
        guard device != nil else { throw ProducerFailure(description: "could not export the Video/Device object") }
        pw_main_loop_run(connection.loop) // until bound (or a signal)
        guard let deviceID else { throw ProducerFailure(description: connection.failure ?? "interrupted before the device was published") }
        onEvent(.deviceExported(deviceID: deviceID))
    }

    private func connectStream(_ connection: ProducerConnection, nodeProperties: [String: String]) throws(ProducerFailure) -> OpaquePointer {
        var all = nodeProperties
        all["media.role"] = all["media.role"] ?? "Camera"
        all["node.nick"] = all["node.nick"] ?? configuration.description ?? configuration.name
        let stream = try connection.makeStream(
            name: configuration.name, description: configuration.description,
            mediaClass: "Video/Source", mediaType: "Video", properties: all)
        self.stream = stream

        streamEvents.pointer.pointee.version = UInt32(PW_VERSION_STREAM_EVENTS)
        streamEvents.pointer.pointee.state_changed = { data, _, state, _ in
            Unmanaged<VirtualCamera>.fromOpaque(data!).takeUnretainedValue().stateChanged(state)
        }
        streamEvents.pointer.pointee.param_changed = { data, id, param in
            Unmanaged<VirtualCamera>.fromOpaque(data!).takeUnretainedValue().paramChanged(id: id, param: param)
        }
        streamEvents.pointer.pointee.process = { data in
            Unmanaged<VirtualCamera>.fromOpaque(data!).takeUnretainedValue().produceFrame()
        }
        pw_stream_add_listener(stream, streamHook.pointer, streamEvents.pointer, Unmanaged.passUnretained(self).toOpaque())

        // One EnumFormat per (format, size), in the order given: the first is the preferred one.
        let rates = configuration.frameRates.map { spa_fraction(num: $0.numerator, denom: $0.denominator) }
        var storage: [[UInt8]] = []
        for format in configuration.formats {
            for size in configuration.sizes {
                var buffer = [UInt8](repeating: 0, count: 1024)
                let built = buffer.withUnsafeMutableBufferPointer { bytes in
                    rates.withUnsafeBufferPointer { rateList in
                        ocpw_build_video_enum_format(
                            bytes.baseAddress, UInt32(bytes.count), format.mediaSubtype,
                            format.spaFormat, size.width, size.height,
                            rateList.baseAddress, UInt32(rateList.count))
                    }
                }
                guard built != nil else { throw ProducerFailure(description: "format description too large") }
                storage.append(buffer)
            }
        }
        let result = withPodPointers(storage) { params in
            pw_stream_connect(
                stream, SPA_DIRECTION_OUTPUT, UInt32.max,
                pw_stream_flags(PW_STREAM_FLAG_DRIVER.rawValue | PW_STREAM_FLAG_MAP_BUFFERS.rawValue),
                params.baseAddress, UInt32(params.count))
        }
        guard result >= 0 else { throw ProducerFailure(description: "stream connect failed: \(String(cString: strerror(-result)))") }
        return stream
    }

    private func stateChanged(_ state: pw_stream_state) {
        switch state {
        case PW_STREAM_STATE_STREAMING:
            if let connection { _ = ocpw_loop_update_timer(connection.pwLoop, timer, frameInterval) }
        case PW_STREAM_STATE_PAUSED:
            if let connection { _ = ocpw_loop_update_timer(connection.pwLoop, timer, 0) }
        case PW_STREAM_STATE_ERROR, PW_STREAM_STATE_UNCONNECTED:
            quit() // the daemon went away: a camera does not outlive its bus
        default:
            break
        }
    }

    private func paramChanged(id: UInt32, param: UnsafePointer<spa_pod>?) {
        guard id == SPA_PARAM_Format.rawValue else { return }
        guard let param else { pattern = nil; return }
        var parsed = ocpw_video_format()
        guard ocpw_parse_video_format(param, &parsed) == 0, parsed.n_sizes > 0,
            let format = VirtualPixelFormat(mediaSubtype: parsed.media_subtype, spaFormat: parsed.formats.0)
        else {
            ocpw_stream_set_error(stream, -EINVAL, "unsupported format")
            return
        }
        let size = parsed.sizes.0
        let rate = parsed.n_rates > 0 && parsed.rates.0.num > 0 ? parsed.rates.0 : spa_fraction(num: 30, denom: 1)
        frameInterval = 1_000_000_000 * UInt64(rate.denom) / UInt64(rate.num)
        let rendered = TestPattern(
            format: format, width: size.width, height: size.height,
            jpeg: format == .mjpg ? configuration.mjpegFile : nil)
        pattern = rendered
        onEvent(.formatNegotiated(format, width: size.width, height: size.height, rate: (rate.num, rate.denom)))

        var buffers = [UInt8](repeating: 0, count: 512)
        var meta = [UInt8](repeating: 0, count: 256)
        _ = buffers.withUnsafeMutableBufferPointer {
            ocpw_build_buffers_param($0.baseAddress, UInt32($0.count), UInt32(rendered.maxFrameSize), UInt32(rendered.stride))
        }
        _ = meta.withUnsafeMutableBufferPointer { ocpw_build_meta_header_param($0.baseAddress, UInt32($0.count)) }
        _ = withPodPointers([buffers, meta]) { params in
            pw_stream_update_params(stream, params.baseAddress, UInt32(params.count))
        }
    }

    private func produceFrame() {
        guard let stream, let pattern, let pwBuffer = pw_stream_dequeue_buffer(stream) else { return }
        defer { pw_stream_queue_buffer(stream, pwBuffer) }
        let buffer = pwBuffer.pointee.buffer!
        let data = buffer.pointee.datas!
        guard let destination = data.pointee.data else { return }
        let written = pattern.write(frame: sequence, into: destination, capacity: Int(data.pointee.maxsize))
        data.pointee.chunk.pointee.offset = 0
        data.pointee.chunk.pointee.size = UInt32(configuration.shortFrames ? written / 4 : written)
        data.pointee.chunk.pointee.stride = Int32(pattern.stride)
        if let header = ocpw_buffer_find_header(buffer) {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            header.pointee.pts = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
            header.pointee.flags = 0
            header.pointee.seq = sequence
            header.pointee.dts_offset = 0
        }
        sequence += 1
        if configuration.maxFrames > 0 && sequence >= configuration.maxFrames { quit() }
    }

    private func tearDown() {
        if let stream { spa_hook_remove(streamHook.pointer); pw_stream_destroy(stream) }
        stream = nil
        if let device { ocpw_props_device_destroy(device) }
        device = nil
        connection = nil
    }
}

/// Calls `body` with an array of `spa_pod` pointers into `pods` (each a buffer holding one pod).
private func withPodPointers<R>(_ pods: [[UInt8]], _ body: (UnsafeMutableBufferPointer<UnsafePointer<spa_pod>?>) -> R) -> R {
    var pointers: [UnsafePointer<spa_pod>?] = []
    for pod in pods {
        pod.withUnsafeBytes { raw in
            pointers.append(UnsafePointer(raw.baseAddress!.assumingMemoryBound(to: spa_pod.self)))
        }
    }
    return withExtendedLifetime(pods) { pointers.withUnsafeMutableBufferPointer { body($0) } }
}
