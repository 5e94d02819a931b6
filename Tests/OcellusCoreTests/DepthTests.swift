import Foundation
import OcellusTestSupport
import Synchronization
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// Depth cameras in a session (behaviour §4, depth): which depth format runs beside the
/// picture, depth maps as views with their unit, the synchronizer's pairing, and what a
/// failing depth stream does to the session. Streams here are test doubles fed by hand:
/// the session's bookkeeping is under test (the USB gadget suite runs the same paths on
/// the real uvcvideo driver).
@Suite struct DepthTests {
    static let z16 = FourCC.z16

    /// A RealSense-like USB camera: colour formats, and depth on a function of its own.
    static let depthCamera = Device(
        uniqueID: "usb-8086:0b07-X", name: "Depth Camera", type: .depthCamera, position: .unspecified, backend: .v4l2,
        backendKey: "k",
        formats: [
            VideoFormat(pixelFormat: .yuyv, width: 640, height: 480, frameRates: [FrameRate(30), FrameRate(15)]),
            VideoFormat(pixelFormat: .yuyv, width: 1280, height: 720, frameRates: [FrameRate(15)])
        ],
        depthFormats: [
            VideoFormat(pixelFormat: z16, width: 848, height: 480, frameRates: [FrameRate(90), FrameRate(30)]),
            VideoFormat(pixelFormat: z16, width: 640, height: 480, frameRates: [FrameRate(30), FrameRate(15)]),
            VideoFormat(pixelFormat: z16, width: 320, height: 240, frameRates: [FrameRate(60)])
        ],
        vendorID: 0x8086, productID: 0x0b07, serialNumber: "X", pluggedMicroseconds: nil, properties: [:])

    /// A time-of-flight sensor: its only stream is its depth.
    static let tofCamera: Device = {
        let formats = [VideoFormat(pixelFormat: FourCC.y12, width: 240, height: 180, frameRates: [FrameRate(30)])]
        return Device(
            uniqueID: "v4l2-platform:tof", name: "ToF", type: .depthCamera, position: .unspecified, backend: .v4l2,
            backendKey: "t", formats: formats, depthFormats: formats, vendorID: nil, productID: nil, serialNumber: nil,
            pluggedMicroseconds: nil, properties: [:])
    }()

    /// A frame of `format` whose bytes are `words` (kept alive by the caller).
    static func frame(
        _ format: FourCC, _ width: UInt32, _ height: UInt32, sequence: UInt64, at time: UInt64,
        _ bytes: UnsafeRawBufferPointer, stride: Int
    ) -> CameraFrame {
        CameraFrame(
            pixelFormat: format, width: width, height: height, sequence: sequence, timestampNanoseconds: time,
            planes: FramePlane(bytes: bytes, stride: stride))
    }

    func choose(
        _ outputs: [DepthDataOutput], camera: Device = depthCamera,
        video: [VideoDataOutput] = []
    ) throws -> DepthSource? {
        var configuration = SessionConfiguration()
        configuration.input = camera
        configuration.outputs = video
        configuration.depthOutputs = outputs
        return try FormatChoice(conversion: nil).streams(for: configuration).depth
    }

    @Test func theDepthBesideThePictureHasItsAspectItsSizeAndItsRate() throws {
        // The picture runs YUYV 640x480 at 30 (the largest at 30 fps): depth 640x480 at 30, not the
        // wider 848x480 (another aspect) nor the faster 320x240.
        let source = try choose([DepthDataOutput()])
        #expect(
            source
                == .ownStream(
                    VideoFormat(
                        pixelFormat: Self.z16, width: 640, height: 480,
                        frameRates: [FrameRate(30), FrameRate(15)]), FrameRate(30)))
    }

    @Test func aPinnedDepthSizeIsStreamedAtItsOwnRateWhenThePicturesIsMissing() throws {
        let output = DepthDataOutput()
        try output.pinSize(320, 240)
        guard case .ownStream(let format, let rate) = try choose([output]) else { Issue.record("no depth stream"); return }
        #expect((format.width, format.height) == (320, 240) && rate == FrameRate(60))
    }

    @Test func depthIsNeverScaledAndOtherCamerasHaveNone() throws {
        let output = DepthDataOutput()
        try output.pinSize(1280, 720)
        #expect(throws: OcellusError.self) { try choose([output]) }
        let webcam = Device(
            uniqueID: "w", name: "w", type: .externalCamera, position: .unspecified, backend: .v4l2, backendKey: "w",
            formats: Self.depthCamera.formats, vendorID: nil, productID: nil, serialNumber: nil,
            pluggedMicroseconds: nil, properties: [:])
        let refusal = #expect(throws: OcellusError.self) { try choose([DepthDataOutput()], camera: webcam) }
        #expect(refusal?.code == .invalidArgument && refusal?.message.contains("not a depth camera") == true)
        #expect(throws: OcellusError.self, "a picture format is no depth") { try choose([DepthDataOutput(pixelFormat: .yuyv)]) }
    }

    @Test func aTimeOfFlightCamerasDepthIsItsPictureStream() throws {
        #expect(Self.tofCamera.depthSharesPictureStream)
        #expect(Self.tofCamera.depthFormats(beside: Self.tofCamera.formats[0]) == Self.tofCamera.formats)
        #expect(try choose([DepthDataOutput(pixelFormat: .depthMetres)], camera: Self.tofCamera) == .pictureStream)
        #expect(Self.depthCamera.depthFormats(beside: Self.depthCamera.formats[1]) == Self.depthCamera.depthFormats)
    }

    @Test func depthMapsAreViewsWithTheirUnitOrFloatMetres() throws {
        var words: [UInt16] = [0, 1000, 2500, 7, 0, 0, 65535, 42] // 3x2 with a stride of 4 words
        let raw = DepthDataOutput(), metres = DepthDataOutput(pixelFormat: .depthMetres)
        var seen: [(FourCC, Float, [Float])] = []
        try words.withUnsafeBytes { bytes in
            raw.frameHandler = { map in
                let base = map.plane(0)!.bytes.baseAddress!
                #expect(base == bytes.baseAddress, "a view of the camera's buffer, not a copy")
                seen.append((map.pixelFormat, map.depthUnit, []))
            }
            metres.frameHandler = { map in
                let plane = map.plane(0)!
                let values = Array(plane.bytes.bindMemory(to: Float.self))
                seen.append((map.pixelFormat, map.depthUnit, values))
            }
            let now = monotonicNanoseconds()
            let map = Self.frame(Self.z16, 3, 2, sequence: 1, at: now, bytes, stride: 8)
            raw.deliver(map)
            metres.deliver(map)
        }
        #expect(seen.count == 2)
        #expect(seen[0].0 == Self.z16 && seen[0].1 == 0.001)
        #expect(seen[1].0 == .depthMetres && seen[1].1 == 1)
        #expect(seen[1].2 == [0, 1.0, 2.5, 0, 0, 65.535], "0 stays 0 (no depth); the rows' padding is dropped")
        _ = words.popLast()
    }

    @Test func aShortDepthBufferIsCountedCorruptNotRead() throws {
        let words: [UInt16] = [1, 2, 3]
        let output = DepthDataOutput()
        var delivered = 0
        output.frameHandler = { _ in delivered += 1 }
        words.withUnsafeBytes { bytes in
            output.deliver(Self.frame(Self.z16, 4, 4, sequence: 1, at: monotonicNanoseconds(), bytes, stride: 8))
        }
        #expect(delivered == 0 && output.droppedFrames(.corrupt) == 1)
    }

    /// Feeds a synchronizer frames at the given times (ms) and returns the pairs' times.
    func pair(video: [UInt64], depth: [UInt64], videoRate: UInt32 = 30, depthRate: UInt32 = 30)
        -> (pairs: [(UInt64, UInt64)], unmatched: (UInt64, UInt64))
    {
        let videoOutput = VideoDataOutput(), depthOutput = DepthDataOutput()
        videoOutput.frameInterval = 1_000_000_000 / UInt64(videoRate)
        depthOutput.accounting.frameInterval = 1_000_000_000 / UInt64(depthRate)
        let synchronizer = OutputSynchronizer(video: videoOutput, depth: depthOutput)
        var pairs: [(UInt64, UInt64)] = []
        synchronizer.pairHandler = { pair in
            pairs.append((pair.first.timestampNanoseconds / 1_000_000, pair.second.timestampNanoseconds / 1_000_000))
        }
        let bytes = [UInt8](repeating: 0, count: 8)
        bytes.withUnsafeBytes { buffer in
            // Arrival order: by time, video first on ties.
            let events = (video.map { ($0, OutputSynchronizer.Side.first) } + depth.map { ($0, .second) }).sorted { $0.0 < $1.0 }
            for (sequence, (time, side)) in events.enumerated() {
                let frame = Self.frame(
                    side == .first ? .yuyv : Self.z16, 2, 2, sequence: UInt64(sequence), at: time * 1_000_000,
                    buffer, stride: 4)
                synchronizer.arrived(frame, from: side)
            }
        }
        return (pairs, (synchronizer.unmatchedFrames(.first), synchronizer.unmatchedFrames(.second)))
    }

    @Test func framesOfOneInstantArePairedDespiteJitter() {
        let result = pair(video: [0, 33, 67, 100], depth: [2, 31, 70, 101])
        #expect(result.pairs.map(\.0) == [0, 33, 67, 100] && result.pairs.map(\.1) == [2, 31, 70, 101])
        #expect(result.unmatched == (0, 0))
    }

    @Test func atHalfTheRateEveryDepthMapHasItsFrameAndEveryOtherFrameHasNone() {
        let video = (0..<8).map { UInt64($0) * 33 }, depth = (0..<4).map { UInt64($0) * 67 + 1 }
        let result = pair(video: video, depth: depth, videoRate: 30, depthRate: 15)
        #expect(result.pairs.count == 4 && result.pairs.allSatisfy { $0.0 <= $0.1 + 16 && $0.1 <= $0.0 + 16 })
        #expect(result.unmatched == (3, 0), "the frames between the maps; the last one still waits for a partner")
    }

    @Test func framesAcrossAGapInTheOtherStreamAreCountedUnmatched() {
        // The depth stream skipped 33..100 (a stall): those video frames have no partner.
        let result = pair(video: [0, 33, 67, 100, 133], depth: [1, 134])
        #expect(result.pairs.map(\.0) == [0, 133])
        #expect(result.unmatched == (3, 0))
        // And the other way round.
        let other = pair(video: [0, 133], depth: [1, 34, 68, 101, 134])
        #expect(other.pairs.map(\.1) == [1, 134] && other.unmatched == (0, 3))
    }

    @Test func aSessionStreamsDepthBesideThePictureAndAFailingDepthStreamStopsBoth() throws {
        let opener = ScriptedBackend()
        let session = CaptureSession(opener: opener)
        try session.addInput(Self.depthCamera)
        try session.addOutput(VideoDataOutput())
        let depth = DepthDataOutput()
        var maps = 0
        depth.frameHandler = { _ in maps += 1 }
        try session.addDepthOutput(depth)
        try session.startRunning()
        let streams = opener.opened
        #expect(streams.count == 2 && streams[1].format.pixelFormat == Self.z16)
        #expect(session.activeDepthFormat?.width == 640)
        let words = [UInt16](repeating: 800, count: 640 * 480)
        words.withUnsafeBytes { bytes in
            streams[1].feed(Self.frame(Self.z16, 640, 480, sequence: 1, at: monotonicNanoseconds(), bytes, stride: 1280))
        }
        #expect(maps == 1)
        var events: [String] = []
        let lock = NSLock()
        let observer = session.events.addObserver { event in lock.withLock { events.append("\(event)") } }
        let failing = Thread { streams[1].fail(OcellusError(.io, "the depth node failed")) }
        failing.start()
        let deadline = Date().addingTimeInterval(5)
        while (streams[0].stops.isEmpty || lock.withLock({ events.count }) < 2) && Date() < deadline { usleep(1000) }
        #expect(!session.isRunning)
        #expect(streams[0].stops.count == 1, "the picture stream stops with its depth")
        #expect(lock.withLock { events.first?.contains("depth stream: the depth node failed") } == true)
        try session.stopRunning()
        #expect(streams[1].stops.count == 1, "the failed depth stream is stopped by stopRunning")
        session.events.removeObserver(observer)
    }
}

extension DepthTests {
    /// Two cameras' pictures (a stereo pair): the same rules as a picture and its depth map.
    @Test func twoCamerasPicturesArePairedByCaptureTime() {
        let left = VideoDataOutput(), right = VideoDataOutput()
        left.frameInterval = 33_333_333
        right.frameInterval = 66_666_666 // 15 fps beside 30: every right frame pairs, every other left one does not
        let synchronizer = OutputSynchronizer(left, right)
        var pairs: [(UInt64, UInt64)] = []
        synchronizer.pairHandler = { pair in
            pairs.append((pair.first.timestampNanoseconds / 1_000_000, pair.second.timestampNanoseconds / 1_000_000))
        }
        let bytes = [UInt8](repeating: 0, count: 8)
        bytes.withUnsafeBytes { buffer in
            let events: [(UInt64, OutputSynchronizer.Side)] = [(0, .first), (3, .second), (33, .first), (67, .first), (70, .second), (100, .first)]
            for (sequence, (time, side)) in events.enumerated() {
                synchronizer.arrived(Self.frame(.yuyv, 2, 2, sequence: UInt64(sequence), at: time * 1_000_000, buffer, stride: 4), from: side)
            }
        }
        #expect(pairs.map(\.0) == [0, 67] && pairs.map(\.1) == [3, 70])
        #expect(synchronizer.unmatchedFrames(.first) == 1 && synchronizer.deliveredPairs == 2, "33 found none; 100 still waits")
    }
}
