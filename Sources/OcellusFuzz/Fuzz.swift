import CLibPipeWire
// libFuzzer targets for everything Ocellus parses from outside (`make fuzz`): camera
// JPEGs and H.264, photos built from arbitrary JPEGs, state files, the kernel's V4L2
// answers, PipeWire format pods, depth maps of any size and stride through the
// depth outputs and the synchronizer, and raw frames whose buffers may be short of the
// format, size and strides they claim (another app renegotiated the camera). One binary; OCELLUS_FUZZ_TARGET picks the target.
// Built with -sanitize=fuzzer,address and -D FUZZING (main hands over to libFuzzer's
// driver); a plain build gets a main that says how to run it.
import CPipeWire
import OcellusMedia
import OcellusUSB
import OcellusV4L2

@testable import OcellusCapture
@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

enum FuzzTarget: String, CaseIterable {
    case mjpeg, h264, photo, state, v4l2, pod, depth, raw

    static let current: FuzzTarget = {
        guard let name = getenv("OCELLUS_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
            fputs("set OCELLUS_FUZZ_TARGET to one of: \(allCases.map(\.rawValue).joined(separator: ", "))\n", stderr)
            exit(64)
        }
        return target
    }()

    func run(_ data: UnsafeRawBufferPointer) {
        switch self {
        case .mjpeg: FuzzInputs.convert(data, as: .mjpeg)
        case .h264: FuzzInputs.convert(data, as: .h264)
        case .photo: FuzzInputs.photo(data)
        case .state: FuzzInputs.stateFiles(data)
        case .v4l2: _ = V4L2Discovery(system: FuzzV4L2System(data)).cameras()
        case .pod: FuzzInputs.pod(data)
        case .depth: FuzzInputs.depth(data)
        case .raw: FuzzInputs.raw(data)
        }
    }
}

enum FuzzInputs {
    /// Reused across inputs, as a stream's converters are across frames (the H.264 decoder keeps state).
    nonisolated(unsafe) static var converters: [FourCC: [FrameConverter]] = [:]

    static func frame(_ data: UnsafeRawBufferPointer, _ format: FourCC) -> CameraFrame {
        CameraFrame(
            pixelFormat: format, width: 64, height: 48, sequence: 1, timestampNanoseconds: 1, isFullRange: true,
            planes: FramePlane(bytes: data, stride: 0))
    }

    static func convert(_ data: UnsafeRawBufferPointer, as format: FourCC) {
        let targets =
            converters[format] ?? [
                FrameConverter(target: .nv12, width: 64, height: 48),
                FrameConverter(target: .bgra, width: 32, height: 24, rotation: 90)
            ]
        converters[format] = targets
        for converter in targets { _ = converter.convert(frame(data, format)) }
        // Center Stage's crop, at a window the input's first bytes make (any doubles: NaN, infinities, negatives).
        var framed = frame(data, format)
        framed.region = region(data)
        for converter in targets { _ = converter.convert(framed) }
    }

    /// A raw frame whose format, size and strides the input's first bytes set, its planes cut
    /// from the rest at lengths the input sets too, through converters scaling, turning and
    /// framing it: what a frame that claims more than its buffer holds must never be read as.
    static func raw(_ data: UnsafeRawBufferPointer) {
        guard data.count >= 8 else { return }
        let formats: [FourCC] = [.yuyv, .uyvy, .nv12, .i420]
        let format = formats[Int(data[0]) % formats.count]
        let width = UInt32(data[1] % 80), height = UInt32(data[2] % 60)
        let stride = Int(data[3]), chromaStride = Int(data[4])
        let payload = UnsafeRawBufferPointer(rebasing: data[8...])
        let firstLength = min(payload.count, Int(data[5]) * 32), secondLength = min(payload.count - firstLength, Int(data[6]) * 16)
        func plane(_ start: Int, _ length: Int, _ stride: Int) -> FramePlane {
            FramePlane(bytes: UnsafeRawBufferPointer(rebasing: payload[start..<start + length]), stride: stride)
        }
        let rest = firstLength + secondLength
        var frame = CameraFrame(
            pixelFormat: format, width: width, height: height, sequence: 1, timestampNanoseconds: 1,
            planes: plane(0, firstLength, stride), plane(firstLength, secondLength, chromaStride),
            plane(rest, payload.count - rest, chromaStride))
        let targets =
            converters[FourCC(rawValue: 0)] ?? [
                FrameConverter(target: .nv12, width: 64, height: 48),
                FrameConverter(target: .bgra, width: 32, height: 24, rotation: 90),
                FrameConverter(target: .i420, width: 80, height: 60, mirrored: true)
            ]
        converters[FourCC(rawValue: 0)] = targets
        for converter in targets { _ = converter.convert(frame) }
        frame.region = region(data)
        for converter in targets { _ = converter.convert(frame) }
    }

    static func region(_ data: UnsafeRawBufferPointer) -> PictureRegion {
        var values = [0.0, 0.0, 1.0, 1.0]
        for index in 0..<min(4, data.count / 8) { values[index] = data.loadUnaligned(fromByteOffset: index * 8, as: Double.self) }
        return PictureRegion(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// Reused across inputs, as a session's outputs are across frames.
    nonisolated(unsafe) static let depthOutputs = (
        raw: DepthDataOutput(), metres: DepthDataOutput(pixelFormat: .depthMetres),
        video: VideoDataOutput(), synchronized: DepthDataOutput()
    )
    nonisolated(unsafe) static let synchronizer = OutputSynchronizer(video: depthOutputs.video, depth: depthOutputs.synchronized)

    /// Maps whose size, stride and length the input sets (a camera pulled mid-frame sends short
    /// buffers), at times it sets, to both kinds of depth output and to the synchronizer.
    static func depth(_ data: UnsafeRawBufferPointer) {
        guard data.count >= 8 else { return }
        let width = UInt32(data[0] % 64), height = UInt32(data[1] % 48), stride = Int(data[2]) * 2
        let formats: [FourCC] = [.z16, .y16, .y12, .yuyv]
        let format = formats[Int(data[3]) % formats.count]
        let payload = UnsafeRawBufferPointer(rebasing: data[8...])
        var time = UInt64(data[4]) << 20
        for (index, step) in payload.prefix(16).enumerated() {
            time += UInt64(step) << 18
            let frame = CameraFrame(
                pixelFormat: format, width: width, height: height, sequence: UInt64(index) + UInt64(data[5] % 3),
                timestampNanoseconds: time, planes: FramePlane(bytes: payload, stride: stride))
            let arrival = monotonicNanoseconds()
            withUnsafePointer(to: frame) { map in
                depthOutputs.raw.deliver(map, arrival: arrival)
                depthOutputs.metres.deliver(map, arrival: arrival)
            }
            synchronizer.arrived(frame, from: step & 1 == 0 ? .first : .second)
        }
    }

    static func photo(_ data: UnsafeRawBufferPointer) {
        _ = try? JPEGPhoto.make(from: frame(data, .mjpeg), metadata: PhotoMetadata(orientation: 6, make: "fuzz", model: "fuzz"))
    }

    static func stateFiles(_ data: UnsafeRawBufferPointer) {
        let bytes = Array(data)
        _ = StateFile.verify(bytes, unsealedHeader: SelectionState.unsealedHeader)
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? SelectionState.parse(text, currentBootID: "6497519e-e543-416e-998c-a14728216940")
        _ = MountingCorrections.parse(.intact(text))
    }

    /// A pod as PipeWire hands one over: its header's size never exceeds the message.
    static func pod(_ data: UnsafeRawBufferPointer) {
        guard data.count >= 8 else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 8)
        defer { buffer.deallocate() }
        buffer.copyMemory(from: data)
        let claimed = buffer.load(as: UInt32.self)
        buffer.storeBytes(of: min(claimed, UInt32(data.count - 8)), as: UInt32.self)
        var parsed = ocpw_video_format()
        _ = ocpw_parse_video_format(buffer.baseAddress!.assumingMemoryBound(to: spa_pod.self), &parsed)
    }
}

/// The kernel, answering every V4L2 ioctl with the fuzzer's bytes: the argument struct is
/// filled from the input and the call succeeds or fails as the next byte says; once the
/// input is used up every call fails (so enumerations end).
final class FuzzV4L2System: V4L2System, @unchecked Sendable {
    private var input: [UInt8]
    private var offset = 0

    init(_ data: UnsafeRawBufferPointer) { input = Array(data) }

    private func next() -> UInt8? {
        guard offset < input.count else { return nil }
        defer { offset += 1 }
        return input[offset]
    }

    func videoNodes() -> [String] { ["video0", "video1", "video2"] }
    func deviceDirectory(ofNode node: String) -> String? { "/sys/devices/fuzz/\(node)" }
    func resolveLink(_ path: String) -> String? { nil }
    func usbIdentity(containing directory: String) -> USBIdentity? { nil }
    func attribute(_ path: String) -> String? { nil }
    func usbLayout(ofDevice directory: String) -> USBDeviceLayout? { nil }
    func open(node: String) -> Int32 { (next() ?? 0) % 8 == 7 ? -ENOENT : 3 }
    func close(_ fd: Int32) {}
    func map(_ fd: Int32, length: Int, offset: Int64) -> UnsafeMutableRawPointer? { nil }
    func unmap(_ memory: UnsafeMutableRawPointer, length: Int) {}

    func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        guard let verdict = next(), verdict % 4 != 0 else { return -EINVAL }
        let size = Int((request >> 16) & 0x3fff)
        // The index the caller asked for stays put, as a driver leaves it.
        let keep = min(size, 4)
        for index in keep..<size { argument.storeBytes(of: next() ?? 0, toByteOffset: index, as: UInt8.self) }
        return 0
    }
}

#if FUZZING
/// libFuzzer's driver, started from the executable's entry point (SwiftPM names it
/// `OcellusFuzz_main` and points `main` there, so libFuzzer's own main stays out).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.current.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@_cdecl("OcellusFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
}
#else
@main
struct FuzzMain {
    static func main() {
        fputs("ocellus-fuzz is a libFuzzer target: build and run it with `make fuzz`\n", stderr)
        exit(64)
    }
}
#endif
