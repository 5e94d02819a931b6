import CLibPipeWire
import CPipeWire
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// A microphone for the test bed that is a process of its own, as the virtual camera is: an
/// Audio/Source stream whose every graph cycle gets the samples it asks for of a sine tone at a
/// set level, so that it is paced by the graph's driver, exactly, and serves any number of
/// clients one after another. PipeWire's in-daemon audiotestsrc, which the bed used before,
/// stopped delivering to every later client once a few had ended (Debian 12's 0.3.65).
public final class VirtualMicrophone {
    public struct Configuration {
        public var name = "ocellus-virtual-microphone"
        public var description: String?
        /// The tone's peak, 0–1 of full scale (microphones told apart by loudness).
        public var volume: Float = 1
        public var frequency: Double = 440
        public var sampleRate: UInt32 = 48000
        public var channels: UInt32 = 2
        public var nodeProperties: [String: String] = [:]
        /// PipeWire remote (socket name or path); nil = `PIPEWIRE_REMOTE` or the default.
        public var remote: String?

        public init() {}
    }

    private let configuration: Configuration
    private let onReady: (UInt32, String) -> Void
    private var connection: ProducerConnection?
    private var stream: OpaquePointer?
    private let streamHook = Pinned(spa_hook()), streamEvents = Pinned(pw_stream_events())
    /// Where the tone is, in cycles (kept in 0..<1 so it never loses precision).
    private var phase: Double = 0

    public init(_ configuration: Configuration, onReady: @escaping (_ nodeID: UInt32, _ objectSerial: String) -> Void) {
        self.configuration = configuration
        self.onReady = onReady
    }

    /// Publishes the microphone and serves sound until a signal or the daemon going away.
    public func run() throws(ProducerFailure) {
        let connection = try ProducerConnection(remote: configuration.remote)
        self.connection = connection
        defer {
            if let stream { spa_hook_remove(streamHook.pointer); pw_stream_destroy(stream) }
            stream = nil
            self.connection = nil
        }
        let stream = try connection.makeStream(
            name: configuration.name, description: configuration.description,
            mediaClass: "Audio/Source", mediaType: "Audio", properties: configuration.nodeProperties)
        self.stream = stream
        streamEvents.pointer.pointee.version = UInt32(PW_VERSION_STREAM_EVENTS)
        streamEvents.pointer.pointee.state_changed = { data, _, state, _ in
            // The daemon went away: a microphone does not outlive its bus.
            guard state == PW_STREAM_STATE_ERROR || state == PW_STREAM_STATE_UNCONNECTED else { return }
            Unmanaged<VirtualMicrophone>.fromOpaque(data!).takeUnretainedValue().connection?.quit()
        }
        streamEvents.pointer.pointee.process = { data in
            Unmanaged<VirtualMicrophone>.fromOpaque(data!).takeUnretainedValue().produce()
        }
        pw_stream_add_listener(stream, streamHook.pointer, streamEvents.pointer, Unmanaged.passUnretained(self).toOpaque())
        var format = [UInt8](repeating: 0, count: 512)
        let result = format.withUnsafeMutableBufferPointer { bytes -> Int32 in
            var params: [UnsafePointer<spa_pod>?] = [
                ocpw_build_audio_format(
                    bytes.baseAddress, UInt32(bytes.count),
                    configuration.sampleRate, configuration.channels)
            ]
            // Not a driver and not linked by the session manager: clients link to it, the graph paces it.
            return pw_stream_connect(
                stream, SPA_DIRECTION_OUTPUT, UInt32.max,
                pw_stream_flags(PW_STREAM_FLAG_MAP_BUFFERS.rawValue | PW_STREAM_FLAG_RT_PROCESS.rawValue),
                &params, 1)
        }
        guard result >= 0 else { throw ProducerFailure(description: "stream connect failed: \(String(cString: strerror(-result)))") }
        connection.announce(nodeOf: stream, ready: onReady)
        try connection.run()
    }

    /// One cycle: as many frames of the tone as the graph asks for (its quantum), or fill the buffer.
    private func produce() {
        guard let stream, let pwBuffer = pw_stream_dequeue_buffer(stream) else { return }
        defer { pw_stream_queue_buffer(stream, pwBuffer) }
        guard let data = pwBuffer.pointee.buffer.pointee.datas, let base = data.pointee.data else { return }
        let channels = Int(configuration.channels), frameBytes = channels * MemoryLayout<Float>.size
        let room = Int(data.pointee.maxsize) / frameBytes
        let asked = Int(pwBuffer.pointee.requested)
        let frames = asked > 0 ? min(asked, room) : room
        let samples = base.bindMemory(to: Float.self, capacity: frames * channels)
        let step = configuration.frequency / Double(configuration.sampleRate)
        for frame in 0..<frames {
            let value = configuration.volume * Float(sin(2 * Double.pi * phase))
            for channel in 0..<channels { samples[frame * channels + channel] = value }
            phase += step
            if phase >= 1 { phase -= 1 }
        }
        data.pointee.chunk.pointee.offset = 0
        data.pointee.chunk.pointee.stride = Int32(frameBytes)
        data.pointee.chunk.pointee.size = UInt32(frames * frameBytes)
    }
}
