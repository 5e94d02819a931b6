import OcellusCore

/// behaviour §4 microphone modes, as AVFoundation's `AVCaptureDevice.MicrophoneMode`: what a
/// session does to its microphone's sound before its audio outputs and recordings get it.
public enum MicrophoneMode: Int32, Sendable, CaseIterable {
    /// What Ocellus has always delivered: the microphone's signal as PipeWire gives it.
    case standard = 0
    /// The untouched signal, bit-exact.
    case wideSpectrum = 1
    /// What is not speech (typing, clicks, fans, traffic) suppressed, the voice kept.
    case voiceIsolation = 2

    /// The name every output uses ("standard", "wide_spectrum", "voice_isolation").
    public var name: String {
        switch self {
        case .standard: "standard"
        case .wideSpectrum: "wide_spectrum"
        case .voiceIsolation: "voice_isolation"
        }
    }

    /// Whether an engine changes the sound in this mode.
    var processes: Bool { self == .voiceIsolation }
}

/// A session's microphone mode: what the app prefers, what really runs and why they differ.
public struct MicrophoneModeState: Sendable, Equatable {
    public var preferred: MicrophoneMode
    public var active: MicrophoneMode
    /// The engine doing the active mode ("rnnoise"), "none" when nothing processes.
    public var engine: String
    /// Why `active` is not `preferred` ("" when it is): the engine that is missing and where it was looked for.
    public var reason: String
    /// The echo canceller running in the active mode ("webrtc"), "none" when no echo is cancelled.
    public var echoCancellation: String
    /// Why voice isolation runs without echo cancellation ("" otherwise): the canceller that is missing.
    public var echoCancellationReason: String

    public init(
        preferred: MicrophoneMode, active: MicrophoneMode, engine: String, reason: String,
        echoCancellation: String = "none", echoCancellationReason: String = ""
    ) {
        (self.preferred, self.active, self.engine, self.reason) = (preferred, active, engine, reason)
        (self.echoCancellation, self.echoCancellationReason) = (echoCancellation, echoCancellationReason)
    }

    public static let standard = MicrophoneModeState(preferred: .standard, active: .standard, engine: "none", reason: "")
}

/// A speech enhancer: 10 ms frames of 48 kHz mono, samples in -1...1.
public protocol VoiceEngine: AnyObject {
    /// The engine's name in `MicrophoneModeState.engine`.
    var name: String { get }
    /// How many samples the output lags the input (its window and look-ahead).
    var latency: Int { get }
    /// Processes one frame of `VoiceFrame.length` samples; `input` and `output` may not overlap.
    func process(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>)
}

/// The frames voice engines take.
public enum VoiceFrame {
    public static let sampleRate: UInt32 = 48_000
    public static let length = 480
}

/// Makes the engines microphone modes need, loading their libraries on first use.
public protocol VoiceEngineLoading: Sendable {
    /// A new voice isolation engine; `.libraryUnavailable` saying what is missing and where it was looked for.
    func makeVoiceIsolationEngine() throws(OcellusError) -> any VoiceEngine
    /// A new echo canceller for voice isolation; `.libraryUnavailable` saying what is missing.
    func makeEchoCanceller() throws(OcellusError) -> any EchoCanceller
}
