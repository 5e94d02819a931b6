import OcellusCore
import Synchronization

/// behaviour §4 audio data output: PCM from the session's microphone input, on the audio
/// stream's thread, as views valid during the call.
public final class AudioDataOutput: @unchecked Sendable {
    /// Replacing it waits for a call in flight, except from inside the handler (`HandlerSlot`).
    public var sampleHandler: ((AudioBuffer) -> Void)? {
        get { handler.current }
        set { handler.replace(with: newValue) }
    }

    /// True on the thread running this output's handler.
    public var isDeliveringThread: Bool { handler.isCallingThread }

    private let handler = HandlerSlot<AudioBuffer>()
    private let delivered = Atomic<UInt64>(0)
    private let dropped = Atomic<UInt64>(0)

    public init() {}

    /// PCM frames delivered so far.
    public var deliveredFrames: UInt64 { delivered.load(ordering: .relaxed) }
    /// PCM frames the microphone sent that never reached this output (a voice engine fell behind).
    public var droppedFrames: UInt64 { dropped.load(ordering: .relaxed) }

    func noteDropped(_ frames: Int) { dropped.wrappingAdd(UInt64(frames), ordering: .relaxed) }

    func deliver(_ buffer: AudioBuffer) {
        handler.call(buffer)
        delivered.wrappingAdd(UInt64(buffer.frameCount), ordering: .relaxed)
    }
}
