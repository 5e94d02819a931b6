import OcellusCapture
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The voice engines of this system, each library loaded the first time a mode needs it and
/// kept (a failed load is tried again next time: the app may have installed it or set the path).
/// Voice isolation runs RNNoise, or DeepFilterNet where `OCELLUS_VOICE_ISOLATION_ENGINE=deepfilternet`,
/// after webrtc-audio-processing's echo canceller.
public final class SystemVoiceEngines: VoiceEngineLoading, @unchecked Sendable {
    public static let shared = SystemVoiceEngines()
    private let lock = ConditionLock()
    private var rnnoise: RNNoise.Library?
    private var deepFilterNet: DeepFilterNet.Library?
    private var webRTC: WebRTCEchoCanceller.Library?

    /// The engine `OCELLUS_VOICE_ISOLATION_ENGINE` names ("rnnoise", the default, or "deepfilternet").
    static var chosenEngine: String { getenv("OCELLUS_VOICE_ISOLATION_ENGINE").map { String(cString: $0) } ?? "rnnoise" }

    public func makeVoiceIsolationEngine() throws(OcellusError) -> any VoiceEngine {
        switch Self.chosenEngine {
        case "", "rnnoise":
            return try RNNoise(library: loaded(\.rnnoise) { () throws(OcellusError) in try RNNoise.Library.load() })
        case "deepfilternet":
            return try DeepFilterNet(library: loaded(\.deepFilterNet) { () throws(OcellusError) in try DeepFilterNet.Library.load() })
        case let other:
            throw OcellusError(.invalidArgument, "OCELLUS_VOICE_ISOLATION_ENGINE=\(other) is not an engine (rnnoise, deepfilternet)")
        }
    }

    public func makeEchoCanceller() throws(OcellusError) -> any EchoCanceller {
        try WebRTCEchoCanceller(library: loaded(\.webRTC) { () throws(OcellusError) in try WebRTCEchoCanceller.Library.load() })
    }

    private func loaded<Library>(
        _ slot: ReferenceWritableKeyPath<SystemVoiceEngines, Library?>,
        _ load: () throws(OcellusError) -> Library
    ) throws(OcellusError) -> Library {
        try lock.withLock { () throws(OcellusError) -> Library in
            if let library = self[keyPath: slot] { return library }
            let library = try load()
            self[keyPath: slot] = library
            return library
        }
    }
}
