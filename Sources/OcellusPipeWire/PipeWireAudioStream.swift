import CLibPipeWire
import CPipeWire
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// PCM from a PipeWire source (a microphone), as interleaved 32-bit floats at the
/// rate and channel count asked for: the stream's adapter converts whatever the
/// microphone sends. Timestamps are CLOCK_MONOTONIC: when the buffer's graph cycle began
/// less its length (the same for every stream of a cycle however late a thread runs, so
/// the playback reference and the microphone line up), else when it arrived less its length.
public final class PipeWireAudioStream: AudioStream, @unchecked Sendable {
    public let format: AudioFormat
    private var capture: PipeWireCapture?

    /// A microphone: the source whose node has `objectSerial`.
    public convenience init(
        remote: PipeWireRemote, objectSerial: String, format: AudioFormat, timeoutMilliseconds: UInt32 = 3000,
        application: PipeWireApplication? = nil, deviceName: String? = nil,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) {
        try self.init(
            remote: remote, target: objectSerial, properties: [:], device: "microphone", format: format,
            timeoutMilliseconds: timeoutMilliseconds, application: application, deviceName: deviceName, handler: handler)
    }

    /// What the machine plays: the default output's monitor (`stream.capture.sink`), following the
    /// default as the session manager moves it. Ready once connected: nothing may be playing.
    public static func playbackReference(
        remote: PipeWireRemote, format: AudioFormat, application: PipeWireApplication? = nil,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> PipeWireAudioStream {
        try PipeWireAudioStream(
            remote: remote, target: nil, properties: ["stream.capture.sink": "true"], device: "playback reference",
            format: format, timeoutMilliseconds: 3000, application: application, deviceName: "playback reference",
            handler: handler)
    }

    private init(
        remote: PipeWireRemote, target: String?, properties: [String: String], device: String, format: AudioFormat,
        timeoutMilliseconds: UInt32, application: PipeWireApplication?, deviceName: String?,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) {
        self.format = format
        var media = PipeWireCaptureMedia(
            properties: ["media.type": "Audio", "media.category": "Capture", "media.role": "Communication"].merging(properties) { _, own in own },
            device: device,
            description: "\(format.channels)-channel float PCM at \(format.sampleRate) Hz",
            buildFormat: { buffer, size in ocpw_build_audio_format(buffer, size, format.sampleRate, format.channels) },
            process: { buffer, cycle in PipeWireAudioStream.deliver(buffer, cycle: cycle, format: format, to: handler) },
            failed: { handler(.failed($0)) })
        media.readyWhenConnected = target == nil
        media.wantsCycleTime = true
        capture = try PipeWireCapture(
            remote: remote, objectSerial: target, timeoutMilliseconds: timeoutMilliseconds, media: media,
            application: application, deviceName: deviceName)
    }

    deinit { stop() }

    public func stop() { capture?.stop() }

    private static func deliver(
        _ buffer: UnsafeMutablePointer<spa_buffer>, cycle: UInt64?, format: AudioFormat,
        to handler: (AudioStreamEvent) -> Void
    ) {
        guard let data = buffer.pointee.datas, let base = data.pointee.data, let chunk = data.pointee.chunk else { return }
        let offset = Int(chunk.pointee.offset), size = Int(chunk.pointee.size)
        guard size > 0, offset + size <= Int(data.pointee.maxsize) else { return }
        let count = size / MemoryLayout<Float>.size
        let samples = UnsafeBufferPointer(start: (base + offset).assumingMemoryBound(to: Float.self), count: count)
        let frames = UInt64(count) / UInt64(max(1, format.channels))
        let length = frames * 1_000_000_000 / UInt64(max(1, format.sampleRate))
        let timestamp = (cycle ?? monotonicNanoseconds()) &- length
        handler(.samples(AudioBuffer(format: format, samples: samples, timestampNanoseconds: timestamp)))
    }
}
