import OcellusCore

/// A session's companions (`SessionCompanion`) and what they feed from the stream running: an
/// output each at most, the stream start those belong to, and Center Stage's window on it. Its
/// lock is its own, taken inside the session's (never the other way round): the stream thread
/// reads the outputs under the session's lock once per commit.
final class SessionCompanions: Sendable {
    private struct State {
        var companions: [any SessionCompanion] = []
        /// By companion; nil where a companion has nothing to do with this stream.
        var outputs: [VideoDataOutput?] = []
        /// Which stream start the outputs belong to: a late `setOutput` of an earlier one is ignored.
        var generation: UInt64 = 0
        var framing = FramingWindow()
    }

    private let state = Locked(State())
    /// Told when an output went in or out, so that the stream thread re-reads its feed.
    private let outputsChanged: @Sendable () -> Void

    init(outputsChanged: @escaping @Sendable () -> Void) {
        self.outputsChanged = outputsChanged
    }

    func add(_ companion: any SessionCompanion) {
        state.withLock { $0.companions.append(companion) }
    }

    /// The outputs fed beside the app's while the stream runs.
    var outputs: [VideoDataOutput] { state.withLock { $0.outputs.compactMap { $0 } } }
    var hasOutputs: Bool { state.withLock { $0.outputs.contains { $0 != nil } } }
    /// Center Stage's window on the stream running (or the next to start).
    var framing: FramingWindow { state.withLock { $0.framing } }

    /// Tells the companions a stream starts, with a new framing window, and takes the outputs
    /// they feed from it now; each may put its output in or out while the stream runs.
    func streamWillStart(camera: Device, format: VideoFormat, rate: FrameRate) {
        let interval = rate.interval
        let (companions, generation, framing) = state.withLock { state in
            state.generation &+= 1
            state.framing = FramingWindow()
            state.outputs = Array(repeating: nil, count: state.companions.count)
            return (state.companions, state.generation, state.framing)
        }
        for (index, companion) in companions.enumerated() {
            let stream = CompanionStream(camera: camera, format: format, framing: framing) { [weak self] output in
                self?.setOutput(output, at: index, generation: generation, frameInterval: interval)
            }
            setOutput(companion.cameraStreamWillStart(stream), at: index, generation: generation, frameInterval: interval)
        }
    }

    /// Tells the companions their stream is over (after its last frame) and forgets their outputs.
    func streamStopped() {
        let (companions, outputs) = state.withLock { state in
            defer { state.outputs = []; state.generation &+= 1 }
            return (state.companions, state.outputs.compactMap { $0 })
        }
        for output in outputs { output.waitForDelivery() }
        for companion in companions { companion.cameraStreamStopped() }
    }

    private func setOutput(_ output: VideoDataOutput?, at index: Int, generation: UInt64, frameInterval: UInt64) {
        output?.frameInterval = frameInterval
        let changed = state.withLock { state in
            guard generation == state.generation, state.outputs.indices.contains(index), state.outputs[index] !== output else { return false }
            state.outputs[index] = output
            return true
        }
        if changed { outputsChanged() }
    }
}
