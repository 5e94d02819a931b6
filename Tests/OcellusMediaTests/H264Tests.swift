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
        let view = unit.withUnsafeBytes { $0 }   // callers keep `unit` alive
        return CameraFrame(pixelFormat: .h264, width: 64, height: 48, sequence: 1, timestampNanoseconds: 1,
                           planes: FramePlane(bytes: view, stride: 0))
    }

    @Test func anOutputBehindDropsUntilTheNextKeyFrame() {
        let converter = FrameConverter(target: .nv12, width: 64, height: 48)
        withExtendedLifetime((idrUnit, pUnit)) {
            #expect(!converter.isCatchingUp(before: frame(pUnit)), "in step: every frame is decoded")
            converter.skip(frame(pUnit), late: true)
            #expect(converter.isCatchingUp(before: frame(pUnit)), "its dependants go undecoded")
            #expect(!converter.isCatchingUp(before: frame(idrUnit)), "an IDR picture starts afresh")
            #expect(!converter.isCatchingUp(before: frame(pUnit)))
            converter.skip(frame(pUnit), late: false)   // over the rate: decoded, no catching up
            #expect(!converter.isCatchingUp(before: frame(pUnit)))
        }
    }
}
