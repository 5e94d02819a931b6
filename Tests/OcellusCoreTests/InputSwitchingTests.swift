import Foundation
import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// Automatic switching (behaviour §4): a session following a hub's system preferred camera,
/// on a hub over the scripted stand-in backend, streaming through that hub as apps' sessions do.
@Suite struct InputSwitchingTests {
    struct Bed {
        let backend = ScriptedBackend()
        let hub: DeviceHub
        let session: CaptureSession
        let log = EventLog<CaptureSession.Event>()
        let observer: UInt64

        init() throws {
            hub = try ScriptedCameras.hub([backend])
            backend.add(ScriptedCameras.webcam(serial: "A", key: "a", usbPort: "3-1"))
            backend.add(ScriptedCameras.webcam(serial: "B", key: "b", usbPort: "3-2"))
            session = CaptureSession(opener: hub)
            observer = session.events.addObserver(log.append)
        }

        func camera(_ serial: String) throws -> Device {
            try #require(hub.devices().first { $0.serialNumber == serial })
        }

        /// The cameras the session was switched to, in order.
        var switches: [String?] { Self.switches(in: log.events) }

        static func switches(in events: [CaptureSession.Event]) -> [String?] {
            events.compactMap { event in if case .inputSwitched(let camera) = event { camera.serialNumber } else { nil } }
        }

        /// The session follows the hub with `serial` the user preferred camera, and runs.
        func startFollowing(preferred serial: String) throws {
            try hub.setUserPreferredCamera(camera(serial))
            try session.addOutput(VideoDataOutput())
            session.setAutomaticallySwitchesCamera(following: hub)
            try session.startRunning()
        }

        func close() {
            session.events.removeObserver(observer)
            try? session.stopRunning()
            hub.close()
        }
    }

    @Test func theInputFollowsTheSystemPreferredCamera() throws {
        let bed = try Bed()
        defer { bed.close() }
        try bed.hub.setUserPreferredCamera(bed.camera("A"))
        try bed.session.addOutput(VideoDataOutput())
        bed.session.setAutomaticallySwitchesCamera(following: bed.hub)
        #expect(bed.session.automaticallySwitchesCamera)
        #expect(bed.session.input?.serialNumber == "A")
        try bed.session.startRunning()
        try bed.hub.setUserPreferredCamera(bed.camera("B"))
        #expect(bed.log.wait { Bed.switches(in: $0).last == "B" })
        #expect(bed.session.isRunning && bed.backend.opened.map(\.device.serialNumber) == ["A", "B"])
        #expect(bed.backend.opened[0].stops.count == 1)
        // No longer following: the choice moves, the input stays.
        bed.session.setAutomaticallySwitchesCamera(following: nil)
        try bed.hub.setUserPreferredCamera(bed.camera("A"))
        usleep(200_000)
        #expect(bed.session.input?.serialNumber == "B" && bed.switches == ["A", "B"])
    }

    @Test func aSwitchWaitsForTheRecordingToEnd() throws {
        let bed = try Bed()
        defer { bed.close() }
        try bed.startFollowing(preferred: "A")
        bed.session.recordingStarted()
        #expect(bed.session.isRecording)
        try bed.hub.setUserPreferredCamera(bed.camera("B"))
        #expect(bed.log.wait { events in events.contains { if case .switchDeferred(let camera) = $0 { camera.serialNumber == "B" } else { false } } })
        #expect(bed.session.input?.serialNumber == "A")
        bed.session.recordingEnded()
        #expect(bed.log.wait { Bed.switches(in: $0).last == "B" })
        #expect(!bed.session.isRecording && bed.session.input?.serialNumber == "B")
    }

    @Test func aSessionWhoseCameraWentStartsAgainOnTheNextPreferred() throws {
        let bed = try Bed()
        defer { bed.close() }
        try bed.startFollowing(preferred: "B")
        let stream = try #require(bed.backend.opened.last)
        #expect(stream.device.serialNumber == "B")
        // The stream says so first, then the backend reports the camera gone.
        let failing = Thread { stream.fail(OcellusError(.disconnected, "the camera was disconnected")) }
        failing.start()
        #expect(bed.log.wait { events in events.contains { if case .runtimeError = $0 { true } else { false } } })
        bed.backend.remove("b")
        #expect(bed.log.wait { Bed.switches(in: $0).last == "A" })
        #expect(bed.log.wait { events in events.last.map { if case .started = $0 { true } else { false } } ?? false })
        #expect(bed.session.isRunning)
        #expect(bed.backend.opened.last?.device.serialNumber == "A")
    }

    /// PipeWire's session manager can end the stream with its own error ("no node available")
    /// before the node's removal arrives: the camera going is what counts, not the error's code.
    @Test func aStreamEndingWithAnotherErrorAsItsCameraGoesStartsAgain() throws {
        let bed = try Bed()
        defer { bed.close() }
        try bed.startFollowing(preferred: "B")
        let stream = try #require(bed.backend.opened.last)
        stream.fail(OcellusError(.other, "the capture stream failed: no node available"))
        #expect(bed.log.wait { events in events.contains { if case .runtimeError = $0 { true } else { false } } })
        bed.backend.remove("b")
        #expect(bed.log.wait { Bed.switches(in: $0).last == "A" })
        #expect(bed.log.wait { events in events.last.map { if case .started = $0 { true } else { false } } ?? false })
        #expect(bed.session.isRunning && bed.backend.opened.last?.device.serialNumber == "A")
    }

    /// The hub dropping the camera first switches the running session; the old stream's end,
    /// coming after, is not the session's.
    @Test func theCameraGoingBeforeItsStreamEndsSwitchesTheRunningSession() throws {
        let bed = try Bed()
        defer { bed.close() }
        try bed.startFollowing(preferred: "B")
        let stream = try #require(bed.backend.opened.last)
        bed.backend.remove("b")
        #expect(bed.log.wait { Bed.switches(in: $0).last == "A" })
        stream.fail(OcellusError(.disconnected, "the camera was disconnected"))
        usleep(100_000)
        #expect(bed.session.isRunning && bed.backend.opened.last?.device.serialNumber == "A")
        #expect(!bed.log.events.contains { if case .runtimeError = $0 { true } else { false } })
    }

    /// Both at once, many times: whichever comes first, and the stream's end landing while the
    /// switch is being made, the session ends up running on the next camera.
    @Test func theStreamEndAndTheCameraGoingRacingEndWithTheSessionRunning() throws {
        for round in 0..<60 {
            let bed = try Bed()
            defer { bed.close() }
            try bed.startFollowing(preferred: "B")
            let stream = try #require(bed.backend.opened.last)
            let code: ErrorCode = round % 2 == 0 ? .disconnected : .other
            let failing = Thread {
                usleep(UInt32(round % 5) * 50)
                stream.fail(OcellusError(code, "the stream ended"))
            }
            failing.start()
            bed.backend.remove("b")
            #expect(bed.log.wait { Bed.switches(in: $0).last == "A" })
            let running = bed.log.wait { _ in bed.session.isRunning && bed.backend.opened.last?.device.serialNumber == "A" }
            #expect(running, "round \(round): \(bed.log.events)")
            if !running { break }
        }
    }

    @Test func aSessionStoppedAsAskedIsNotRestartedBySwitching() throws {
        let bed = try Bed()
        defer { bed.close() }
        try bed.startFollowing(preferred: "B")
        try bed.session.stopRunning()
        bed.backend.remove("b")
        #expect(bed.log.wait { Bed.switches(in: $0).last == "A" })
        usleep(200_000)
        #expect(!bed.session.isRunning && bed.backend.opened.count == 1)
    }
}
