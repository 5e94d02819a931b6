import OcellusCapture
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// What a finished recording holds. The file is playable whenever a summary exists,
/// also when the recording ended with an error (up to that point).
public struct RecordingSummary: Sendable {
    public let path: String
    public let bytes: Int64
    public let width: UInt32
    public let height: UInt32
    /// Seconds of video.
    public let duration: Double
    public let frames: Int
    /// Frames the writer could not keep up with (its queue was full).
    public let droppedFrames: Int
    /// The capture angle written into the track's display matrix.
    public let rotation: Int
    /// "mjpeg" (the camera's own), "libx264" or "mpeg4".
    public let videoCodec: String
    /// Seconds of AAC sound from the session's microphone (0: no audio track).
    public let audioDuration: Double
    /// Sound frames left out: the writer fell two seconds behind, or the microphone's format
    /// changed from the track's (the track carries silence for them).
    public let droppedAudioFrames: Int
}

public struct RecordingResult: Sendable {
    public let summary: RecordingSummary
    /// Why the recording ended early (camera unplugged, disk full, …); nil when stopped as asked.
    public let error: OcellusError?
}

/// behaviour §4 movie file output: records the session's camera into an MP4 or MOV file
/// written by `MovieWriter` on a thread of its own. The stream thread only copies
/// each frame into one of a few reused buffers; when the writer falls behind and
/// all are taken, frames are dropped and counted, never queued without bound.
/// Video data outputs keep their frames while recording.
public final class MovieFileOutput: @unchecked Sendable {
    public typealias Completion = @Sendable (RecordingResult) -> Void

    /// What the session streams into: the camera's own format, so MJPEG is recorded as it came —
    /// unless Center Stage frames the stream as a recording starts: it is then decoded, cut to
    /// the window and encoded again, so that the movie follows the window as the other outputs do.
    public let videoOutput = VideoDataOutput()
    /// The session's microphone PCM, recorded as the movie's AAC track when the session has an audio input.
    public let audioOutput = AudioDataOutput()
    private let membership = SessionMembership()
    private let lock = ConditionLock()
    private var rotation = 0
    private var recording: Recording?
    private var starting = false // a startRecording is opening its writer
    private static let bufferCount = 6
    /// How long a stopped recording still takes sound for its last pictures: a microphone's
    /// buffers arrive a quantum (10–100 ms) after they were taken, later on a loaded machine.
    private static let soundDrain: UInt64 = 400_000_000

    public init() {
        videoOutput.frameHandler = { [unowned(unsafe) self] frame in self.enqueue(frame) }
        videoOutput.convertsFramesItself = true // the writer's own conversion cuts Center Stage's window
        audioOutput.sampleHandler = { [unowned(unsafe) self] buffer in self.enqueue(buffer) }
    }

    deinit {
        videoOutput.frameHandler = nil
        audioOutput.sampleHandler = nil
        close()
    }

    /// Clockwise degrees from the camera's pixels to upright (the coordinator's capture
    /// angle), written into the track's display matrix. Applies to the next recording.
    public var videoRotationAngle: Int { lock.withLock { rotation } }

    public func setVideoRotationAngle(_ degrees: Int) throws(OcellusError) {
        guard degrees % 90 == 0 else { throw OcellusError(.invalidArgument, "rotation must be a multiple of 90 degrees, not \(degrees)") }
        lock.withLock { rotation = ((degrees % 360) + 360) % 360 }
    }

    public func attach(to session: CaptureSession) throws(OcellusError) {
        try membership.attach(videoOutput, to: session, what: "movie file output") { [weak self] error in
            self?.end(error)
        }
        do { try session.addAudioOutput(audioOutput) } catch {
            try? membership.detach(videoOutput)
            throw error
        }
    }

    public func detach() throws(OcellusError) {
        end(nil)
        let session = membership.session
        if try membership.detach(videoOutput) { try session?.removeAudioOutput(audioOutput) }
    }

    public var isRecording: Bool { lock.withLock { recording != nil } }

    /// Seconds recorded so far in the current recording (0 when not recording).
    public var recordedDuration: Double { lock.withLock { recording?.duration ?? 0 } }

    /// Starts writing the session's frames to `path` (.mp4 or .mov; replaced if it exists).
    /// Errors opening the file are thrown here; `completion` runs on the writer thread
    /// once the file is finished, after `stopRecording`, the session stopping, or an error.
    public func startRecording(to path: String, completion: @escaping Completion) throws(OcellusError) {
        guard let session = membership.runningSession(delivering: videoOutput), let format = session.activeFormat else {
            throw OcellusError(.wrongState, "record while the session runs (add the movie file output and start the session)")
        }
        // Opening the writer loads FFmpeg and the encoder (long on a slow machine): not under the lock the
        // stream thread takes for every frame, so the session's other outputs keep their frames meanwhile.
        try lock.withLock { () throws(OcellusError) in
            if let recording { throw OcellusError(.wrongState, "already recording (to \(recording.writer.path))") }
            guard !starting else { throw OcellusError(.wrongState, "a recording is already starting") }
            starting = true
        }
        let writer: MovieWriter
        do {
            // What the movie's own output delivers: the camera's stream converted to the size asked
            // for (a size the camera does not offer is scaled from one it does).
            let recorded = videoOutput.pixelFormat ?? format.pixelFormat
            let video = MovieWriter.Video(
                pixelFormat: recorded,
                width: videoOutput.width ?? format.width, height: videoOutput.height ?? format.height,
                frameRate: format.maxFrameRate ?? FrameRate(30), rotation: rotation,
                reencodes: recorded.isCompressed && videoOutput.isFramed)
            writer = try MovieWriter(path: path, video: video, audio: session.audioFormat)
        } catch {
            lock.withLock { starting = false }
            throw error
        }
        let started = Recording(writer: writer, bufferCount: Self.bufferCount, session: session, completion: completion)
        let microphone = session.audioInput?.uniqueID ?? "the microphone"
        writer.onMicrophoneSilent = { [weak session, unowned(unsafe) self, unowned(unsafe) started] in
            // Sound of another format is sound: that was said when it came.
            guard !self.lock.withLock({ started.hearsOtherFormat }) else { return }
            session?.events.post(
                .audioInterrupted(
                    OcellusError(
                        .timeout,
                        "\(microphone) sent no sound for half a second; the recording carries silence until it does")))
        }
        session.recordingStarted() // automatic switching waits until the file is finished
        lock.withLock {
            starting = false
            recording = started
        }
        // Waited for through the recording's own `done`, not joined.
        pthread_detach(startThread { [self] in run(started) })
        // The session may have stopped while the writer opened: then nothing will end this recording.
        if membership.runningSession(delivering: videoOutput) == nil {
            end(OcellusError(.wrongState, "the session stopped while the recording started"))
        }
    }

    /// Ends the recording: frames already queued are written, then the file is finished
    /// and the completion runs. Returns at once; a no-op when not recording.
    public func stopRecording() { end(nil) }

    /// Stops a recording and waits until its file is finished. Not from the completion.
    public func close() {
        let current = lock.withLock { recording }
        end(nil)
        current?.waitUntilFinished()
    }

    private func end(_ error: OcellusError?) {
        lock.withLock {
            guard let recording, !recording.stopping else { return }
            recording.stopping = true
            recording.error = recording.error ?? error
            recording.soundDeadline = monotonicNanoseconds() + Self.soundDrain
            lock.broadcast()
        }
    }

    /// On the stream thread: a copy of the frame into a free buffer, or a counted drop.
    private func enqueue(_ frame: CameraFrame) {
        // H.264 after a dropped frame refers to a picture the file lacks: it resumes at the next IDR.
        let isH264 = frame.pixelFormat == .h264
        guard
            let (recording, slot) = lock.withLock({ () -> (Recording, Int)? in
                guard let recording, !recording.stopping else { return nil }
                if recording.awaitingKeyFrame && frame.plane(0).map({ H264.isKeyFrame($0.bytes) }) != true {
                    recording.dropped += 1
                    return nil
                }
                if recording.thinning(frame) {
                    recording.dropped += 1
                    return nil
                }
                guard let slot = recording.free.popLast() else {
                    recording.dropped += 1
                    recording.awaitingKeyFrame = isH264
                    return nil
                }
                recording.awaitingKeyFrame = false
                return (recording, slot)
            })
        else { return }
        recording.buffers[slot].store(frame) // this thread owns the buffer until it is queued
        lock.withLock {
            recording.lastPictureTimestamp = max(recording.lastPictureTimestamp, frame.timestampNanoseconds)
            recording.ready.append(slot)
            lock.broadcast()
        }
    }

    /// On the audio stream's thread: the samples join the recording's audio queue (bounded: two seconds).
    private func enqueue(_ buffer: AudioBuffer) {
        lock.withLock {
            guard let recording, !recording.soundClosed, let recorded = recording.writer.audio else { return }
            guard recorded == buffer.format else {
                // The input moved to a microphone of another format: the track keeps its own, and
                // carries silence (the writer pads it) until sound of its format comes again.
                if !recording.otherFormatReported {
                    recording.otherFormatReported = true
                    recording.session?.events.post(
                        .audioInterrupted(
                            OcellusError(
                                .invalidArgument,
                                "the microphone now sends \(buffer.format.channels) channels at \(buffer.format.sampleRate) Hz; the recording's "
                                    + "sound track has \(recorded.channels) at \(recorded.sampleRate) Hz and carries silence meanwhile")))
                }
                recording.droppedAudioFrames += buffer.frameCount
                recording.hearsOtherFormat = true
                return
            }
            recording.hearsOtherFormat = false
            let format = buffer.format
            // Sound that paused (the microphone route moved) resumes in step with the picture:
            // the gap becomes silence. Jitter under 40 ms is left alone.
            let gap = recording.audioEnd.map { buffer.timestampNanoseconds > $0 ? buffer.timestampNanoseconds - $0 : 0 } ?? 0
            let silence =
                gap > 40_000_000 && gap < 2_000_000_000
                ? Int(gap * UInt64(format.sampleRate) / 1_000_000_000) * Int(format.channels) : 0
            guard recording.audio.count + silence + buffer.samples.count <= recording.audio.capacity else {
                recording.droppedAudioFrames += buffer.frameCount
                return
            }
            let start = buffer.timestampNanoseconds - (silence > 0 ? gap : 0)
            if recording.audio.isEmpty { recording.audioTimestamp = start }
            recording.audio.append(contentsOf: repeatElement(0, count: silence))
            recording.audio.append(contentsOf: buffer.samples)
            recording.audioEnd =
                buffer.timestampNanoseconds
                + UInt64(buffer.frameCount) * 1_000_000_000 / UInt64(max(1, format.sampleRate))
            lock.broadcast()
        }
    }

    /// The writer thread of one recording.
    private func run(_ recording: Recording) {
        var sound: [Float] = []
        sound.reserveCapacity(recording.audio.capacity)
        // The first picture sets the movie's timeline: sound that comes before it waits (the
        // writer would have nowhere to put it), and what of it precedes the picture is trimmed.
        var pictureStarted = false
        while true {
            let (next, soundTimestamp): (Int?, UInt64) = lock.withLock {
                while recording.ready.isEmpty && (recording.audio.isEmpty || !pictureStarted) {
                    guard recording.stopping else { lock.wait(); continue }
                    // Stopped: the sound still on its way for the pictures already taken is waited for, briefly.
                    guard recording.awaitsSound(pictureStarted: pictureStarted) else { break }
                    _ = lock.wait(untilMonotonicNanoseconds: recording.soundDeadline)
                }
                if recording.stopping && recording.ready.isEmpty && recording.audio.isEmpty { recording.soundClosed = true }
                let slot = recording.ready.isEmpty ? nil : recording.ready.removeFirst()
                if pictureStarted || slot != nil { swap(&sound, &recording.audio) } // both keep their capacity
                return (slot, recording.audioTimestamp)
            }
            if next != nil { pictureStarted = true }
            guard next != nil || !sound.isEmpty else { break }
            do throws(OcellusError) {
                if let slot = next { try recording.writer.write(recording.buffers[slot].frame) }
                if !sound.isEmpty, let format = recording.writer.audio {
                    try sound.withUnsafeBufferPointer { samples throws(OcellusError) in
                        try recording.writer.write(AudioBuffer(format: format, samples: samples, timestampNanoseconds: soundTimestamp))
                    }
                    sound.removeAll(keepingCapacity: true)
                }
            } catch {
                lock.withLock {
                    recording.error = recording.error ?? error
                    recording.stopping = true
                    recording.ready.removeAll()
                }
            }
            lock.withLock {
                if let slot = next { recording.free.append(slot) }
                recording.duration = recording.writer.duration
            }
        }
        do throws(OcellusError) { try recording.writer.finish() } catch {
            lock.withLock { recording.error = recording.error ?? error }
        }
        let writer = recording.writer
        var info = stat()
        let bytes = stat(writer.path, &info) == 0 ? Int64(info.st_size) : 0
        let (error, dropped, droppedSound) = lock.withLock { () -> (OcellusError?, Int, Int) in
            if self.recording === recording { self.recording = nil }
            return (recording.error, recording.dropped, recording.droppedAudioFrames)
        }
        let summary = RecordingSummary(
            path: writer.path, bytes: bytes, width: writer.video.width, height: writer.video.height,
            duration: writer.duration, frames: writer.framesWritten, droppedFrames: dropped,
            rotation: writer.video.rotation, videoCodec: writer.videoCodecName,
            audioDuration: writer.audio.map { Double(writer.audioSamplesWritten) / Double($0.sampleRate) } ?? 0,
            droppedAudioFrames: droppedSound)
        recording.session?.recordingEnded()
        recording.completion(RecordingResult(summary: summary, error: error))
        recording.markFinished()
    }
}

/// One recording's writer and buffers; guarded by the output's lock except where noted.
private final class Recording: @unchecked Sendable {
    let writer: MovieWriter // the writer thread's alone
    let buffers: [RetainedFrame] // reused: a slot is the stream thread's until queued, then the writer's
    var free: [Int]
    var ready: [Int] = []
    var stopping = false
    var error: OcellusError?
    var dropped = 0
    /// An H.264 frame was dropped: frames wait for the next IDR picture.
    var awaitingKeyFrame = false
    /// While the encoder lags, every other frame is left out (evenly, instead of in bursts
    /// when the buffers run out); and when the backlog last stood high.
    private var halfRate = false
    private var backlogSeen: UInt64 = 0

    /// Whether to leave `frame` out to let the encoder catch up (output's lock held).
    /// The rate halves when the writer has most buffers queued and returns after 3 s without.
    func thinning(_ frame: CameraFrame) -> Bool {
        guard writer.encodes else { return false }
        let now = monotonicNanoseconds()
        if ready.count >= buffers.count - 2 {
            backlogSeen = now
            if !halfRate {
                halfRate = true
                let video = writer.video
                session?.events.post(
                    .recordingDegraded(
                        OcellusError(
                            .noResources,
                            "the \(writer.videoCodecName) encoder cannot keep up with \(video.width)x\(video.height) at \(video.frameRate.framesPerSecond) fps on this machine; recording every other frame until it catches up"
                        )))
            }
        } else if halfRate && now - backlogSeen > 3_000_000_000 {
            halfRate = false
        }
        return halfRate && frame.sequence % 2 == 1
    }
    var duration = 0.0
    /// Microphone samples waiting for the writer, and the capture time of the first.
    var audio: [Float] = []
    var audioTimestamp: UInt64 = 0
    /// When the last queued sound ends (capture clock), to find pauses.
    var audioEnd: UInt64?
    /// The capture time of the last picture queued, where the sound should reach before the file ends.
    var lastPictureTimestamp: UInt64 = 0
    /// After a stop, sound is still taken until it reaches the last picture or this time passes.
    var soundDeadline: UInt64 = 0
    /// No more sound is taken (the writer has finished the track).
    var soundClosed = false

    /// Whether the stopped writer should wait for sound still on its way (output's lock held).
    func awaitsSound(pictureStarted: Bool) -> Bool {
        error == nil && pictureStarted && writer.audio != nil && (audioEnd ?? 0) < lastPictureTimestamp
            && monotonicNanoseconds() < soundDeadline
    }
    var droppedAudioFrames = 0
    /// Sound of another format than the track's came (and was said so once); the latest did.
    var otherFormatReported = false
    var hearsOtherFormat = false
    let completion: MovieFileOutput.Completion
    /// The session recorded, told when the recording ends.
    weak var session: CaptureSession?
    private let done = ConditionLock()
    private var finished = false

    init(writer: MovieWriter, bufferCount: Int, session: CaptureSession, completion: @escaping MovieFileOutput.Completion) {
        self.writer = writer
        self.session = session
        self.completion = completion
        buffers = (0..<bufferCount).map { _ in RetainedFrame() }
        free = Array(0..<bufferCount)
        ready.reserveCapacity(bufferCount)
        if let format = writer.audio { audio.reserveCapacity(Int(format.sampleRate * format.channels) * 2) }
    }

    func markFinished() {
        done.withLock {
            finished = true; done.broadcast()
        }
    }
    func waitUntilFinished() { done.withLock { while !finished { done.wait() } } }
}
