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

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let configuration: Configuration
    private let onEvent: (Event) -> Void
    private var loop: OpaquePointer?
    private var core: OpaquePointer?
    private var stream: OpaquePointer?
    private var registry: OpaquePointer?
    private var timer: UnsafeMutablePointer<spa_source>?
    private var device: OpaquePointer?
    private var deviceID: UInt32?
    // PipeWire keeps pointers to hooks and event tables: they need fixed addresses.
    private let coreHook = Pinned(spa_hook()), streamHook = Pinned(spa_hook()), registryHook = Pinned(spa_hook())
    private let coreEvents = Pinned(pw_core_events()), streamEvents = Pinned(pw_stream_events())
    private let registryEvents = Pinned(pw_registry_events())
    private var announced = false
    private var failure: String?

    private var pattern: TestPattern?
    private var frameInterval: UInt64 = 0
    private var sequence: UInt64 = 0

    public init(_ configuration: Configuration, onEvent: @escaping (Event) -> Void = { _ in }) {
        self.configuration = configuration
        self.onEvent = onEvent
    }

    /// Publishes the camera and serves frames until a signal, `maxFrames`, or the daemon going away.
    public func run() throws {
        pw_init(nil, nil)
        loop = pw_main_loop_new(nil)
        guard let loop else { throw Failure(description: "could not create a PipeWire loop") }
        defer { tearDown() }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let pwLoop = pw_main_loop_get_loop(loop)
        for signalNumber in [SIGINT, SIGTERM] {
            _ = ocpw_loop_add_signal(pwLoop, signalNumber, { data, _ in
                Unmanaged<VirtualCamera>.fromOpaque(data!).takeUnretainedValue().quit()
            }, me)
        }
        let context = pw_context_new(pwLoop, nil, 0)
        var connectProperties = properties([:])
        if let remote = configuration.remote { pw_properties_set(connectProperties, "remote.name", remote) }
        core = pw_context_connect(context, connectProperties, 0)
        connectProperties = nil
        guard let core else {
            throw Failure(description: "cannot connect to PipeWire: \(String(cString: strerror(errno)))")
        }
        coreEvents.pointer.pointee.version = UInt32(PW_VERSION_CORE_EVENTS)
        coreEvents.pointer.pointee.error = { data, id, _, res, message in
            let camera = Unmanaged<VirtualCamera>.fromOpaque(data!).takeUnretainedValue()
            if id == UInt32(PW_ID_CORE) && res == -EPIPE {
                camera.failure = "the PipeWire daemon went away"
                camera.quit()
            }
        }
        ocpw_core_add_listener(core, coreHook.pointer, coreEvents.pointer, me)
        timer = ocpw_loop_add_timer(pwLoop, { data, _ in
            let camera = Unmanaged<VirtualCamera>.fromOpaque(data!).takeUnretainedValue()
            if let stream = camera.stream { pw_stream_trigger_process(stream) }
        }, me)

        var nodeProperties = configuration.nodeProperties
        if !configuration.deviceProperties.isEmpty {
            try exportDevice()
            nodeProperties["device.id"] = String(deviceID!)
        }
        try connectStream(nodeProperties: nodeProperties)
        watchRegistry()
        pw_main_loop_run(loop)
        if let failure { throw Failure(description: failure) }
    }

    private func quit() {
        if let loop { pw_main_loop_quit(loop) }
    }

    private func exportDevice() throws {
        var deviceProperties = configuration.deviceProperties
        deviceProperties["media.class"] = deviceProperties["media.class"] ?? "Video/Device"
        deviceProperties["device.name"] = deviceProperties["device.name"] ?? "\(configuration.name).device"
        // Like udev's USEC_INITIALIZED for a real camera: when it appeared, CLOCK_MONOTONIC µs.
        if deviceProperties["device.plugged.usec"] == nil {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            deviceProperties["device.plugged.usec"] = String(UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000)
        }
        let dict = properties(deviceProperties)
        defer { pw_properties_free(dict) }
        device = ocpw_props_device_export(core, &dict!.pointee.dict, { data, id in
            let camera = Unmanaged<VirtualCamera>.fromOpaque(data!).takeUnretainedValue()
            camera.deviceID = id
            camera.quit()
        }, Unmanaged.passUnretained(self).toOpaque())
        guard device != nil else { throw Failure(description: "could not export the Video/Device object") }
        pw_main_loop_run(loop)  // until bound (or a signal)
        guard let deviceID else { throw Failure(description: failure ?? "interrupted before the device was published") }
        onEvent(.deviceExported(deviceID: deviceID))
    }

    private func connectStream(nodeProperties: [String: String]) throws {
        var all = nodeProperties
        all["media.class"] = "Video/Source"
        all["media.type"] = "Video"
        all["media.role"] = all["media.role"] ?? "Camera"
        all["node.name"] = configuration.name
        all["node.description"] = all["node.description"] ?? configuration.description ?? configuration.name
        all["node.nick"] = all["node.nick"] ?? configuration.description ?? configuration.name
        stream = pw_stream_new(core, configuration.name, properties(all))
        guard let stream else { throw Failure(description: "could not create the stream: \(String(cString: strerror(errno)))") }

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
                        ocpw_build_video_enum_format(bytes.baseAddress, UInt32(bytes.count), format.mediaSubtype,
                                                     format.spaFormat, size.width, size.height,
                                                     rateList.baseAddress, UInt32(rateList.count))
                    }
                }
                guard built != nil else { throw Failure(description: "format description too large") }
                storage.append(buffer)
            }
        }
        let result = withPodPointers(storage) { params in
            pw_stream_connect(stream, SPA_DIRECTION_OUTPUT, UInt32.max,
                              pw_stream_flags(PW_STREAM_FLAG_DRIVER.rawValue | PW_STREAM_FLAG_MAP_BUFFERS.rawValue),
                              params.baseAddress, UInt32(params.count))
        }
        guard result >= 0 else { throw Failure(description: "stream connect failed: \(String(cString: strerror(-result)))") }
    }

    /// Prints the node's global id and serial once the registry shows it, so scripts can wait for it.
    private func watchRegistry() {
        registry = pw_core_get_registry(core, UInt32(PW_VERSION_REGISTRY), 0)
        registryEvents.pointer.pointee.version = UInt32(PW_VERSION_REGISTRY_EVENTS)
        registryEvents.pointer.pointee.global = { data, id, _, type, _, props in
            let camera = Unmanaged<VirtualCamera>.fromOpaque(data!).takeUnretainedValue()
            guard !camera.announced, let type, String(cString: type) == "PipeWire:Interface:Node",
                  let stream = camera.stream, id == pw_stream_get_node_id(stream),
                  let serial = ocpw_dict_lookup(props, "object.serial") else { return }
            camera.announced = true
            camera.onEvent(.ready(nodeID: id, objectSerial: String(cString: serial)))
        }
        ocpw_registry_add_listener(registry, registryHook.pointer, registryEvents.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    private func stateChanged(_ state: pw_stream_state) {
        switch state {
        case PW_STREAM_STATE_STREAMING:
            _ = ocpw_loop_update_timer(pw_main_loop_get_loop(loop), timer, frameInterval)
        case PW_STREAM_STATE_PAUSED:
            _ = ocpw_loop_update_timer(pw_main_loop_get_loop(loop), timer, 0)
        case PW_STREAM_STATE_ERROR, PW_STREAM_STATE_UNCONNECTED:
            quit()  // the daemon went away: a camera does not outlive its bus
        default:
            break
        }
    }

    private func paramChanged(id: UInt32, param: UnsafePointer<spa_pod>?) {
        guard id == SPA_PARAM_Format.rawValue else { return }
        guard let param else { pattern = nil; return }
        var parsed = ocpw_video_format()
        guard ocpw_parse_video_format(param, &parsed) == 0, parsed.n_sizes > 0,
              let format = VirtualPixelFormat(mediaSubtype: parsed.media_subtype, spaFormat: parsed.formats.0) else {
            ocpw_stream_set_error(stream, -EINVAL, "unsupported format")
            return
        }
        let size = parsed.sizes.0
        let rate = parsed.n_rates > 0 && parsed.rates.0.num > 0 ? parsed.rates.0 : spa_fraction(num: 30, denom: 1)
        frameInterval = 1_000_000_000 * UInt64(rate.denom) / UInt64(rate.num)
        let rendered = TestPattern(format: format, width: size.width, height: size.height,
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
        if let registry { spa_hook_remove(registryHook.pointer); pw_proxy_destroy(registry) }
        registry = nil
        if let device { ocpw_props_device_destroy(device) }
        device = nil
        if let core { pw_core_disconnect(core) }
        core = nil
        if let loop { pw_main_loop_destroy(loop) }
        loop = nil
    }
}

private func properties(_ values: [String: String]) -> UnsafeMutablePointer<pw_properties>? {
    let result = pw_properties_new_string("")
    for (key, value) in values { pw_properties_set(result, key, value) }
    return result
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
