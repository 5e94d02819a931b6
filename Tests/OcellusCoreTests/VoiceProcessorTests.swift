import Foundation
import OcellusTestSupport
import Synchronization
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// A stand-in voice engine, named as such: the core's tests need an engine whose output is known
/// exactly (RNNoise itself is measured in OcellusVoiceTests). It halves its input and delays it by
/// `latency` samples, as a real engine's window does; `gate` holds it, as a slow machine would.
final class HalvingEngine: VoiceEngine {
    let name = "halving"
    let latency: Int
    let gate: DispatchSemaphore?
    private var history: [Float]
    private var position = 0

    init(latency: Int = 2 * VoiceFrame.length, gate: DispatchSemaphore? = nil) {
        (self.latency, self.gate) = (latency, gate)
        history = [Float](repeating: 0, count: max(1, latency))
    }

    func process(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        if let gate { gate.wait(); gate.signal() }
        for i in 0..<VoiceFrame.length {
            if latency == 0 { output[i] = input[i] * 0.5; continue }
            output[i] = history[position] * 0.5
            history[position] = input[i]
            position = (position + 1) % latency
        }
    }
}

/// A stand-in echo canceller, named as such: the core's tests need to see whether each microphone
/// frame reached it after the playback it echoes (webrtc-audio-processing itself is measured in
/// OcellusVoiceTests). It takes the echo to be the played sound itself, with no delay: each
/// captured frame less the oldest played frame not yet used, or unchanged when none was played.
final class SubtractingCanceller: EchoCanceller {
    let name = "subtracting"
    let latency = 0
    private var played: [[Float]] = []
    private(set) var capturedWithoutPlayback = 0

    func play(_ frame: UnsafePointer<Float>) { played.append(Array(UnsafeBufferPointer(start: frame, count: VoiceFrame.length))) }

    func capture(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        guard !played.isEmpty else {
            capturedWithoutPlayback += 1
            output.update(from: input, count: VoiceFrame.length)
            return
        }
        let echo = played.removeFirst()
        for i in 0..<VoiceFrame.length { output[i] = input[i] - echo[i] }
    }
}

/// Makes `HalvingEngine`s and `SubtractingCanceller`s, or fails as a missing library does.
struct StandInEngines: VoiceEngineLoading {
    var failure: OcellusError?
    var echoFailure: OcellusError? = OcellusError(.libraryUnavailable, "no stand-in canceller")
    func makeVoiceIsolationEngine() throws(OcellusError) -> any VoiceEngine {
        if let failure { throw failure }
        return HalvingEngine()
    }
    func makeEchoCanceller() throws(OcellusError) -> any EchoCanceller {
        if let echoFailure { throw echoFailure }
        return SubtractingCanceller()
    }
}

/// What a processor or an audio output delivered: samples in order and each buffer's time.
final class CollectedSound: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [Float] = []
    private var times: [(frame: Int, timestamp: UInt64)] = []
    let channels: Int
    init(channels: Int) { self.channels = channels }

    func append(_ buffer: AudioBuffer) {
        lock.withLock {
            times.append((collected.count / channels, buffer.timestampNanoseconds))
            collected += buffer.samples
        }
    }
    var samples: [Float] { lock.withLock { collected } }
    var timestamps: [(frame: Int, timestamp: UInt64)] { lock.withLock { times } }
}

/// Counts across threads.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func add(_ value: Int) { count.add(value, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// Where two sample runs first differ (nil when equal), so that a failure shows one place, not
/// two arrays of a second of sound.
func firstDifference(_ a: [Float], _ b: [Float]) -> String? {
    guard a != b else { return nil }
    guard a.count == b.count else { return "\(a.count) samples, expected \(b.count)" }
    let index = a.indices.first { a[$0] != b[$0] }!
    return "sample \(index): \(a[index]), expected \(b[index])"
}

@Suite struct VoiceProcessorTests {
    let stereo = AudioFormat(sampleRate: 48_000, channels: 2)

    /// Deterministic noise in -0.9...0.9, the same in both channels when `identicalChannels`.
    func signal(frames: Int, channels: Int, seed: UInt64 = 7, identicalChannels: Bool = false) -> [Float] {
        var state = seed
        var samples: [Float] = []
        samples.reserveCapacity(frames * channels)
        for _ in 0..<frames {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value = Float(Int64(bitPattern: state >> 11) % 1_000_000) / 1_000_000 * 0.9
            for channel in 0..<channels {
                samples.append(identicalChannels || channel == 0 ? value : -value * 0.7)
            }
        }
        return samples
    }

    /// Pushes `samples` in buffers of uneven sizes, each stamped with its first frame's time.
    func push(
        _ samples: [Float], into processor: VoiceProcessor, format: AudioFormat, start: UInt64 = 1_000_000_000,
        sizes: [Int] = [256, 1024, 77, 480, 333, 2048, 1]
    ) {
        let channels = Int(format.channels)
        var frame = 0, turn = 0
        let frames = samples.count / channels
        while frame < frames {
            let count = min(sizes[turn % sizes.count], frames - frame)
            turn += 1
            samples[(frame * channels)..<((frame + count) * channels)].withUnsafeBufferPointer { view in
                processor.push(
                    AudioBuffer(
                        format: format, samples: view,
                        timestampNanoseconds: start + UInt64(frame) * 1_000_000_000 / UInt64(format.sampleRate)))
            }
            frame += count
        }
    }

    func processor(
        _ engine: HalvingEngine, format: AudioFormat, processing: Bool, into sound: CollectedSound,
        dropped: Counter? = nil
    ) -> VoiceProcessor {
        VoiceProcessor(
            engine: engine, format: format, processing: processing,
            deliver: { sound.append($0) }, onDrop: { dropped?.add($0) })
    }

    @Test(arguments: [0, 960, 700])
    func theRawSignalComesOutBitExactEverySampleOnce(latency: Int) {
        let input = signal(frames: 40_000 + 123, channels: 2) // within the one-second queue: none dropped
        let sound = CollectedSound(channels: 2)
        let processor = processor(HalvingEngine(latency: latency), format: stereo, processing: false, into: sound)
        push(input, into: processor, format: stereo)
        processor.finish()
        #expect(sound.samples.count == input.count)
        #expect(firstDifference(sound.samples, input) == nil, "delayed through the engine's latency, but unchanged and aligned")
    }

    @Test func theProcessedSignalIsAlignedWithItsInput() {
        let input = signal(frames: 30_000, channels: 2, identicalChannels: true)
        let sound = CollectedSound(channels: 2)
        let processor = processor(HalvingEngine(), format: stereo, processing: true, into: sound)
        push(input, into: processor, format: stereo)
        processor.finish()
        #expect(sound.samples.count == input.count)
        #expect(
            firstDifference(sound.samples, input.map { $0 * 0.5 }) == nil,
            "the engine's delay is taken out: sample n is input n, processed")
    }

    @Test func switchingCrossfadesOverOneFrameWithoutAGap() {
        let format = AudioFormat(sampleRate: 48_000, channels: 1)
        let input = [Float](repeating: 0.8, count: 24_000)
        let sound = CollectedSound(channels: 1)
        let processor = processor(HalvingEngine(), format: format, processing: false, into: sound)
        push(Array(input[..<12_000]), into: processor, format: format)
        processor.setProcessing(true)
        push(Array(input[12_000...]), into: processor, format: format, start: 1_250_000_000)
        processor.finish()
        let output = sound.samples
        #expect(output.count == input.count, "no sample lost or repeated")
        #expect(output.first == 0.8 && output.last == 0.4)
        let steps = zip(output, output.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { $0 <= 0 }, "monotonic: the ramp never goes back")
        #expect(steps.map { -$0 }.max()! <= 0.4 / Float(VoiceFrame.length) * 1.01, "no jump: a ramp over a whole frame")
    }

    @Test func everyBufferCarriesTheCaptureTimeOfItsFirstSample() {
        let input = signal(frames: 20_000, channels: 2)
        let sound = CollectedSound(channels: 2)
        let processor = processor(HalvingEngine(), format: stereo, processing: true, into: sound)
        let start: UInt64 = 5_000_000_000
        push(input, into: processor, format: stereo, start: start, sizes: [441])
        processor.finish()
        for (frame, timestamp) in sound.timestamps {
            let expected = start + UInt64(frame) * 1_000_000_000 / 48_000
            #expect(abs(Int64(bitPattern: timestamp &- expected)) <= 1_000, "frame \(frame)")
        }
    }

    /// Jitter only makes a buffer's time late: a first buffer stamped 6 ms late (a loaded machine)
    /// must not shift every later time; buffers later by less than a frame keep the line.
    @Test func aLateFirstBufferDoesNotShiftTheTimesAfterIt() {
        let input = signal(frames: 20_000, channels: 2)
        let sound = CollectedSound(channels: 2)
        let processor = processor(HalvingEngine(), format: stereo, processing: true, into: sound)
        let start: UInt64 = 5_000_000_000, size = 441
        var frame = 0
        while frame < 20_000 {
            let count = min(size, 20_000 - frame)
            let lateness: UInt64 = frame == 0 ? 6_000_000 : frame % (4 * size) == 0 ? 3_000_000 : 0
            input[(frame * 2)..<((frame + count) * 2)].withUnsafeBufferPointer { view in
                processor.push(
                    AudioBuffer(
                        format: stereo, samples: view,
                        timestampNanoseconds: start + UInt64(frame) * 1_000_000_000 / 48_000 + lateness))
            }
            frame += count
        }
        processor.finish()
        let later = sound.timestamps.filter { $0.frame >= 2 * size }
        #expect(!later.isEmpty)
        for (frame, timestamp) in later {
            let expected = start + UInt64(frame) * 1_000_000_000 / 48_000
            #expect(abs(Int64(bitPattern: timestamp &- expected)) <= 1_000, "frame \(frame)")
        }
    }

    @Test func aStalledEngineDropsInputInsteadOfHoldingTheStream() throws {
        let gate = DispatchSemaphore(value: 0)
        let input = signal(frames: 3 * 48_000, channels: 2)
        let sound = CollectedSound(channels: 2)
        let dropped = Counter()
        let processor = processor(HalvingEngine(gate: gate), format: stereo, processing: true, into: sound, dropped: dropped)
        push(input, into: processor, format: stereo) // returns although the engine holds every frame
        let stalled = dropped.value
        gate.signal()
        processor.finish()
        #expect(stalled >= 48_000, "about two of three seconds do not fit the one-second queue: \(stalled)")
        #expect(sound.samples.count / 2 + dropped.value == input.count / 2, "every frame delivered or counted")
    }

    // MARK: Echo cancellation

    /// Mono: a near-end voice, and the echo of a far end that is the far end itself.
    func echoFixture(frames: Int) -> (near: [Float], far: [Float]) {
        let near = signal(frames: frames, channels: 1, seed: 3).map { $0 * 0.3 }
        return (near, signal(frames: frames, channels: 1, seed: 11).map { $0 * 0.6 })
    }

    /// `samples` as one buffer stamped `frame` frames into the stream (at 48 kHz, from one second).
    func buffer<R>(_ samples: [Float], at frame: Int, format: AudioFormat, _ body: (AudioBuffer) -> R) -> R {
        samples.withUnsafeBufferPointer {
            body(AudioBuffer(format: format, samples: $0, timestampNanoseconds: UInt64(1_000_000_000 + Int64(frame) * 1_000_000_000 / 48_000)))
        }
    }

    @Test func eachMicrophoneFrameReachesTheCancellerAfterThePlaybackItEchoes() throws {
        let format = AudioFormat(sampleRate: 48_000, channels: 1)
        let (near, far) = echoFixture(frames: 24 * 1024)
        let canceller = SubtractingCanceller()
        let sound = CollectedSound(channels: 1)
        // A wait long enough that no stall of this machine can outlast it: what is tested is that the
        // worker waits for the playback of the microphone's cycle, not how long it may.
        let processor = VoiceProcessor(
            engine: HalvingEngine(latency: 0), echo: canceller, playbackWait: 10_000_000_000,
            format: format, processing: true, deliver: { sound.append($0) }, onDrop: { _ in })
        // The reference runs (an empty buffer: it delivered before, nothing of this sound yet). Then each
        // graph cycle: the microphone's sound (near end and echo) comes first, its playback later.
        buffer([], at: 0, format: format) { processor.pushPlayed($0) }
        for cycle in 0..<24 {
            let part = (cycle * 1024)..<((cycle + 1) * 1024)
            buffer(zip(near[part], far[part]).map { $0 + $1 }, at: part.lowerBound, format: format) { processor.push($0) }
            if cycle % 4 == 0 { usleep(5_000) } // the worker is waiting by then
            buffer(Array(far[part]), at: part.lowerBound, format: format) { processor.pushPlayed($0) }
        }
        processor.finish()
        #expect(canceller.capturedWithoutPlayback == 0, "every frame had its playback, if only silence")
        let cancelled = Array(sound.samples.prefix(23 * 1024))
        let expected = near.prefix(23 * 1024).map { $0 * 0.5 }
        #expect(zip(cancelled, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "the echo removed, the near end kept")
    }

    @Test func playbackIsPairedByTimeWhateverComesEarlyLateOrNotAtAll() throws {
        let format = AudioFormat(sampleRate: 48_000, channels: 1)
        let (near, far) = echoFixture(frames: 24 * 1024)
        let sound = CollectedSound(channels: 1)
        let processor = VoiceProcessor(
            engine: HalvingEngine(latency: 0), echo: SubtractingCanceller(), playbackWait: 50_000_000,
            format: format, processing: true, deliver: { sound.append($0) }, onDrop: { _ in })
        // Playback that began a third of a second before the microphone (sound it never heard).
        buffer([Float](repeating: 0.9, count: 16_000), at: -16_000, format: format) { processor.pushPlayed($0) }
        for cycle in 0..<24 {
            let part = (cycle * 1024)..<((cycle + 1) * 1024)
            let heard = zip(near[part], far[part]).map { $0 + $1 }
            switch cycle {
            case 8:
                // The reference's thread ran late: the worker gave up on it after 50 ms and went on.
                buffer(heard, at: part.lowerBound, format: format) { processor.push($0) }
                let deadline = monotonicNanoseconds() + 10_000_000_000
                while sound.samples.count < 19 * 480 && monotonicNanoseconds() < deadline { usleep(1_000) }
                buffer(Array(far[part]), at: part.lowerBound, format: format) { processor.pushPlayed($0) }
            case 16:
                // Nothing was played for this cycle (a gap in the reference's timestamps).
                buffer(heard, at: part.lowerBound, format: format) { processor.push($0) }
            default:
                // Playback first, then its echo, in buffers of other sizes than the microphone's.
                for half in [part.prefix(300), part.dropFirst(300)] {
                    buffer(Array(far[half]), at: half.lowerBound, format: format) { processor.pushPlayed($0) }
                }
                buffer(heard, at: part.lowerBound, format: format) { processor.push($0) }
            }
        }
        processor.finish()
        let output = sound.samples
        try #require(output.count == 24 * 1024)
        // Voice frames of 480 sound: those that took in the late cycle's samples had no playback for
        // them (the echo stays); from the next frame on, the pairing is exact again.
        let unpaired = [(8 * 1024)..<(19 * 480), (16 * 1024)..<(17 * 1024)]
        for i in 0..<(23 * 1024) where !unpaired.contains(where: { $0.contains(i) }) {
            try #require(abs(output[i] - near[i] * 0.5) < 1e-6, "sample \(i): the echo removed, in time")
        }
        for range in unpaired {
            #expect(range.allSatisfy { abs(output[$0] - (near[$0] + far[$0]) * 0.5) < 1e-6 }, "\(range): no playback, the echo stays")
        }
    }

    @Test func aReferenceThatStoppedIsNotWaitedFor() throws {
        let format = AudioFormat(sampleRate: 48_000, channels: 1)
        let sound = CollectedSound(channels: 1)
        let processor = VoiceProcessor(
            engine: HalvingEngine(latency: 0), echo: SubtractingCanceller(), playbackWait: 10_000_000_000,
            format: format, processing: true, deliver: { sound.append($0) }, onDrop: { _ in })
        let silence = [Float](repeating: 0, count: 1024)
        buffer(silence, at: 0, format: format) { processor.pushPlayed($0) }
        usleep(200_000) // nothing played since: the output went quiet or away
        buffer(silence, at: 9600, format: format) { processor.push($0) }
        // Waiting for playback would take ten seconds; processing takes microseconds.
        let deadline = monotonicNanoseconds() + 3_000_000_000
        while processor.queuedFrames >= VoiceFrame.length && monotonicNanoseconds() < deadline { usleep(1_000) }
        #expect(processor.queuedFrames < VoiceFrame.length, "the microphone's frames went on without playback")
        processor.finish()
    }

    @Test func voiceIsolationCancelsTheEchoOfThePlaybackReferenceOrSaysWhyNot() throws {
        let backend = ScriptedBackend(.pipewire)
        let output = AudioDataOutput()
        let session = try runningSession(backend, engines: StandInEngines(echoFailure: nil), output: output, events: EventLog<String>())
        try session.setPreferredMicrophoneMode(.voiceIsolation)
        #expect(session.microphoneMode.echoCancellation == "subtracting" && session.microphoneMode.echoCancellationReason == "")
        try session.startRunning()
        let reference = try #require(backend.playbackReferences.first, "the reference opened beside the microphone")
        #expect(reference.device === microphone)
        try session.setPreferredMicrophoneMode(.standard)
        #expect(session.microphoneMode.echoCancellation == "none", "no echo is cancelled in the standard mode")
        try session.stopRunning()
        #expect(reference.stops == 1, "the reference closes with the stream")

        // A reference that cannot be opened: voice isolation runs, and says what it lacks.
        backend.failNextPlaybackReferences(OcellusError(.backendUnavailable, "no output"))
        try session.setPreferredMicrophoneMode(.voiceIsolation)
        try session.startRunning()
        #expect(session.microphoneMode.active == .voiceIsolation && session.microphoneMode.echoCancellation == "none")
        #expect(session.microphoneMode.echoCancellationReason == "no playback to cancel the echo of: no output")
        try session.stopRunning()
    }

    // MARK: In a session

    let camera = ScriptedCameras.webcamDevice(serial: "V")
    let microphone = ScriptedCameras.pipewireMicrophone(serial: "V")

    func runningSession(
        _ backend: ScriptedBackend, engines: StandInEngines, output: AudioDataOutput,
        events: EventLog<String>
    ) throws -> CaptureSession {
        let session = CaptureSession(opener: backend, audio: backend, voiceEngines: engines)
        _ = session.events.addObserver { event in
            if case .microphoneModeChanged(let mode) = event { events.append("\(mode.active.name) \(mode.engine)") }
        }
        try session.addInput(camera)
        try session.addOutput(VideoDataOutput())
        try session.addAudioInput(microphone)
        try session.addAudioOutput(output)
        return session
    }

    @Test func aMissingEngineLeavesTheStandardModeAndSaysWhy() throws {
        let backend = ScriptedBackend(.pipewire)
        let events = EventLog<String>()
        let output = AudioDataOutput()
        let missing = OcellusError(.libraryUnavailable, "voice isolation needs RNNoise: not found")
        let session = try runningSession(backend, engines: StandInEngines(failure: missing), output: output, events: events)
        try session.setPreferredMicrophoneMode(.voiceIsolation)
        let mode = session.microphoneMode
        #expect(mode.preferred == .voiceIsolation && mode.active == .standard && mode.engine == "none")
        #expect(mode.reason.contains("RNNoise: not found"))
        let sound = CollectedSound(channels: 2)
        output.sampleHandler = { sound.append($0) }
        try session.startRunning()
        let input = signal(frames: 4_800, channels: 2)
        try #require(backend.openedAudio.first).feed(samples: input)
        #expect(firstDifference(sound.samples, input) == nil, "standard: delivered as it came, on the stream's thread")
        try session.stopRunning()
        #expect(events.wait { $0 == ["standard none"] }, "one event: the active mode is not what was preferred")
    }

    @Test func modesSwitchMidStreamWithoutLosingASample() throws {
        let backend = ScriptedBackend(.pipewire)
        let events = EventLog<String>()
        let output = AudioDataOutput()
        let session = try runningSession(backend, engines: StandInEngines(), output: output, events: events)
        let sound = CollectedSound(channels: 2)
        output.sampleHandler = { sound.append($0) }
        try session.startRunning()
        let stream = try #require(backend.openedAudio.first)
        let input = signal(frames: 3 * 9_600, channels: 2)
        let third = input.count / 3
        stream.feed(samples: Array(input[..<third]))
        try session.setPreferredMicrophoneMode(.voiceIsolation)
        #expect(
            session.microphoneMode
                == MicrophoneModeState(
                    preferred: .voiceIsolation, active: .voiceIsolation,
                    engine: "halving", reason: "", echoCancellation: "none",
                    echoCancellationReason: "echo cancellation is unavailable: no stand-in canceller"))
        stream.feed(samples: Array(input[third..<(2 * third)]))
        try session.setPreferredMicrophoneMode(.wideSpectrum)
        stream.feed(samples: Array(input[(2 * third)...]))
        try session.stopRunning()
        let output_ = sound.samples
        #expect(output_.count == input.count, "every sample once, across both switches")
        #expect(firstDifference(Array(output_[..<third]), Array(input[..<third])) == nil, "standard: as it came")
        let settled = third - 2 * 2 * VoiceFrame.length
        #expect(
            firstDifference(Array(output_.suffix(settled)), Array(input.suffix(settled))) == nil,
            "wide spectrum: bit-exact again once the crossfade is over")
        #expect(output.droppedFrames == 0)
        #expect(events.wait { $0 == ["voice_isolation halving", "wide_spectrum none"] })
    }

    @Test func theSoundComesInTheFormatAskedForOrTheMicrophonesOwn() throws {
        let monoAt16k = AudioFormat(sampleRate: 16_000, channels: 1)
        let backend = ScriptedBackend(.pipewire)
        let session = CaptureSession(opener: backend, audio: backend, voiceEngines: StandInEngines())
        try session.addAudioInput(ScriptedCameras.pipewireMicrophone(serial: "F", sends: monoAt16k))
        try session.addAudioOutput(AudioDataOutput())
        func opened(_ run: () throws -> Void) throws -> AudioFormat {
            try run()
            try session.startRunning()
            defer { try? session.stopRunning() }
            return try #require(backend.openedAudio.last).format
        }
        #expect(try opened {} == AudioFormat(), "48 kHz stereo unless asked: what Ocellus always delivered")
        #expect(try opened { try session.setAudioFormat(sampleRate: nil, channels: nil) } == monoAt16k, "the microphone's own")
        try session.setPreferredMicrophoneMode(.voiceIsolation)
        #expect(try opened {} == AudioFormat(sampleRate: 48_000, channels: 1), "voice isolation's rate, the microphone's channels")
        #expect(session.microphoneMode.active == .voiceIsolation)
        #expect(try opened { try session.setAudioFormat(sampleRate: 16_000, channels: 2) } == AudioFormat(sampleRate: 16_000, channels: 2))
        #expect(
            session.microphoneMode.active == .standard && session.microphoneMode.reason.contains("set to 16000 Hz"),
            "a rate the engines cannot take: the standard mode, and why")
        #expect(throws: OcellusError.self) { try session.setAudioFormat(sampleRate: 100, channels: nil) }

        // Voice isolation chosen while a stream runs at the microphone's own rate: from the next start.
        try session.setPreferredMicrophoneMode(.standard)
        try session.setAudioFormat(sampleRate: nil, channels: nil)
        try session.startRunning()
        try session.setPreferredMicrophoneMode(.voiceIsolation)
        let reason = session.microphoneMode.reason
        #expect(
            session.microphoneMode.active == .standard && reason.contains("the microphone's own 16000 Hz")
                && reason.contains("next start") && !reason.contains("set to"), "\(reason)")
        try session.stopRunning()
        #expect(try opened {} == AudioFormat(sampleRate: 48_000, channels: 1))
        #expect(session.microphoneMode.active == .voiceIsolation, "the next start runs it")
    }

    @Test func theModeCannotChangeFromInsideAnAudioHandler() throws {
        let backend = ScriptedBackend(.pipewire)
        let output = AudioDataOutput()
        let session = try runningSession(backend, engines: StandInEngines(), output: output, events: EventLog<String>())
        nonisolated(unsafe) var refusal: OcellusError?
        output.sampleHandler = { _ in
            do throws(OcellusError) { try session.setPreferredMicrophoneMode(.voiceIsolation) } catch { refusal = error }
        }
        try session.startRunning()
        try #require(backend.openedAudio.first).feed(frames: 480)
        try session.stopRunning()
        #expect(refusal?.code == .wrongState)
        #expect(session.microphoneMode.preferred == .standard)
    }
}
