import Foundation
import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// A session's microphone stream (behaviour §4 audio), through the scripted stand-in backend:
/// when it is open, where its samples go, and what a microphone that goes does to the session.
@Suite struct SessionAudioTests {
    let camera = ScriptedCameras.webcamDevice(serial: "X")
    let microphone = ScriptedCameras.pipewireMicrophone(serial: "X")

    func session(_ backend: ScriptedBackend) throws -> CaptureSession {
        let session = CaptureSession(opener: backend, audio: backend)
        try session.addInput(camera)
        try session.addOutput(VideoDataOutput())
        try session.addAudioInput(microphone)
        return session
    }

    @Test func theStreamIsOpenWhileTheRunningSessionHasAListener() throws {
        let backend = ScriptedBackend(.pipewire)
        let session = try session(backend)
        try session.startRunning()
        #expect(backend.openedAudio.isEmpty, "no listener, no stream")
        let first = AudioDataOutput(), second = AudioDataOutput()
        try session.addAudioOutput(first)
        let stream = try #require(backend.openedAudio.first)
        #expect(stream.device === microphone)
        try session.addAudioOutput(second)
        #expect(backend.openedAudio.count == 1, "a second listener shares the stream")
        stream.feed(frames: 480)
        #expect(first.deliveredFrames == 480 && second.deliveredFrames == 480)
        try session.removeAudioOutput(first)
        stream.feed(frames: 480)
        #expect(first.deliveredFrames == 480 && second.deliveredFrames == 960, "a removed output hears nothing more")
        try session.removeAudioOutput(second)
        #expect(stream.stops == 1, "the last listener gone, the stream closes")
        try session.addAudioOutput(first)
        try session.stopRunning()
        #expect(backend.openedAudio.count == 2 && backend.openedAudio[1].stops == 1)
    }

    @Test func aSessionWithoutAudioSupportRefusesAMicrophone() {
        let session = CaptureSession(opener: ScriptedBackend())
        #expect(!session.canAddAudioInput(microphone))
        #expect { try session.addAudioInput(microphone) } throws: { ($0 as? OcellusError)?.message == "this session has no audio support" }
    }

    @Test func aChosenMicrophoneThatGoesStopsTheSession() throws {
        let backend = ScriptedBackend(.pipewire)
        let session = try session(backend)
        let log = EventLog<CaptureSession.Event>()
        let observer = session.events.addObserver(log.append)
        defer { session.events.removeObserver(observer) }
        try session.addAudioOutput(AudioDataOutput())
        try session.startRunning()
        let stream = try #require(backend.openedAudio.first)
        let failing = Thread { stream.fail(OcellusError(.disconnected, "the node went")) }
        failing.start()
        #expect(log.wait { events in events.contains { if case .stopped = $0 { true } else { false } } })
        #expect(!session.isRunning)
        let said = log.events.compactMap { event -> String? in if case .runtimeError(let error) = event { error.message } else { nil } }
        #expect(said == ["microphone usb-046d:082d-X-mic: the node went"])
        #expect(backend.opened.first?.stops.count == 1 && stream.stops == 1)
    }

    @Test func aMicrophoneThatCannotOpenFailsTheStartAndLeavesNothingOpen() throws {
        let backend = ScriptedBackend(.pipewire)
        let session = try session(backend)
        try session.addAudioOutput(AudioDataOutput())
        backend.failNextAudioOpens(OcellusError(.notFound, "no such node"))
        #expect { try session.startRunning() } throws: { ($0 as? OcellusError)?.message == "no such node" }
        #expect(!session.isRunning)
        #expect(backend.opened.count == 1 && backend.opened[0].stops.count == 1, "the camera's stream closed again")
    }
}
