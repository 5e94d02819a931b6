import OcellusCore
import Testing

@testable import OcellusMedia

@Suite struct H264Tests {
    /// An IDR access unit as UVC cameras send it: SPS, PPS (4-byte start codes), then the slice (3-byte).
    let idrUnit: [UInt8] = [0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1E, 0, 0, 0, 1, 0x68, 0xCE, 0x3C, 0x80, 0, 0, 1, 0x65, 0x88, 0x84, 0x00]
    let pUnit: [UInt8] = [0, 0, 0, 1, 0x41, 0x9A, 0x02, 0x00]

    @Test func findsTheUnitsOfAnAccessUnit() {
        var found: [(UInt8, [UInt8])] = []
        idrUnit.withUnsafeBytes { H264.forEachNALUnit($0) { type, unit in found.append((type, Array(unit))) } }
        #expect(found.map(\.0) == [7, 8, 5])
        #expect(found[0].1 == [0x67, 0x42, 0xC0, 0x1E] && found[2].1 == [0x65, 0x88, 0x84], "a trailing zero is the next start code's")
    }

    @Test func keyFramesAndParameterSets() {
        #expect(idrUnit.withUnsafeBytes(H264.isKeyFrame) && !pUnit.withUnsafeBytes(H264.isKeyFrame))
        #expect(idrUnit.withUnsafeBytes(H264.parameterSets) == [0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1E, 0, 0, 0, 1, 0x68, 0xCE, 0x3C, 0x80])
        #expect(pUnit.withUnsafeBytes(H264.parameterSets) == nil, "a P frame carries none")
        #expect([UInt8]().withUnsafeBytes(H264.isKeyFrame) == false)
    }

    @Test func aDecoderWaitsForTheFirstKeyFrame() throws {
        let decoder = try #require(H264Decoder(maxPixels: 640 * 480))
        #expect(pUnit.withUnsafeBytes { decoder.decode($0) } == nil)
        #expect([UInt8](repeating: 0xAB, count: 64).withUnsafeBytes { decoder.decode($0) } == nil, "garbage is refused, not a crash")
    }

    func frame(_ unit: [UInt8]) -> CameraFrame {
        let view = unit.withUnsafeBytes { $0 } // callers keep `unit` alive
        return CameraFrame(
            pixelFormat: .h264, width: 64, height: 48, sequence: 1, timestampNanoseconds: 1,
            planes: FramePlane(bytes: view, stride: 0))
    }

    @Test func aConverterWaitsForTheStreamsFirstKeyFrameThenDropsUntilTheNextWhenBehind() {
        let converter = FrameConverter(target: .nv12, width: 64, height: 48)
        withExtendedLifetime((idrUnit, pUnit)) {
            #expect(converter.keyFrameWait(before: frame(pUnit)) == .discontinuity, "joined between key frames: not corrupt")
            #expect(converter.convert(frame(pUnit)) == nil && converter.corruptFrames == 0)
            #expect(converter.keyFrameWait(before: frame(idrUnit)) == nil, "the first IDR picture starts the stream")
            #expect(converter.keyFrameWait(before: frame(pUnit)) == nil, "in step: every frame is decoded")
            converter.skip(frame(pUnit), late: true)
            #expect(converter.keyFrameWait(before: frame(pUnit)) == .late, "its dependants go undecoded")
            #expect(converter.keyFrameWait(before: frame(idrUnit)) == nil, "an IDR picture starts afresh")
            #expect(converter.keyFrameWait(before: frame(pUnit)) == nil)
            converter.skip(frame(pUnit), late: false) // over the rate: decoded, no catching up
            #expect(converter.keyFrameWait(before: frame(pUnit)) == nil)
        }
    }

    @Test func otherFormatsNeverWait() {
        let converter = FrameConverter(target: .nv12, width: 64, height: 48)
        let yuyv = [UInt8](repeating: 128, count: 64 * 48 * 2)
        yuyv.withUnsafeBytes { bytes in
            let frame = CameraFrame(
                pixelFormat: .yuyv, width: 64, height: 48, sequence: 1, timestampNanoseconds: 1,
                planes: FramePlane(bytes: bytes, stride: 128))
            #expect(converter.keyFrameWait(before: frame) == nil && converter.convert(frame) != nil)
        }
    }
}
