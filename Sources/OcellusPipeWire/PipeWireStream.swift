import CLibPipeWire
import CPipeWire
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// What a capture stream asks of PipeWire and does with its buffers (all called on the loop thread).
struct PipeWireCaptureMedia {
    /// Stream properties besides the target (media.type, media.category, …).
    var properties: [String: String]
    /// "camera" or "microphone", for errors.
    var device: String
    /// Describes the one format offered, e.g. "YUYV 640x480", for errors.
    var description: String
    /// Builds the single EnumFormat param offered, into the given buffer.
    var buildFormat: (UnsafeMutablePointer<UInt8>, UInt32) -> UnsafePointer<spa_pod>?
    /// The format was agreed (`param`), first (`beforeStreaming`) or again while streaming: the stream may be given
    /// more params, or an error when it cannot take that format, which ends the stream before
    /// any of its buffers is read.
    var formatAgreed: (OpaquePointer, UnsafePointer<spa_pod>, _ beforeStreaming: Bool) -> OcellusError? = { _, _, _ in nil }
    /// A dequeued buffer (queued back after the call), and when its graph cycle began (the
    /// driver's CLOCK_MONOTONIC wakeup; nil if the stream has no time yet, or unless `wantsCycleTime`).
    var process: (UnsafeMutablePointer<spa_buffer>, UInt64?) -> Void
    /// Whether `process` is given the cycle's time (sound is paired by it; frames carry their own).
    var wantsCycleTime = false
    /// The stream ended on its own after it had streamed.
    var failed: (OcellusError) -> Void
    /// Whether being connected is enough (buffers come once the session manager links it, if
    /// ever; a daemon slow to answer is no reason to fail) rather than streaming within the timeout.
    var readyWhenConnected = false
}

/// A `pw_stream` (input) on its own thread loop, aimed at one node's `object.serial`
/// with `node.dont-reconnect` (so it never drifts to another device when this one
/// goes), offering exactly one format so negotiation cannot pick another. A
/// negotiation that does not finish in time is an error, not a hang. The target
/// leaving the registry ends the stream as a disconnection, whatever the session
/// manager then does with the stream (WirePlumber 0.4 unlinks it for good; 0.5
/// leaves it connected, waiting for nothing). Shared by
/// camera and microphone streams, and by the playback reference, which has no target
/// (the session manager links it where its properties say, and moves it).
final class PipeWireCapture: @unchecked Sendable {
    private let media: PipeWireCaptureMedia
    /// node.name, node.description and application.* of the stream.
    private let identity: [String: String]
    private var connection: PipeWireConnection?
    private var stream: OpaquePointer?
    private let coreHook = Pinned(spa_hook()), streamHook = Pinned(spa_hook()), registryHook = Hook()
    private let coreEvents = Pinned(pw_core_events()), streamEvents = Pinned(pw_stream_events())
    private let registryEvents = Pinned(pw_registry_events())
    /// Watches the target's global (only for a stream with a target).
    private var registry: OpaquePointer?
    private var targetSerial: String?
    private var targetGlobalID: UInt32?
    private var state = PW_STREAM_STATE_UNCONNECTED
    private var failure: OcellusError?
    private var finished = false
    private var everStreamed = false
    /// A format agreed before streaming that is not the one asked (loop thread): the open's failure
    /// once the stream is up, so that the link is left whole.
    private var refusedFormat: OcellusError?

    /// Connects and waits until buffers flow (or fails within `timeoutMilliseconds`).
    init(
        remote: PipeWireRemote, objectSerial: String?, timeoutMilliseconds: UInt32, media: PipeWireCaptureMedia,
        application: PipeWireApplication?, deviceName: String?
    ) throws(OcellusError) {
        self.media = media
        self.identity = application?.streamProperties(device: deviceName) ?? ["node.name": "ocellus-capture"]
        let connection = try PipeWireConnection(
            threadName: "ocellus-capture", remote: remote,
            clientProperties: application?.clientProperties ?? [:])
        self.connection = connection
        let outcome = connection.withLock {
            connect(connection, objectSerial: objectSerial, timeoutMilliseconds: timeoutMilliseconds)
        }
        if let error = outcome {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// No callback reaches `media` once this returns (also when called from one of them).
    func stop() {
        guard let connection else { return }
        connection.withLock { finished = true }
        connection.close(
            quiesce: { [self] in
                if let stream { pw_stream_disconnect(stream) }
            },
            { [self] in
                if let stream {
                    spa_hook_remove(streamHook.pointer)
                    pw_stream_destroy(stream)
                }
                stream = nil
                registryHook.remove()
                if let registry { pw_proxy_destroy(registry) }
                registry = nil
                if connection.core != nil { spa_hook_remove(coreHook.pointer) }
            })
        self.connection = nil
    }

    // MARK: Connection (loop locked)

    private func connect(_ connection: PipeWireConnection, objectSerial: String?, timeoutMilliseconds: UInt32) -> OcellusError? {
        guard let core = connection.core else { return OcellusError(.backendUnavailable, "not connected to PipeWire") }
        let me = Unmanaged.passUnretained(self).toOpaque()
        coreEvents.pointer.pointee.version = UInt32(PW_VERSION_CORE_EVENTS)
        coreEvents.pointer.pointee.error = { data, id, _, res, message in
            guard id == UInt32(PW_ID_CORE), res == -EPIPE else { return }
            Unmanaged<PipeWireCapture>.fromOpaque(data!).takeUnretainedValue()
                .fail(OcellusError(.backendUnavailable, "the PipeWire daemon went away while capturing"))
        }
        ocpw_core_add_listener(core, coreHook.pointer, coreEvents.pointer, me)
        if let objectSerial { watchTarget(objectSerial, core: core) }

        let target = objectSerial.map { ["target.object": $0, "node.dont-reconnect": "true"] } ?? [:]
        let properties = makeProperties(media.properties.merging(identity) { _, own in own }.merging(target) { _, fixed in fixed })
        stream = pw_stream_new(core, "ocellus-capture", properties)
        guard let stream else { return OcellusError(.noResources, "could not create a PipeWire stream: \(errnoText())") }
        streamEvents.pointer.pointee.version = UInt32(PW_VERSION_STREAM_EVENTS)
        streamEvents.pointer.pointee.state_changed = { data, _, state, error in
            Unmanaged<PipeWireCapture>.fromOpaque(data!).takeUnretainedValue()
                .stateChanged(state, error: error.map { String(cString: $0) })
        }
        streamEvents.pointer.pointee.param_changed = { data, id, param in
            Unmanaged<PipeWireCapture>.fromOpaque(data!).takeUnretainedValue().paramChanged(id: id, param: param)
        }
        streamEvents.pointer.pointee.process = { data in
            Unmanaged<PipeWireCapture>.fromOpaque(data!).takeUnretainedValue().process()
        }
        pw_stream_add_listener(stream, streamHook.pointer, streamEvents.pointer, me)

        var pod = [UInt8](repeating: 0, count: 1024)
        let result: Int32 = pod.withUnsafeMutableBufferPointer { bytes in
            var param = media.buildFormat(bytes.baseAddress!, UInt32(bytes.count))
            return pw_stream_connect(
                stream, SPA_DIRECTION_INPUT, UInt32.max,
                pw_stream_flags(PW_STREAM_FLAG_AUTOCONNECT.rawValue | PW_STREAM_FLAG_MAP_BUFFERS.rawValue),
                &param, 1)
        }
        guard result >= 0 else { return OcellusError(.other, "cannot connect the capture stream: \(errnoText(-result))") }

        guard !media.readyWhenConnected else { return nil }
        let ready = { [self] in state == PW_STREAM_STATE_STREAMING }
        guard connection.wait(milliseconds: timeoutMilliseconds, until: { ready() || failure != nil }) else {
            return OcellusError(
                .timeout,
                "the \(media.device) did not start streaming \(media.description) within \(timeoutMilliseconds) ms (format negotiation stalled, or the \(media.device) is gone)"
            )
        }
        return failure
    }

    /// Learns the target's global ID from the registry (by its serial), so that its removal is seen.
    private func watchTarget(_ serial: String, core: OpaquePointer) {
        targetSerial = serial
        registry = pw_core_get_registry(core, UInt32(PW_VERSION_REGISTRY), 0)
        guard registry != nil else { return }
        registryEvents.pointer.pointee.version = UInt32(PW_VERSION_REGISTRY_EVENTS)
        registryEvents.pointer.pointee.global = { data, id, _, type, _, props in
            guard let type, String(cString: type) == PipeWireTypes.node,
                let serial = spa_dict_lookup(props, "object.serial")
            else { return }
            let capture = Unmanaged<PipeWireCapture>.fromOpaque(data!).takeUnretainedValue()
            if String(cString: serial) == capture.targetSerial { capture.targetGlobalID = id }
        }
        registryEvents.pointer.pointee.global_remove = { data, id in
            let capture = Unmanaged<PipeWireCapture>.fromOpaque(data!).takeUnretainedValue()
            guard id == capture.targetGlobalID else { return }
            capture.fail(OcellusError(.disconnected, "the \(capture.media.device) was disconnected"))
        }
        ocpw_registry_add_listener(
            registry, registryHook.pointer, registryEvents.pointer,
            Unmanaged.passUnretained(self).toOpaque())
    }

    // MARK: Stream events (loop thread)

    private func fail(_ error: OcellusError) {
        guard !finished else { return }
        finished = true
        if everStreamed { media.failed(error) } else { failure = error }
        connection?.signal()
    }

    private func stateChanged(_ newState: pw_stream_state, error: String?) {
        state = newState
        if let refusal = refusedFormat, newState == PW_STREAM_STATE_STREAMING || newState == PW_STREAM_STATE_ERROR {
            fail(refusal)
            return
        }
        switch newState {
        case PW_STREAM_STATE_STREAMING:
            everStreamed = true
            connection?.signal()
        case PW_STREAM_STATE_ERROR where media.readyWhenConnected && !everStreamed:
            // The session manager found nothing to link it to (WirePlumber: "no node available");
            // the node stays, and is linked when there is something.
            break
        case PW_STREAM_STATE_ERROR:
            fail(OcellusError(.other, "the capture stream failed: \(error ?? "unknown error")"))
        case PW_STREAM_STATE_UNCONNECTED:
            // With node.dont-reconnect the stream is unlinked for good when its camera goes.
            fail(OcellusError(.disconnected, "the \(media.device) was disconnected"))
        default:
            break
        }
    }

    private func paramChanged(id: UInt32, param: UnsafePointer<spa_pod>?) {
        guard id == SPA_PARAM_Format.rawValue, let param, let stream else { return }
        guard let refusal = media.formatAgreed(stream, param, !everStreamed) else { return }
        // Refused before streaming: said once the link is up (then left cleanly), not mid-negotiation.
        if everStreamed { fail(refusal) } else { refusedFormat = refusal }
    }

    private func process() {
        guard let stream, !finished, let pwBuffer = pw_stream_dequeue_buffer(stream) else { return }
        defer { pw_stream_queue_buffer(stream, pwBuffer) }
        guard let buffer = pwBuffer.pointee.buffer else { return }
        // The cycle's time, not this thread's: a thread scheduled late reads the same time.
        var time = pw_time()
        let cycle =
            media.wantsCycleTime && pw_stream_get_time_n(stream, &time, MemoryLayout<pw_time>.size) == 0 && time.now > 0
            ? UInt64(time.now) : nil
        media.process(buffer, cycle)
    }
}

/// Frames from a PipeWire camera, in exactly the pixel format, size and rate chosen.
public final class PipeWireStream: CameraStream, @unchecked Sendable {
    public let format: VideoFormat
    private let handler: (CameraStreamEvent) -> Void
    // What `deliver` reads for every frame, as plain values (no reference counting per frame).
    private let pixelFormat: FourCC
    private let width: UInt32, height: UInt32
    /// The row layout of the last chunk size seen (loop thread only): worked out once, not per frame.
    private var layout = RowLayout(chunkSize: -1, stride: 0, chromaStride: 0)
    /// Frames numbered here (loop thread only) for producers whose header never counts: GStreamer's
    /// pipewiresink leaves `seq` at 0, which made every frame number 0.
    private var framesSeen: UInt64 = 0
    private var lastHeaderSequence: UInt64?
    private var headerSequenceCounts = true
    private var capture: PipeWireCapture?

    public init(
        remote: PipeWireRemote, objectSerial: String, format: VideoFormat, frameRate: FrameRate,
        timeoutMilliseconds: UInt32 = 3000, application: PipeWireApplication? = nil, deviceName: String? = nil,
        foundInUse: @escaping ((format: VideoFormat, rate: FrameRate)) -> Void = { _ in },
        handler: @escaping (CameraStreamEvent) -> Void
    ) throws(OcellusError) {
        // The rate it runs at, not the rates the camera offers in this format (the session's frame
        // interval, the active format and a recording's rate read it).
        self.format = VideoFormat(pixelFormat: format.pixelFormat, width: format.width, height: format.height, frameRates: [frameRate])
        self.handler = handler
        (pixelFormat, width, height) = (format.pixelFormat, format.width, format.height)
        guard let spa = PipeWireFormats.spaFormat(for: format.pixelFormat) else {
            throw OcellusError(.invalidArgument, "PipeWire cannot carry \(format.pixelFormat)")
        }
        let (width, height) = (width, height)
        // Unowned: the capture (and its loop thread) stops before this stream's memory goes.
        let media = PipeWireCaptureMedia(
            properties: ["media.type": "Video", "media.category": "Capture", "media.role": "Camera"],
            device: "camera",
            description: "\(format.pixelFormat) \(width)x\(height)",
            buildFormat: { buffer, size in
                var rate = spa_fraction(num: frameRate.numerator, denom: frameRate.denominator)
                return ocpw_build_video_enum_format(buffer, size, spa.subtype, spa.format, width, height, &rate, 1)
            },
            formatAgreed: { stream, param, beforeStreaming in
                // Only the format offered can be read. The camera already running another format
                // or size for another app is said with that format (the session can share it);
                // one changed while streaming (the producer renegotiated) ends the stream.
                var agreed = ocpw_video_format()
                var refusal: OcellusError?
                if !(ocpw_parse_video_format(param, &agreed) == 0 && agreed.n_sizes > 0
                    && PipeWireFormats.fourCC(subtype: agreed.media_subtype, format: agreed.n_formats > 0 ? agreed.formats.0 : 0)
                        == format.pixelFormat
                    && agreed.sizes.0.width == width && agreed.sizes.0.height == height)
                {
                    let size = agreed.n_sizes > 0 ? " \(agreed.sizes.0.width)x\(agreed.sizes.0.height)" : ""
                    guard beforeStreaming else {
                        return OcellusError(
                            .io,
                            "the camera's format changed to \(PipeWireFormats.describe(agreed))\(size) while it streamed "
                                + "\(format.pixelFormat) \(width)x\(height) (another app asked for it); the stream ended")
                    }
                    if let running = PipeWireFormats.running(agreed) { foundInUse(running) }
                    refusal = OcellusError(
                        .busy,
                        "the camera streams \(PipeWireFormats.describe(agreed))\(size) for another app, "
                            + "not \(format.pixelFormat) \(width)x\(height)")
                }
                // Agreed even when refused: a link left half-negotiated fails its buffer allocation,
                // and PipeWire 1.4 then puts the producer in error too, ending the other app's stream.
                var meta = [UInt8](repeating: 0, count: 256)
                _ = meta.withUnsafeMutableBufferPointer { bytes in
                    var params: UnsafePointer<spa_pod>? = ocpw_build_meta_header_param(bytes.baseAddress, UInt32(bytes.count))
                    return pw_stream_update_params(stream, &params, 1)
                }
                return refusal
            },
            process: { [unowned(unsafe) self] buffer, _ in self.deliver(buffer) },
            failed: { [unowned(unsafe) self] error in self.handler(.failed(error)) })
        capture = try PipeWireCapture(
            remote: remote, objectSerial: objectSerial, timeoutMilliseconds: timeoutMilliseconds, media: media,
            application: application, deviceName: deviceName)
    }

    deinit { stop() }

    public func stop() { capture?.stop() }

    private func deliver(_ buffer: UnsafeMutablePointer<spa_buffer>) {
        guard let data = buffer.pointee.datas, let base = data.pointee.data, let chunk = data.pointee.chunk else { return }
        let offset = Int(chunk.pointee.offset), size = Int(chunk.pointee.size)
        guard size > 0, offset + size <= Int(data.pointee.maxsize) else { return }
        let bytes = UnsafeRawBufferPointer(start: base + offset, count: size)
        if layout.chunkSize != size {
            layout = RowLayout(pixelFormat, width: Int(width), height: Int(height), chunkSize: size, statedStride: Int(chunk.pointee.stride))
        }
        let header = ocpw_buffer_find_header(buffer)
        var sequence = framesSeen
        framesSeen &+= 1
        if let seq = header?.pointee.seq, headerSequenceCounts {
            if seq == lastHeaderSequence { headerSequenceCounts = false } else { sequence = seq }
            lastHeaderSequence = seq
        }
        let timestamp = header.map { UInt64(max(0, $0.pointee.pts)) } ?? monotonicNanoseconds()
        var planes = CameraFrame.planes(of: pixelFormat, height: height, stride: layout.stride, chromaStride: layout.chromaStride, in: bytes)
        if buffer.pointee.n_datas > 1 && (pixelFormat == .nv12 || pixelFormat == .i420) {
            // One data per plane (as libcamera and some GStreamer producers send), each with its own chunk.
            func plane(_ index: Int) -> FramePlane? {
                let plane = data[index]
                guard let planeBase = plane.data, let planeChunk = plane.chunk, planeChunk.pointee.size > 0,
                    Int(planeChunk.pointee.offset) + Int(planeChunk.pointee.size) <= Int(plane.maxsize)
                else { return nil }
                return FramePlane(
                    bytes: UnsafeRawBufferPointer(start: planeBase + Int(planeChunk.pointee.offset), count: Int(planeChunk.pointee.size)),
                    stride: planeChunk.pointee.stride > 0 ? Int(planeChunk.pointee.stride) : layout.chromaStride)
            }
            planes = (
                FramePlane(bytes: bytes, stride: chunk.pointee.stride > 0 ? Int(chunk.pointee.stride) : layout.stride),
                plane(1), pixelFormat == .i420 && buffer.pointee.n_datas > 2 ? plane(2) : nil
            )
        }
        let frame = CameraFrame(
            pixelFormat: pixelFormat, width: width, height: height,
            sequence: sequence, timestampNanoseconds: timestamp,
            isCorrupt: chunk.pointee.flags & Int32(SPA_CHUNK_FLAG_CORRUPTED) != 0,
            planes: planes.0, planes.1, planes.2)
        withUnsafePointer(to: frame) { handler(.frame($0)) }
    }
}

/// Where the rows of a raw frame lie in a PipeWire chunk. A producer that states its stride is
/// taken at its word; one that does not (GStreamer's pipewiresink says 0) still pads rows as its
/// own allocator does — GStreamer to 4 bytes, so NV12 at 650 pixels has 652-byte rows — and the
/// padding is the one alignment whose planes fill the chunk exactly. Tight rows otherwise.
struct RowLayout {
    let chunkSize: Int
    /// Bytes from one row of the first plane to the next.
    let stride: Int
    /// The same for the chroma planes (I420: each of U and V; NV12: the UV plane).
    let chromaStride: Int

    init(chunkSize: Int, stride: Int, chromaStride: Int) {
        (self.chunkSize, self.stride, self.chromaStride) = (chunkSize, stride, chromaStride)
    }

    init(_ format: FourCC, width: Int, height: Int, chunkSize: Int, statedStride: Int) {
        self.chunkSize = chunkSize
        let chromaRows = (height + 1) / 2
        let (row, chromaRow, chromaPlanes): (Int, Int, Int) =
            switch format {
            case .yuyv, .uyvy: (width * 2, 0, 0)
            case .nv12: (width, (width + 1) / 2 * 2, 1)
            case .i420: (width, (width + 1) / 2, 2)
            case .grey: (width, 0, 0)
            case .rgb24, .bgr24: (width * 3, 0, 0)
            case .bgrx, .bgra, .rgba: (width * 4, 0, 0)
            default: (0, 0, 0) // compressed: one run of bytes
            }
        if statedStride > 0 {
            stride = statedStride
            // The chroma stride is not stated: whatever the rest of the chunk holds per chroma row.
            let rest = chunkSize - statedStride * height
            let measured = chromaPlanes > 0 && rest > 0 ? rest / (chromaPlanes * chromaRows) : 0
            chromaStride =
                measured >= chromaRow
                ? measured
                : format == .nv12 ? statedStride : statedStride / 2
            return
        }
        func roundUp(_ value: Int, _ alignment: Int) -> Int { (value + alignment - 1) / alignment * alignment }
        for alignment in [1, 2, 4, 8, 16, 32, 64, 128, 256] {
            let (luma, chroma) = (roundUp(row, alignment), roundUp(chromaRow, alignment))
            if luma * height + chromaPlanes * chroma * chromaRows == chunkSize {
                (stride, chromaStride) = (luma, chroma)
                return
            }
        }
        (stride, chromaStride) = (row, chromaRow)
    }
}
