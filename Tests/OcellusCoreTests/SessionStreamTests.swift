import Foundation
import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// One camera stream of a session and the outputs it feeds (the picture's and depth's alike).
@Suite struct SessionStreamTests {
    let camera = ScriptedCameras.webcamDevice(
        serial: "X", backend: .v4l2, key: "k",
        formats: [VideoFormat(pixelFormat: .yuyv, width: 4, height: 2, frameRates: [FrameRate(30)])])

    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var outputs: [FrameOutput] = []
        func read() -> [FrameOutput] {
            lock.withLock {
                count += 1; return outputs
            }
        }
        var made: Int { lock.withLock { count } }
    }

    @Test func itReadsItsOutputsOnlyAfterACommitAndFeedsThemAll() throws {
        let backend = ScriptedBackend(), commits = SessionStream.Commits(), reads = Reads()
        let first = VideoDataOutput(), second = DepthDataOutput()
        var (pictures, maps) = (0, 0)
        first.frameHandler = { _ in pictures += 1 }
        second.frameHandler = { _ in maps += 1 }
        reads.outputs = [first]
        let stream = SessionStream(commits: commits, committedOutputs: reads.read, watchdog: nil) { _, _ in }
        try stream.open(backend, camera: camera, format: camera.formats[0], rate: FrameRate(30))
        let scripted = try #require(backend.opened.first)
        for sequence in 1...3 { scripted.feed(sequence: UInt64(sequence)) }
        #expect(reads.made == 1 && pictures == 3)
        reads.outputs = [first, second]
        commits.count.add(1, ordering: .releasing)
        scripted.feed(sequence: 4)
        stream.stop() // two outputs deliver on threads of their own: stop waits for them
        #expect(reads.made == 2 && pictures == 4 && maps == 0, "a YUYV frame is no depth map")
        #expect(second.droppedFrames(.late) == 0)
    }

    /// A frame whose buffer is short of its format (another app renegotiated the camera to a
    /// smaller size) reaches no output: each counts it as corrupt, and the watchdog is told.
    @Test func aFrameShortOfItsFormatReachesNoOutput() throws {
        let backend = ScriptedBackend(), reads = Reads()
        let video = VideoDataOutput(), depth = DepthDataOutput()
        var delivered = 0
        video.frameHandler = { _ in delivered += 1 }
        reads.outputs = [video, depth]
        let stream = SessionStream(commits: SessionStream.Commits(), committedOutputs: reads.read, watchdog: nil) { _, _ in }
        try stream.open(backend, camera: camera, format: camera.formats[0], rate: FrameRate(30))
        let scripted = try #require(backend.opened.first)
        let short = [UInt8](repeating: 0x80, count: 4 * 2) // one row of a 4x2 YUYV frame
        short.withUnsafeBytes { bytes in
            scripted.feed(
                CameraFrame(
                    pixelFormat: .yuyv, width: 4, height: 2, sequence: 1, timestampNanoseconds: monotonicNanoseconds(),
                    planes: FramePlane(bytes: bytes, stride: 8)))
        }
        scripted.feed(sequence: 2)
        stream.stop()
        #expect(delivered == 1)
        #expect(video.droppedFrames(.corrupt) == 1 && depth.droppedFrames(.corrupt) == 1)
    }

    @Test func itKnowsItsThreadUntilItFails() throws {
        let backend = ScriptedBackend()
        let failures = Reads()
        let stream = SessionStream(commits: SessionStream.Commits(), committedOutputs: { [] }, watchdog: nil) { _, _ in _ = failures.read() }
        try stream.open(backend, camera: camera, format: camera.formats[0], rate: FrameRate(30))
        let scripted = try #require(backend.opened.first)
        #expect(!stream.isStreamThread)
        scripted.feed(sequence: 1)
        #expect(stream.isStreamThread)
        let elsewhere = Locked(true) // read on another thread
        let other = Thread { elsewhere.withLock { $0 = stream.isStreamThread } }
        other.start()
        while !other.isFinished { usleep(1000) }
        #expect(!elsewhere.withLock { $0 })
        // A thread that ended may hand its id to a new one: a failed stream claims no thread.
        scripted.fail(OcellusError(.disconnected, "gone"))
        #expect(failures.made == 1 && !stream.isStreamThread)
    }

    @Test func itStopsItsCameraStreamOnce() throws {
        let backend = ScriptedBackend()
        var stream: SessionStream? = SessionStream(commits: SessionStream.Commits(), committedOutputs: { [] }, watchdog: nil) { _, _ in }
        try stream!.open(backend, camera: camera, format: camera.formats[0], rate: FrameRate(30))
        stream!.stop()
        stream!.stop()
        stream = nil // nor again when it goes
        #expect(backend.opened.first?.stops.count == 1)
    }
}
