import CLibPipeWire
import CPipeWire
import OcellusCore
#if canImport(Glibc)
import Glibc
#endif

/// PCM from a PipeWire source (a microphone), as interleaved 32-bit floats at the
/// rate and channel count asked for: the stream's adapter converts whatever the
/// microphone sends. Timestamps are CLOCK_MONOTONIC, from the buffer's header when
/// the source sets one, else the time the buffer arrived less its length.
public final class PipeWireAudioStream: AudioStream, @unchecked Sendable {
    public let format: AudioFormat
    private var capture: PipeWireCapture?

    public init(remote: PipeWireRemote, objectSerial: String, format: AudioFormat, timeoutMilliseconds: UInt32 = 3000,
                application: PipeWireApplication? = nil, deviceName: String? = nil,
                handler: @escaping (AudioStreamEvent) -> Void) throws(OcellusError) {
        self.format = format
        let media = PipeWireCaptureMedia(
            properties: ["media.type": "Audio", "media.category": "Capture", "media.role": "Communication"],
            device: "microphone",
            description: "\(format.channels)-channel float PCM at \(format.sampleRate) Hz",
            buildFormat: { buffer, size in ocpw_build_audio_format(buffer, size, format.sampleRate, format.channels) },
            process: { buffer in PipeWireAudioStream.deliver(buffer, format: format, to: handler) },
            failed: { handler(.failed($0)) })
        capture = try PipeWireCapture(remote: remote, objectSerial: objectSerial, timeoutMilliseconds: timeoutMilliseconds, media: media,
                                      application: application, deviceName: deviceName)
    }

    deinit { stop() }

    public func stop() { capture?.stop() }

    private static func deliver(_ buffer: UnsafeMutablePointer<spa_buffer>, format: AudioFormat,
                                to handler: (AudioStreamEvent) -> Void) {
        guard let data = buffer.pointee.datas, let base = data.pointee.data, let chunk = data.pointee.chunk else { return }
        let offset = Int(chunk.pointee.offset), size = Int(chunk.pointee.size)
        guard size > 0, offset + size <= Int(data.pointee.maxsize) else { return }
        let count = size / MemoryLayout<Float>.size
        let samples = UnsafeBufferPointer(start: (base + offset).assumingMemoryBound(to: Float.self), count: count)
        let frames = UInt64(count) / UInt64(max(1, format.channels))
        let length = frames * 1_000_000_000 / UInt64(max(1, format.sampleRate))
        let header = ocpw_buffer_find_header(buffer)
        let timestamp = header.flatMap { $0.pointee.pts > 0 ? UInt64($0.pointee.pts) : nil } ?? monotonicNanoseconds() &- length
        handler(.samples(AudioBuffer(format: format, samples: samples, timestampNanoseconds: timestamp)))
    }
}
