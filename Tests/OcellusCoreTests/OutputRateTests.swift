import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// An output's maximum rate thins a faster stream evenly and never a stream at the cap.
@Suite struct OutputRateTests {
    func delivered(streamFPS: Double, cap: FrameRate, jitterMilliseconds: Double, frames: Int) -> Int {
        let output = VideoDataOutput()
        output.maximumFrameRate = cap
        output.frameInterval = UInt64(1e9 / streamFPS)
        var count = 0
        output.frameHandler = { _ in count += 1 }
        let byte: [UInt8] = [0]
        byte.withUnsafeBytes { bytes in
            let now = monotonicNanoseconds()
            for index in 0..<frames {
                // Alternating jitter; stamps ahead of the clock, so none counts as late.
                let jitter = (index % 2 == 0 ? 1.0 : -1.0) * jitterMilliseconds * 1e6
                let stamp = now + 1_000_000_000 + UInt64(Double(index) * 1e9 / streamFPS + jitter)
                output.deliver(
                    CameraFrame(
                        pixelFormat: .grey, width: 1, height: 1, sequence: UInt64(index),
                        timestampNanoseconds: stamp, planes: FramePlane(bytes: bytes, stride: 1)))
            }
        }
        return count
    }

    @Test func aStreamAtTheCapIsNeverThinned() {
        #expect(delivered(streamFPS: 30, cap: FrameRate(30), jitterMilliseconds: 12, frames: 30) == 30)
    }

    @Test func aFasterStreamIsThinnedEvenly() {
        let count = delivered(streamFPS: 60, cap: FrameRate(30), jitterMilliseconds: 2, frames: 60)
        #expect((29...31).contains(count))
        #expect((9...11).contains(delivered(streamFPS: 30, cap: FrameRate(10), jitterMilliseconds: 0, frames: 30)))
    }

    /// The session gives the output the interval of the rate it streams at. It once gave the format's
    /// fastest rate (60 fps here), so an output capped at the 30 fps the stream ran at was thinned, and
    /// frames that came a little early (vivid under emulation) went missing uncounted.
    @Test func anOutputCappedAtTheStreamsRateKeepsEveryFrame() throws {
        let camera = Device(
            uniqueID: "usb-1234:5678-R", name: "Camera", type: .externalCamera, position: .unspecified, backend: .v4l2,
            backendKey: "k", formats: [VideoFormat(pixelFormat: .grey, width: 1, height: 1, frameRates: [FrameRate(60), FrameRate(30)])],
            vendorID: 0x1234, productID: 0x5678, serialNumber: "R", pluggedMicroseconds: nil, properties: [:])
        let opener = ScriptedBackend()
        let session = CaptureSession(opener: opener)
        try session.addInput(camera)
        let output = VideoDataOutput()
        output.maximumFrameRate = FrameRate(30)
        var sequences: [UInt64] = []
        output.frameHandler = { sequences.append($0.sequence) }
        try session.addOutput(output)
        try session.startRunning()
        #expect(output.frameInterval == 33_333_333)
        let byte: [UInt8] = [0]
        byte.withUnsafeBytes { bytes in
            let start = monotonicNanoseconds() + 1_000_000_000
            for index in 0..<30 {
                let jitter = index % 2 == 0 ? 0 : -12_000_000 // every other frame 12 ms early
                let frame = CameraFrame(
                    pixelFormat: .grey, width: 1, height: 1, sequence: UInt64(index),
                    timestampNanoseconds: UInt64(Int(start) + index * 33_333_333 + jitter),
                    planes: FramePlane(bytes: bytes, stride: 1))
                opener.opened[0].feed(frame)
            }
        }
        #expect(sequences == Array(0..<30))
        output.frameHandler = nil
    }
}
