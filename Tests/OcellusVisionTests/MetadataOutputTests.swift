import Foundation
import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore
@testable import OcellusVision

/// The metadata output's schedule and hand-off (behaviour §4), on the scripted stand-in backend with
/// frames stamped by the test: which frames are analysed follows their capture times, not the
/// machine's clock. zxing-cpp through Ocellus's plugin (OCELLUS_CODES_LIB, as the Makefile sets it);
/// skipped when it is not built.
@Suite(.serialized) struct MetadataOutputTests {
    static let available = (try? CodeReader.Library.load()) != nil

    struct Bed {
        let backend = ScriptedBackend()
        let hub: DeviceHub
        let session: CaptureSession
        let output: MetadataOutput

        init() throws {
            hub = try ScriptedCameras.hub([backend])
            backend.add(ScriptedCameras.webcam(serial: "A", key: "a"))
            session = CaptureSession(opener: hub)
            output = try MetadataOutput(objectTypes: .codes)
            try session.addInput(try #require(hub.devices().first { $0.serialNumber == "A" }))
            try output.attach(to: session)
            try session.startRunning()
        }

        /// Feeds frames `interval` apart in capture time from `start` nanoseconds after now (frames
        /// stamped in the past would be late), letting the analysis of each finish first.
        func feed(_ count: Int, interval: UInt64, from offset: UInt64 = 0) throws {
            let start = monotonicNanoseconds() + offset
            let stream = try #require(backend.opened.last)
            for index in 0..<count {
                stream.feed(sequence: UInt64(index), at: start + UInt64(index) * interval)
                output.videoOutput.waitForHandedOffWork?() // what a session's stop waits for
            }
        }

        func close() {
            try? session.stopRunning()
            output.close()
            hub.close()
        }
    }

    @Test(.enabled(if: available)) func framesAreAnalysedAtTheRateByTheirCaptureTimes() throws {
        let bed = try Bed()
        defer { bed.close() }
        try bed.feed(30, interval: 33_333_333) // one second at 30 fps, the default 10 analyses a second
        #expect(bed.output.statistics.analysedFrames == 10)
        #expect(bed.output.statistics.droppedFrames == 0 && bed.output.statistics.deliveries == 0)
    }

    @Test(.enabled(if: available)) func aPauseStartsTheScheduleAgainFromTheNextFrame() throws {
        let bed = try Bed()
        defer { bed.close() }
        try bed.setRate(5)
        try bed.feed(10, interval: 100_000_000) // 1 s at 10 fps: 5 analyses
        try bed.feed(10, interval: 100_000_000, from: 60_000_000_000) // a minute later: 5 more, not a burst
        #expect(bed.output.statistics.analysedFrames == 10)
    }

    @Test(.enabled(if: available)) func ratesOutsideTheRangeAreRefused() throws {
        let output = try MetadataOutput(objectTypes: .codes)
        for rate in [0, 0.05, 121, .nan, .infinity] {
            #expect(throws: OcellusError.self) { try output.setMaximumAnalysisRate(rate) }
        }
        #expect(output.maximumAnalysisRate == 10)
        #expect(throws: OcellusError.self) { try output.setVideoRotationAngle(45) }
        #expect(throws: OcellusError.self) { _ = try MetadataOutput(objectTypes: []) }
    }
}

extension MetadataOutputTests.Bed {
    func setRate(_ perSecond: Double) throws { try output.setMaximumAnalysisRate(perSecond) }
}
