import OcellusCore

/// The voice engines of this system, each library loaded the first time a mode needs it and
/// kept (a failed load is tried again next time: the app may have installed it or set the path).
public final class SystemVoiceEngines: VoiceEngineLoading, @unchecked Sendable {
    public static let shared = SystemVoiceEngines()
    private let lock = ConditionLock()
    private var rnnoise: RNNoise.Library?

    public func makeVoiceIsolationEngine() throws(OcellusError) -> any VoiceEngine {
        let library = try lock.withLock { () throws(OcellusError) -> RNNoise.Library in
            if let rnnoise { return rnnoise }
            let loaded = try RNNoise.Library.load()
            rnnoise = loaded
            return loaded
        }
        return try RNNoise(library: library)
    }
}
