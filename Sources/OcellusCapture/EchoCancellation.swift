import OcellusCore

/// behaviour §4 echo cancellation: removes from a microphone's sound the echo of what the
/// machine itself plays (a call's far end), given what was played as a reference. 10 ms frames
/// of 48 kHz mono (`VoiceFrame`), samples in -1...1; used by one thread at a time.
public protocol EchoCanceller: AnyObject {
    /// The canceller's name in `MicrophoneModeState.echoCancellation` ("webrtc").
    var name: String { get }
    /// How many samples the output lags the microphone.
    var latency: Int { get }
    /// One frame of what was played, before the microphone frames that may hold its echo.
    func play(_ frame: UnsafePointer<Float>)
    /// One microphone frame with the echo of what was played removed; `output` may be `input`.
    func capture(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>)
}

extension VoiceEngineLoading {
    /// Engines without an echo canceller say so.
    public func makeEchoCanceller() throws(OcellusError) -> any EchoCanceller {
        throw OcellusError(.libraryUnavailable, "these voice engines have no echo canceller")
    }
}
