import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// A session's companions see the frames of the camera it streams through outputs of their own,
/// only while they ask to, and are told when the stream ends; an output handed in for a stream
/// that already ended never reaches the next one.
@Suite struct SessionCompanionsTests {
    /// Records what the session tells it; feeds `output` from the start when `feedsAtStart`.
    final class RecordingCompanion: SessionCompanion, @unchecked Sendable {
        let output = VideoDataOutput()
        let feedsAtStart: Bool
        private let lock = ConditionLock()
        private var streams: [CompanionStream] = []
        private var stops = 0
        private var sequences: [UInt64] = []

        init(feedsAtStart: Bool) {
            self.feedsAtStart = feedsAtStart
            output.frameHandler = { [unowned self] frame in lock.withLock { sequences.append(frame.sequence) } }
        }

        func cameraStreamWillStart(_ stream: CompanionStream) -> VideoDataOutput? {
            lock.withLock { streams.append(stream) }
            return feedsAtStart ? output : nil
        }
        func cameraStreamStopped() { lock.withLock { stops += 1 } }

        var started: [CompanionStream] { lock.withLock { streams } }
        var stopped: Int { lock.withLock { stops } }
        /// What reached the handler, once every frame handed to the output's thread is delivered.
        var seen: [UInt64] {
            output.waitForDelivery()
            return lock.withLock { sequences }
        }
    }

    func runningSession(with companions: RecordingCompanion...) throws -> (CaptureSession, ScriptedBackend) {
        let opener = ScriptedBackend()
        let session = CaptureSession(opener: opener)
        for companion in companions { session.addCompanion(companion) }
        try session.addInput(ScriptedCameras.webcamDevice(serial: "COMPANION"))
        try session.addOutput(VideoDataOutput())
        try session.startRunning()
        return (session, opener)
    }

    /// Feeds a frame from a thread of its own, as a camera's stream thread would (a session refuses
    /// stopping from the thread its frames came on).
    func feed(_ stream: ScriptedStream, sequence: UInt64) {
        pthread_join(startThread { stream.feed(sequence: sequence) }, nil)
    }

    @Test func aCompanionIsToldOfTheStreamAndFedOnlyWhileItAsks() throws {
        let feeding = RecordingCompanion(feedsAtStart: true), idle = RecordingCompanion(feedsAtStart: false)
        let (session, opener) = try runningSession(with: feeding, idle)
        #expect(feeding.started.map(\.format.width) == [640] && idle.started.count == 1)
        #expect(feeding.started.first?.camera.uniqueID == "usb-046d:082d-COMPANION")
        feed(opener.opened[0], sequence: 1)
        // The idle companion asks in while the stream runs; the feeding one steps out.
        idle.started[0].setOutput(idle.output)
        feeding.started[0].setOutput(nil)
        feed(opener.opened[0], sequence: 2)
        #expect(feeding.seen == [1] && idle.seen == [2])
        try session.stopRunning()
        #expect(feeding.stopped == 1 && idle.stopped == 1)
    }

    @Test func anOutputHandedInForAnEndedStreamIsIgnored() throws {
        let companion = RecordingCompanion(feedsAtStart: false)
        let (session, opener) = try runningSession(with: companion)
        let first = companion.started[0]
        try session.stopRunning()
        try session.startRunning()
        #expect(companion.started.count == 2 && companion.stopped == 1)
        #expect(first.framing !== companion.started[1].framing, "each stream start frames afresh")
        first.setOutput(companion.output) // late: that stream is over
        feed(opener.opened[1], sequence: 7)
        #expect(companion.seen.isEmpty)
        companion.started[1].setOutput(companion.output)
        feed(opener.opened[1], sequence: 8)
        #expect(companion.seen == [8])
        try session.stopRunning()
    }

    @Test func aStreamThatFailsTellsItsCompanions() throws {
        let companion = RecordingCompanion(feedsAtStart: true)
        let (session, opener) = try runningSession(with: companion)
        opener.opened[0].fail(OcellusError(.disconnected, "the camera went"))
        var waited = 0
        while companion.stopped == 0 && waited < 500 { usleep(10_000); waited += 1 }
        #expect(companion.stopped == 1 && !session.isRunning)
    }
}
