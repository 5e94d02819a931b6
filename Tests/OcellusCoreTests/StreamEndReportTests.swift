import Foundation
import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// What an app is told when its camera stream ends on its own (behaviour §4 runtime errors): a
/// stream's own error that comes just before its camera's removal (PipeWire's session manager:
/// "no node available") is the camera's disconnection, as the app must handle it.
@Suite struct StreamEndReportTests {
    struct Bed {
        let backend = ScriptedBackend()
        let hub: DeviceHub
        let session: CaptureSession
        let log = EventLog<CaptureSession.Event>()
        let output = VideoDataOutput()

        init() throws {
            hub = try ScriptedCameras.hub([backend])
            backend.add(ScriptedCameras.webcam(serial: "A", key: "a", usbPort: "3-1"))
            session = CaptureSession(opener: hub)
            _ = session.events.addObserver(log.append)
            try session.addInput(try #require(hub.devices().first { $0.serialNumber == "A" }))
            try session.addOutput(output)
            try session.startRunning()
        }

        var runtimeErrors: [OcellusError] { Self.runtimeErrors(in: log.events) }

        static func runtimeErrors(in events: [CaptureSession.Event]) -> [OcellusError] {
            events.compactMap { if case .runtimeError(let error) = $0 { error } else { nil } }
        }

        func close() {
            try? session.stopRunning()
            hub.close()
        }
    }

    @Test func anErrorJustBeforeTheCameraGoesIsReportedAsTheDisconnection() throws {
        let bed = try Bed()
        defer { bed.close() }
        let stream = try #require(bed.backend.opened.last)
        stream.fail(OcellusError(.other, "the capture stream failed: no node available"))
        usleep(50_000) // the removal follows, as WirePlumber's does
        bed.backend.remove("a")
        #expect(bed.log.wait { !Bed.runtimeErrors(in: $0).isEmpty })
        let reported = try #require(bed.runtimeErrors.first)
        #expect(reported.code == .disconnected)
        #expect(reported.message.contains("was disconnected") && reported.message.contains("no node available"), "\(reported.message)")
        #expect(bed.runtimeErrors.count == 1 && !bed.session.isRunning)
        // A reader pulling frames is told the same.
        #expect(bed.output.latest.stoppedByError?.code == .disconnected)
    }

    @Test func anErrorWithTheCameraStayingIsReportedAsItIsAfterTheGrace() throws {
        let bed = try Bed()
        defer { bed.close() }
        let stream = try #require(bed.backend.opened.last)
        let failedAt = monotonicNanoseconds()
        stream.fail(OcellusError(.io, "the driver failed"))
        #expect(bed.log.wait { !Bed.runtimeErrors(in: $0).isEmpty })
        #expect(bed.runtimeErrors.map(\.code) == [.io])
        #expect(monotonicNanoseconds() - failedAt >= CaptureSession.removalGrace)
    }

    @Test func aDisconnectionIsReportedAtOnce() throws {
        let bed = try Bed()
        defer { bed.close() }
        let stream = try #require(bed.backend.opened.last)
        let failedAt = monotonicNanoseconds()
        stream.fail(OcellusError(.disconnected, "the camera was disconnected"))
        #expect(bed.log.wait { !Bed.runtimeErrors(in: $0).isEmpty })
        #expect(bed.runtimeErrors.map(\.code) == [.disconnected])
        #expect(monotonicNanoseconds() - failedAt < CaptureSession.removalGrace)
    }
}
