import Synchronization

/// PCM as Ocellus delivers it: interleaved 32-bit float samples.
public struct AudioFormat: Sendable, Equatable {
    public var sampleRate: UInt32
    public var channels: UInt32
    public init(sampleRate: UInt32 = 48_000, channels: UInt32 = 2) {
        (self.sampleRate, self.channels) = (sampleRate, channels)
    }
    public var bytesPerFrame: Int { Int(channels) * MemoryLayout<Float>.size }
}

/// A run of PCM frames, a view valid during the handler call.
public struct AudioBuffer: Sendable {
    public let format: AudioFormat
    /// Interleaved samples, `frameCount * format.channels` floats.
    public let samples: UnsafeBufferPointer<Float>
    public var frameCount: Int { samples.count / Int(max(1, format.channels)) }
    /// CLOCK_MONOTONIC nanoseconds of the first frame.
    public let timestampNanoseconds: UInt64
    public init(format: AudioFormat, samples: UnsafeBufferPointer<Float>, timestampNanoseconds: UInt64) {
        (self.format, self.samples, self.timestampNanoseconds) = (format, samples, timestampNanoseconds)
    }
}

public enum AudioStreamEvent {
    case samples(AudioBuffer)
    /// The stream ended on its own (microphone gone, daemon gone).
    case failed(OcellusError)
}

/// A running microphone stream; `stop()` returns after the handler's last call.
public protocol AudioStream: AnyObject, Sendable {
    var format: AudioFormat { get }
    func stop()
}

/// Opens microphone streams (PipeWire only: raw V4L2 has no audio).
public protocol AudioStreamOpening: Sendable {
    func openAudioStream(
        for device: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream
    /// Opens what the machine plays (the default output's monitor, following the default),
    /// through the backend of `microphone`: the reference echo cancellation removes. Returns
    /// once connected; sound flows whenever something is played.
    func openPlaybackReference(
        beside microphone: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream
}
