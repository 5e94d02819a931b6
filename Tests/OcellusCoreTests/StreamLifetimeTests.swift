import Foundation
import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// Who stops a camera stream that failed by itself (behaviour §4 runtime errors). A backend's
/// stream cannot tear itself down from its own thread, so the session must stop it on the
/// caller's thread. The stream here is the scripted stand-in, which records its stop calls: the
/// session's bookkeeping, not a backend, is under test (the PipeWire and vivid suites
/// run the same path with real cameras).
@Suite struct StreamLifetimeTests {
    let camera = ScriptedCameras.webcamDevice(serial: "X", backend: .v4l2, key: "k")

    /// A session streaming from `camera` through a scripted stream.
    func runningSession() throws -> (CaptureSession, ScriptedStream) {
        let opener = ScriptedBackend()
        let session = CaptureSession(opener: opener)
        try session.addInput(camera)
        try session.addOutput(VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480))
        try session.startRunning()
        return (session, try #require(opener.opened.first))
    }

    @Test func aStreamThatFailedIsStoppedOnTheCallersThread() throws {
        let (session, stream) = try runningSession()

        // The camera goes away: the stream reports it from its own thread.
        let failing = Thread { stream.fail(OcellusError(.disconnected, "the camera was disconnected")) }
        failing.start()
        while session.isRunning { usleep(1000) }
        #expect(stream.stops.isEmpty)

        try session.stopRunning()
        #expect(stream.stops.count == 1)
        #expect(stream.stops.allSatisfy { pthread_equal($0, pthread_self()) != 0 })
    }

    @Test func stoppingAStoppedSessionStopsNothing() throws {
        let (session, stream) = try runningSession()
        try session.stopRunning()
        try session.stopRunning()
        #expect(stream.stops.count == 1)
    }

    @Test func anAudioHandlerChangingTheSessionWhileItsStreamOpensDoesNotDeadlock() throws {
        let microphone = Device(
            uniqueID: "mic", name: "Mic", type: .microphone, position: .unspecified, backend: .pipewire,
            backendKey: "m", formats: [], vendorID: nil, productID: nil, serialNumber: nil,
            pluggedMicroseconds: nil, properties: [:], capabilities: ScriptedBackend(.pipewire).capabilities)
        // The microphone's first samples come while its stream is still being opened, and it opens
        // only once they were handled: PipeWire's connect runs the first process callback first.
        let backend = ScriptedBackend(.pipewire)
        backend.whileOpeningAudio = { stream in
            let first = Thread { stream.feed(frames: 48) }
            first.start()
            while !first.isFinished { usleep(1000) }
        }
        let session = CaptureSession(opener: backend, audio: backend)
        try session.addInput(camera)
        try session.addOutput(VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480))
        try session.addAudioInput(microphone)
        let audio = AudioDataOutput()
        let answer = Locked<String?>(nil) // set on the stream's thread
        audio.sampleHandler = { [camera] _ in
            // The same camera again: a change that keeps every stream.
            let said: String
            do throws(OcellusError) { try session.addInput(camera); said = "ok" } catch { said = error.message }
            answer.withLock { $0 = said }
        }
        try session.addAudioOutput(audio)
        try session.startRunning() // hung here while the handler waited for the stream changes' lock
        #expect(answer.withLock { $0 } == "ok")
        try session.stopRunning()
    }
}
