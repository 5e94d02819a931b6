import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// A session answers before streaming whether its configuration runs as asked or adjusted, and
/// what was adjusted (libcamera's `validate()`); what cannot run at all is the commit's error.
@Suite struct ConfigurationCheckTests {
    let choice = FormatChoiceTests()
    let costs = HardwareCostTests()

    func session(beside held: [BusReservation] = []) -> CaptureSession {
        CaptureSession(opener: ScriptedBackend(), conversion: FormatChoiceTests.AnyConversion(), bus: HardwareCostTests.FixedBus(held: held))
    }

    @Test func withoutAnInputThereIsNothingToCheck() throws {
        #expect(try session().checkConfiguration() == nil)
    }

    @Test func anIdleBusRunsTheOutputsAsAsked() throws {
        let session = session()
        try session.addInput(choice.webcam(speedMbps: 480))
        try session.addOutput(VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480))
        let check = try #require(try session.checkConfiguration())
        #expect(check.isAsAsked && check.reason.isEmpty)
        #expect(check.runs.format.pixelFormat == .yuyv && check.runs.format.width == 640 && check.runs.rate == FrameRate(30))
        #expect("\(check)" == "runs YUYV 640x480 at 30.0 fps as asked")
    }

    /// Beside another webcam at 61% of the bus, raw VGA would take 122%: the camera sends MJPEG.
    @Test func aBusThatCannotCarryRawIsAnAdjustedPixelFormatSayingWhy() throws {
        let session = session(beside: [costs.webcamStreaming(3072)])
        try session.addInput(choice.webcam(speedMbps: 480))
        try session.addOutput(VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480))
        let check = try #require(try session.checkConfiguration())
        #expect(check.adjustments == [.pixelFormat, .busFit], "\(check)")
        #expect(check.runs.format.pixelFormat == .mjpeg && check.asked.format.pixelFormat == .yuyv)
        #expect(check.reason == "it would take 122% of usb1 beside Other Webcam", "\(check.reason)")
    }

    /// Outputs capped at 60 fps from a camera whose formats run 30 at most: the rate is adjusted.
    @Test func aRateTheCameraCannotReachIsAnAdjustedRate() throws {
        let session = session()
        try session.addInput(choice.webcam(speedMbps: 480))
        let output = VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480)
        output.maximumFrameRate = FrameRate(60)
        try session.addOutput(output)
        let check = try #require(try session.checkConfiguration())
        #expect(check.adjustments == [.rate] && check.asked.rate == FrameRate(60) && check.runs.rate == FrameRate(30), "\(check)")
        #expect(check.reason.contains("sends YUYV 640x480 at 30.0 fps at most, and the outputs ask 60.0"), "\(check.reason)")
        // A cap the camera reaches is as asked, even when the stream runs faster (outputs thin it).
        output.maximumFrameRate = FrameRate(10)
        session.beginConfiguration()
        try session.commitConfiguration()
        #expect(try session.checkConfiguration()?.isAsAsked == true)
    }

    /// Inside begin/commit the check answers for the changes not committed yet, and a configuration
    /// that cannot run throws what committing it would.
    @Test func theCheckIsOfTheConfigurationAsItStandsAndThrowsWhatCommittingWould() throws {
        let session = session(beside: [costs.webcamStreaming(3072)])
        try session.addInput(choice.webcam(speedMbps: 480))
        session.beginConfiguration()
        try session.setBusFit(.off)
        try session.addOutput(VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480))
        var checked: OcellusError?
        do { _ = try session.checkConfiguration() } catch { checked = error }
        var committed: OcellusError?
        do { try session.commitConfiguration() } catch { committed = error }
        #expect(checked?.code == .noResources && checked?.message == committed?.message, "\(String(describing: checked))")
    }
}
