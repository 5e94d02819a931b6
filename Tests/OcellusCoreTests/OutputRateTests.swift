import Testing
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
                output.deliver(CameraFrame(pixelFormat: .grey, width: 1, height: 1, sequence: UInt64(index),
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
}
