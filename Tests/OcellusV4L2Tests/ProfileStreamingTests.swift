import Foundation
import OcellusCapture
import OcellusCore
import OcellusTestSupport
import Testing

@testable import OcellusV4L2

/// A recorded camera streams through the V4L2 backend that found it — opened by the hub a
/// session is made from, with the backend's own system (the replay, not the machine's kernel).
@Suite struct ProfileStreamingTests {
    struct Bed {
        let system: ProfileSystem
        let hub: DeviceHub
        let camera: Device

        init(_ profile: String) throws {
            system = try ProfileSystem(profiles: [profile])
            hub = try ScriptedCameras.hub([V4L2Backend(system: system, hotplug: false)], appID: "org.ocellus.test.replay")
            camera = try #require(hub.devices().first)
        }
    }

    final class Received: @unchecked Sendable {
        private let lock = NSCondition()
        private var frames: [(sequence: UInt64, width: UInt32, height: UInt32, pixelFormat: FourCC, firstRow: [UInt8])] = []
        func append(_ frame: CameraFrame) {
            let row = frame.plane(0).map { Array($0.bytes.prefix(8)) } ?? []
            lock.withLock {
                frames.append((frame.sequence, frame.width, frame.height, frame.pixelFormat, row)); lock.broadcast()
            }
        }
        func wait(for count: Int) -> [(sequence: UInt64, width: UInt32, height: UInt32, pixelFormat: FourCC, firstRow: [UInt8])] {
            let deadline = Date().addingTimeInterval(5)
            return lock.withLock {
                while frames.count < count && lock.wait(until: deadline) {}
                return frames
            }
        }
    }

    @Test func aRecordedCameraStreamsThroughItsBackendAndTheHub() throws {
        let bed = try Bed("logitech-c920")
        defer { bed.hub.close() }
        let session = CaptureSession(opener: bed.hub)
        let output = VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480)
        let received = Received()
        output.frameHandler = received.append
        try session.addInput(bed.camera)
        try session.addOutput(output)
        try session.startRunning()
        #expect(bed.system.streams.streamingNodes == ["video0"])
        for value in [UInt8(10), 20, 30] {
            // Wait for a queued buffer as a driver would: the stream requeues after each delivery.
            let deadline = Date().addingTimeInterval(5)
            while !bed.system.streams.produceFrame(on: "video0", { bytes, _ in bytes.initializeMemory(as: UInt8.self, repeating: value) })
                && Date() < deadline
            { usleep(1000) }
        }
        let frames = received.wait(for: 3)
        try session.stopRunning()
        #expect(frames.map(\.sequence) == [0, 1, 2])
        #expect(frames.allSatisfy { $0.width == 640 && $0.height == 480 && $0.pixelFormat == .yuyv })
        #expect(frames.map { $0.firstRow.first } == [10, 20, 30])
        #expect(bed.system.streams.streamingNodes.isEmpty && bed.system.streams.mappedBuffers == 0)
        #expect(bed.system.openDescriptorCount == 0, "the stream closed its node")
    }

    @Test func aCameraPulledWhileStreamingStopsTheSessionAsDisconnected() throws {
        let bed = try Bed("logitech-c920")
        defer { bed.hub.close() }
        let session = CaptureSession(opener: bed.hub)
        try session.addInput(bed.camera)
        try session.addOutput(VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480))
        let log = EventLog<CaptureSession.Event>()
        let observer = session.events.addObserver(log.append)
        defer { session.events.removeObserver(observer) }
        try session.startRunning()
        bed.system.streams.unplug("video0")
        #expect(log.wait { events in events.contains { if case .runtimeError(let error) = $0 { error.code == .disconnected } else { false } } })
        try session.stopRunning()
        #expect(bed.system.openDescriptorCount == 0 && bed.system.streams.mappedBuffers == 0)
    }

    @Test func aSizeTheCameraDoesNotStreamIsRefusedNotChanged() throws {
        let bed = try Bed("logitech-c920")
        defer { bed.hub.close() }
        let format = try #require(bed.camera.formats.first { $0.pixelFormat == .yuyv })
        // Asked at a size the recording does not list, the replay (as drivers do) picks another:
        // the stream refuses instead of delivering a size nobody asked for.
        #expect(throws: OcellusError.self) {
            try bed.hub.openStream(for: bed.camera, format: format.sized(width: 642, height: 480), frameRate: FrameRate(30)) { _ in }
        }
        #expect(bed.system.openDescriptorCount == 0)
    }
}
