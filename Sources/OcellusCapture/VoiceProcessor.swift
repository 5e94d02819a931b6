#if canImport(Glibc)
import OcellusCore
import Glibc
#endif

/// behaviour §4 microphone modes: runs a microphone stream's sound through a voice engine on a
/// worker thread of its own, so that the stream's thread only copies (an engine takes ~0.4 ms
/// per 10 ms frame, PipeWire's callbacks must not wait for it).
///
/// The output is the input delayed by the engine's latency (and the echo canceller's) in every
/// mode: the raw signal passes through a delay line of that length, so switching between raw and processed is a crossfade
/// over one frame between two aligned signals — no gap, no repeat, no click. Every input sample
/// comes out once, with its own capture time: the first `latency` outputs (the engine's warm-up,
/// standing for sound from before the stream) are skipped, and `finish` flushes the tail. All
/// memory is allocated up front; a worker that falls a second behind drops input, counted.
///
/// With an echo canceller, what the machine plays (`pushPlayed`) is given to it before each
/// microphone frame, then the microphone frame goes through it ahead of the engine. The two are
/// paired by their timestamps: each microphone frame gets the playback of the same span of time
/// (silence where there was none), so the echo's delay the canceller learns stays put however
/// late either stream's thread runs. The worker waits a little for playback that has not come yet,
/// not for a reference that stopped; playback that comes after its time is dropped, never shifted.
final class VoiceProcessor: @unchecked Sendable {
    let engine: any VoiceEngine
    let echo: (any EchoCanceller)?
    /// How many samples processed sound lags the input: the canceller's and the engine's latency.
    private let latency: Int
    private let format: AudioFormat
    private let channels: Int
    private let deliver: (AudioBuffer) -> Void
    /// Told how many input frames were dropped because the worker fell behind.
    private let onDrop: (Int) -> Void

    private let lock = ConditionLock()
    // Under `lock`: interleaved input not yet taken by the worker, and when it was captured.
    private let ring: UnsafeMutableBufferPointer<Float>
    private var ringStart = 0 // in frames
    private var ringCount = 0
    private var received = 0 // input frames ever accepted
    private var anchors: Anchors
    private var finishing = false
    /// Whether the engine's output is wanted (else the delayed raw signal): `before` for input
    /// frames before `switchIndex`, `after` from there on — a switch applies to the sound that
    /// comes after it, wherever the worker is.
    private var processing: (before: Bool, after: Bool, switchIndex: Int)
    private var thread: pthread_t?
    // Under `lock`: what was played, mono, not yet given to the echo canceller, up to sample
    // `playedEnd` of the timeline (`Timeline`); when the last playback and the last microphone
    // sound arrived (monotonic ns; 0: never).
    private let played: UnsafeMutableBufferPointer<Float>
    private var playedStart = 0
    private var playedCount = 0
    private var playedEnd: Int64 = 0
    private var playedArrival: UInt64 = 0
    private var heardArrival: UInt64 = 0
    private let timeline: Timeline

    // The worker's own, preallocated per-frame buffers.
    private let frame: UnsafeMutableBufferPointer<Float> // interleaved input frame
    private let mono: UnsafeMutableBufferPointer<Float>
    private let processed: UnsafeMutableBufferPointer<Float>
    private let cancelled: UnsafeMutableBufferPointer<Float> // the microphone frame less the echo
    private let playedFrames: UnsafeMutableBufferPointer<Float> // playback taken for the canceller
    private let delay: UnsafeMutableBufferPointer<Float> // interleaved raw, `latency` frames
    private var delayPosition = 0
    private let output: UnsafeMutableBufferPointer<Float>
    private var weight: Float
    private var skip: Int

    /// How long (ns) the worker waits for the playback of the microphone's latest cycle.
    private let playbackWait: UInt64

    init(
        engine: any VoiceEngine, echo: (any EchoCanceller)? = nil, playbackWait: UInt64 = 30_000_000, format: AudioFormat,
        processing: Bool, deliver: @escaping (AudioBuffer) -> Void, onDrop: @escaping (Int) -> Void
    ) {
        precondition(format.sampleRate == VoiceFrame.sampleRate, "voice engines take \(VoiceFrame.sampleRate) Hz")
        self.engine = engine
        self.echo = echo
        self.playbackWait = playbackWait
        latency = engine.latency + (echo?.latency ?? 0)
        self.format = format
        channels = Int(max(1, format.channels))
        self.deliver = deliver
        self.onDrop = onDrop
        self.processing = (processing, processing, 0)
        weight = processing ? 1 : 0
        skip = latency
        let length = VoiceFrame.length
        ring = .allocate(capacity: Int(format.sampleRate) * channels) // one second
        frame = .allocate(capacity: length * channels)
        mono = .allocate(capacity: length)
        processed = .allocate(capacity: length)
        cancelled = .allocate(capacity: length)
        let second = Int(format.sampleRate)
        played = .allocate(capacity: echo == nil ? 1 : second)
        playedFrames = .allocate(capacity: length)
        delay = .allocate(capacity: max(1, latency) * channels)
        delay.initialize(repeating: 0)
        output = .allocate(capacity: length * channels)
        anchors = Anchors(capacity: 256)
        timeline = Timeline(rate: format.sampleRate)
        thread = startThread { [unowned(unsafe) self] in self.run() }
    }

    deinit {
        finish()
        for buffer in [ring, frame, mono, processed, cancelled, played, playedFrames, delay, output] { buffer.deallocate() }
        anchors.deallocate()
    }

    /// Switches between the engine's output and the raw signal for the sound pushed from now on
    /// (from the first frame that starts after it, crossfading over that frame).
    func setProcessing(_ on: Bool) {
        lock.withLock { processing = (processing.after, on, received) }
    }

    /// Input frames waiting for the worker.
    var queuedFrames: Int { lock.withLock { ringCount } }

    /// On the stream's thread: takes a copy of `buffer` for the worker.
    func push(_ buffer: AudioBuffer) {
        let frames = buffer.frameCount
        let dropped: Int = lock.withLock {
            let capacity = ring.count / channels
            guard !finishing, ringCount + frames <= capacity else { return frames }
            var written = 0
            while written < frames {
                let position = (ringStart + ringCount) % capacity
                let run = min(frames - written, capacity - position)
                let source = buffer.samples.baseAddress! + written * channels
                (ring.baseAddress! + position * channels).update(from: source, count: run * channels)
                written += run
                ringCount += run
            }
            if timeline.moves(from: anchors.timestamp(at: received, rate: format.sampleRate), to: buffer.timestampNanoseconds) {
                anchors.append(index: received, timestamp: buffer.timestampNanoseconds)
            }
            received += frames
            heardArrival = monotonicNanoseconds()
            lock.broadcast()
            return 0
        }
        if dropped > 0 { onDrop(dropped) }
    }

    /// On the playback reference's thread: what the machine played, for the echo canceller. A
    /// reference a second ahead of the microphone forgets its oldest sound; a gap in its
    /// timestamps is silence (nothing played), a step back starts it afresh.
    func pushPlayed(_ buffer: AudioBuffer) {
        guard echo != nil else { return }
        let channels = Int(max(1, buffer.format.channels))
        let scale = 1 / Float(channels)
        lock.withLock {
            let capacity = played.count
            let position = timeline.position(of: buffer.timestampNanoseconds)
            func append(_ sample: Float) {
                if playedCount == capacity { playedStart = (playedStart + 1) % capacity; playedCount -= 1 }
                played[(playedStart + playedCount) % capacity] = sample
                playedCount += 1
                playedEnd += 1
            }
            if playedArrival == 0 || abs(position - playedEnd) > Timeline.tolerance {
                if playedArrival != 0 && position > playedEnd && position - playedEnd < Int64(capacity) {
                    while playedEnd < position { append(0) }
                } else {
                    (playedStart, playedCount, playedEnd) = (0, 0, position)
                }
            }
            for i in 0..<buffer.frameCount {
                var sum: Float = 0
                for c in 0..<channels { sum += buffer.samples[i * channels + c] }
                append(sum * scale)
            }
            playedArrival = monotonicNanoseconds()
            lock.broadcast()
        }
    }

    /// After how long without playback the reference counts as stopped (nothing plays, or no output).
    private static let playbackStopped: UInt64 = 100_000_000

    /// Under `lock`: waits until the playback reference covers the microphone frame that starts at
    /// `heardAt` (or stopped, or the wait ran out), then puts that span of it into `playedFrames`,
    /// silence where none was played, and forgets what came before.
    private func takePlayed(heardAt: UInt64?) {
        let length = VoiceFrame.length
        guard let heardAt else {
            playedFrames.update(repeating: 0)
            return
        }
        let start = timeline.position(of: heardAt), end = start + Int64(length)
        let deadline = heardArrival + playbackWait
        while !finishing && playedArrival != 0 && playedEnd < end && playedArrival + Self.playbackStopped > heardArrival
            && monotonicNanoseconds() < deadline
        {
            lock.wait(untilMonotonicNanoseconds: deadline)
        }
        let first = playedEnd - Int64(playedCount)
        for i in 0..<length {
            let position = start + Int64(i)
            playedFrames[i] =
                position >= first && position < playedEnd
                ? played[(playedStart + Int(position - first)) % played.count] : 0
        }
        let done = Int(min(max(0, end - first), Int64(playedCount)))
        playedStart = (playedStart + done) % played.count
        playedCount -= done
    }

    /// Processes and delivers what was pushed, flushes the delay line and joins the worker.
    /// Call after the stream stopped pushing; idempotent.
    func finish() {
        let worker: pthread_t? = lock.withLock {
            finishing = true
            lock.broadcast()
            defer { thread = nil }
            return thread
        }
        if let worker { pthread_join(worker, nil) }
    }

    private func run() {
        let length = VoiceFrame.length
        var consumed = 0 // input frames the worker took
        var produced = 0 // output positions processed, the skipped warm-up included
        while true {
            let (taken, timestamp, finished, total, wanted): (Int, UInt64?, Bool, Int, Bool) = lock.withLock {
                while ringCount < length && !finishing { lock.wait() }
                let taken = min(length, ringCount)
                let capacity = ring.count / channels
                var copied = 0
                while copied < taken {
                    let run = min(taken - copied, capacity - ringStart)
                    (frame.baseAddress! + copied * channels).update(from: ring.baseAddress! + ringStart * channels, count: run * channels)
                    ringStart = (ringStart + run) % capacity
                    ringCount -= run
                    copied += run
                }
                let timestamp = taken > 0 ? anchors.timestamp(of: consumed, rate: format.sampleRate) : nil
                if echo != nil { takePlayed(heardAt: timestamp) }
                let wanted = consumed >= processing.switchIndex ? processing.after : processing.before
                return (taken, timestamp, finishing, received, wanted)
            }
            // One frame of playback per microphone frame, the canceller's steady pace.
            echo?.play(playedFrames.baseAddress!)
            // Finishing: a last partial frame padded with silence, then silence until the
            // delay line gave out the last input sample.
            if taken < length {
                (frame.baseAddress! + taken * channels).update(repeating: 0, count: (length - taken) * channels)
            }
            let count = finished ? min(length, total + latency - produced) : length
            guard count > 0 else { return }
            consumed += taken
            produced += length
            process(count: count, processing: wanted, inputTimestamp: timestamp)
        }
    }

    private var lastTimestamp: UInt64 = 0

    /// One frame in `frame`: the engine, the delay line, the crossfade, then `count` frames out.
    private func process(count: Int, processing: Bool, inputTimestamp: UInt64?) {
        let length = VoiceFrame.length
        let scale = 1 / Float(channels)
        for i in 0..<length {
            var sum: Float = 0
            for c in 0..<channels { sum += frame[i * channels + c] }
            mono[i] = sum * scale
        }
        if let echo {
            echo.capture(mono.baseAddress!, into: cancelled.baseAddress!)
            engine.process(cancelled.baseAddress!, into: processed.baseAddress!)
        } else {
            engine.process(mono.baseAddress!, into: processed.baseAddress!)
        }
        // Delayed raw into `output`, this frame's raw into the delay line.
        for i in 0..<length {
            for c in 0..<channels {
                let sample = frame[i * channels + c]
                if latency == 0 {
                    output[i * channels + c] = sample
                } else {
                    output[i * channels + c] = delay[delayPosition * channels + c]
                    delay[delayPosition * channels + c] = sample
                }
            }
            if latency > 0 { delayPosition = (delayPosition + 1) % latency }
        }
        let target: Float = processing ? 1 : 0
        let start = weight
        if start != 0 || target != 0 {
            // Raw stays bit-exact at weight 0: mixing only while the engine's output is wanted.
            for i in 0..<length {
                let w = start + (target - start) * Float(i + 1) / Float(length)
                for c in 0..<channels {
                    output[i * channels + c] = w * processed[i] + (1 - w) * output[i * channels + c]
                }
            }
        }
        weight = target
        // Capture time of the delayed sample, from this frame's input time (or, flushing, the last one).
        let frameNanoseconds = UInt64(length) * 1_000_000_000 / UInt64(format.sampleRate)
        let inputTime = inputTimestamp ?? (lastTimestamp + frameNanoseconds)
        lastTimestamp = inputTime
        let delayNanoseconds = UInt64(latency) * 1_000_000_000 / UInt64(format.sampleRate)
        let skipped = min(skip, count)
        skip -= skipped
        guard count > skipped else { return }
        let offsetNanoseconds = UInt64(skipped) * 1_000_000_000 / UInt64(format.sampleRate)
        let timestamp = inputTime &+ offsetNanoseconds &- delayNanoseconds
        let view = UnsafeBufferPointer(start: output.baseAddress! + skipped * channels, count: (count - skipped) * channels)
        deliver(AudioBuffer(format: format, samples: view, timestampNanoseconds: timestamp))
    }
}

/// Where pushes began (input frame index) and when they were captured: a fixed ring, so the
/// worker can give each frame the capture time of its own samples.
private struct Anchors {
    private let indices: UnsafeMutableBufferPointer<Int>
    private let timestamps: UnsafeMutableBufferPointer<UInt64>
    private var start = 0
    private var count = 0

    init(capacity: Int) {
        indices = .allocate(capacity: capacity)
        timestamps = .allocate(capacity: capacity)
    }

    func deallocate() {
        indices.deallocate()
        timestamps.deallocate()
    }

    /// A full ring forgets its oldest anchor (times then come from an older push, by the rate).
    mutating func append(index: Int, timestamp: UInt64) {
        if count == indices.count { start = (start + 1) % indices.count; count -= 1 }
        let slot = (start + count) % indices.count
        (indices[slot], timestamps[slot]) = (index, timestamp)
        count += 1
    }

    /// The capture time of input frame `index` by the latest anchor (nil before any), dropping none.
    func timestamp(at index: Int, rate: UInt32) -> UInt64? {
        guard count > 0 else { return nil }
        let last = (start + count - 1) % indices.count
        return timestamps[last] &+ UInt64(max(0, index - indices[last])) * 1_000_000_000 / UInt64(rate)
    }

    /// The capture time of input frame `index`, dropping anchors before the push holding it.
    mutating func timestamp(of index: Int, rate: UInt32) -> UInt64? {
        while count > 1 && indices[(start + 1) % indices.count] <= index {
            start = (start + 1) % indices.count
            count -= 1
        }
        guard count > 0 else { return nil }
        let offset = max(0, index - indices[start])
        return timestamps[start] &+ UInt64(offset) * 1_000_000_000 / UInt64(rate)
    }
}

/// Sample positions on CLOCK_MONOTONIC at the stream's rate, where playback and microphone sound
/// are paired. A stream's buffers follow one another on it; timestamps that stray from that by
/// more than `tolerance` (a gap, a jump) move it, later ones by less (a thread's jitter) do not.
/// An earlier one moves it back: jitter only makes a time late, so the earliest is the truest
/// (a first buffer stamped late under load would otherwise shift every later time by as much).
private struct Timeline {
    let rate: UInt32
    /// Ten milliseconds of samples at 48 kHz: one voice frame.
    static let tolerance = Int64(VoiceFrame.length)

    /// The sample nearest `nanoseconds` (times are whole nanoseconds, samples are not: a time
    /// computed from a sample count rounds back to it), without overflow for centuries of uptime.
    func position(of nanoseconds: UInt64) -> Int64 {
        let second: UInt64 = 1_000_000_000
        return Int64(nanoseconds / second * UInt64(rate) + (nanoseconds % second * UInt64(rate) + second / 2) / second)
    }

    /// Whether a push stamped `actual` moves the line the stream's sound so far puts it on
    /// (at `expected`): it jumps, or it comes earlier.
    func moves(from expected: UInt64?, to actual: UInt64) -> Bool {
        guard let expected else { return true }
        let drift = position(of: actual) - position(of: expected)
        return drift < 0 || drift > Self.tolerance
    }
}
