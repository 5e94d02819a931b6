import Foundation
import OcellusCapture
import OcellusCore
import Testing

@testable import OcellusV4L2

/// Backend-level streaming against the kernel's vivid driver. Runs only inside the
/// vivid VM (Tests/vivid/run.sh sets OCELLUS_VIVID=1 and loads vivid).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["OCELLUS_VIVID"] == "1"), .serialized, .timeLimit(.minutes(2)))
struct VividStreamTests {
    final class Collector: @unchecked Sendable {
        let lock = NSCondition()
        var frames: [(sequence: UInt32, timestamp: UInt64, bytes: Int, corrupt: Bool)] = []
        var failure: OcellusError?

        func handle(_ event: V4L2Stream.Event) {
            lock.withLock {
                switch event {
                case .frame(let frame): frames.append((frame.sequence, frame.timestampNanoseconds, frame.bytes.count, frame.isCorrupt))
                case .failed(let error): failure = error
                }
                lock.broadcast()
            }
        }

        func wait(_ timeout: TimeInterval = 30, until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            return lock.withLock {
                while !condition() { if !lock.wait(until: deadline) { return condition() } }
                return true
            }
        }
    }

    func vividNode(_ busInfo: String = "platform:vivid-000") throws -> String {
        let camera = V4L2Discovery(system: LinuxV4L2System()).cameras().first { $0.properties["api.v4l2.cap.bus_info"] == busInfo }
        return try #require(camera?.properties["api.v4l2.path"])
    }

    func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    func sysfs(_ file: String, _ value: String) throws {
        try value.write(toFile: "/sys/bus/platform/drivers/vivid/\(file)", atomically: false, encoding: .utf8)
    }

    @Test func sixtyFramesAtTheRequestedRateWithConsecutiveSequenceNumbers() throws {
        let stream = V4L2Stream(devicePath: try vividNode())
        let collector = Collector()
        let format = try stream.start(pixelFormat: .yuyv, width: 320, height: 180, frameRate: FrameRate(30), handler: collector.handle)
        #expect(format == .init(pixelFormat: .yuyv, width: 320, height: 180, bytesPerLine: 640, frameRate: FrameRate(30)))
        #expect(collector.wait { collector.frames.count >= 60 })
        stream.stop()
        let frames = collector.lock.withLock { Array(collector.frames.prefix(60)) }
        // The kernel's own numbers, in order: consecutive, but for a frame vivid drops when the guest
        // is starved of CPU on a loaded host (a gap, never a repeat or a reordering). 3 in 60 were
        // seen with two builds beside the guest on 2 cores; more than 6 is a stream that fell behind.
        #expect(zip(frames.dropFirst(), frames).allSatisfy { $0.sequence > $1.sequence }, "sequence \(frames.map(\.sequence))")
        #expect(frames[59].sequence - frames[0].sequence <= 65, "sequence \(frames.map(\.sequence))")
        #expect(frames.allSatisfy { $0.bytes == 320 * 180 * 2 && !$0.corrupt })
        let intervals = zip(frames.dropFirst(), frames).map { Double($0.timestamp - $1.timestamp) / 1e6 }.sorted()
        let median = intervals[intervals.count / 2]
        #expect(abs(median - 1000.0 / 30) < 1000.0 / 30 * 0.25, "median frame interval \(median) ms")
    }

    @Test func aSecondClientIsToldTheCameraIsInUse() throws {
        let node = try vividNode()
        let first = V4L2Stream(devicePath: node)
        _ = try first.start(pixelFormat: .yuyv, width: 320, height: 180, frameRate: FrameRate(30)) { _ in }
        defer { first.stop() }
        let second = V4L2Stream(devicePath: node)
        #expect {
            _ = try second.start(pixelFormat: .yuyv, width: 320, height: 180, frameRate: FrameRate(30)) { _ in }
        } throws: { ($0 as? OcellusError)?.code == .busy }
    }

    @Test func injectedDriverErrorEndsTheStreamWithARuntimeError() throws {
        let node = try vividNode()
        let stream = V4L2Stream(devicePath: node)
        let collector = Collector()
        _ = try stream.start(pixelFormat: .yuyv, width: 320, height: 180, frameRate: FrameRate(30), handler: collector.handle)
        #expect(collector.wait { collector.frames.count >= 5 })
        try V4L2Controls(devicePath: node).setControl(named: "inject_fatal_streaming_error", to: 0)
        #expect(collector.wait { collector.failure != nil })
        #expect(collector.failure?.code == .other && collector.failure?.message.contains("I/O error") == true)
        stream.stop()
    }

    @Test func stopFromTheFrameHandlerEndsTheStreamAndLeavesNoDescriptorOpen() throws {
        let node = try vividNode()
        let before = openDescriptors()
        let stream = V4L2Stream(devicePath: node)
        let collector = Collector()
        _ = try stream.start(pixelFormat: .yuyv, width: 320, height: 180, frameRate: FrameRate(30)) { event in
            collector.handle(event)
            if case .frame = event { stream.stop() }
        }
        #expect(collector.wait { !collector.frames.isEmpty })
        // The streaming thread frees the buffers and descriptors itself once the handler returns.
        for _ in 0..<200 where openDescriptors() != before { usleep(10_000) }
        #expect(openDescriptors() == before)
        usleep(200_000)
        #expect(collector.lock.withLock { collector.frames.count } == 1)
        #expect(collector.failure == nil)
        let again = V4L2Stream(devicePath: node) // the camera is free again
        _ = try again.start(pixelFormat: .yuyv, width: 320, height: 180, frameRate: FrameRate(30)) { _ in }
        again.stop()
    }

    @Test func unplugWhileStreamingIsADisconnectAndLeavesNoDescriptorOpen() throws {
        let node = try vividNode()
        let before = openDescriptors()
        let stream = V4L2Stream(devicePath: node)
        let collector = Collector()
        _ = try stream.start(pixelFormat: .yuyv, width: 320, height: 180, frameRate: FrameRate(30), handler: collector.handle)
        #expect(collector.wait { collector.frames.count >= 5 })
        try sysfs("unbind", "vivid.0")
        #expect(collector.wait { collector.failure != nil })
        #expect(collector.failure?.code == .disconnected)
        stream.stop()
        #expect(openDescriptors() == before)
        try sysfs("bind", "vivid.0")
        #expect(FileManager.default.fileExists(atPath: try vividNode()))
    }
}

/// A capture session over the raw V4L2 backend (no PipeWire in the VM); in the same
/// serialized suite as the stream tests, since vivid serves one stream at a time.
extension VividStreamTests {
    @Test func sessionStreamsFromVividAndReportsTheUnplug() throws {
        let hub = try DeviceHub(
            appID: "org.ocellus.test.vivid.session", backends: [V4L2Backend()], timeoutMilliseconds: 0,
            stateDirectory: NSTemporaryDirectory() + "ocellus-vivid-session")
        defer { hub.close() }
        let camera = try #require(hub.devices().first { $0.uniqueID == "v4l2-platform:vivid-000" })
        let collector = VividStreamTests.Collector()
        let session = CaptureSession(opener: V4L2Opener())
        let output = VideoDataOutput(pixelFormat: .nv12, width: 640, height: 360)
        output.frameHandler = { frame in
            let sizes = (frame.plane(0)?.bytes.count ?? 0, frame.plane(1)?.bytes.count ?? 0)
            collector.lock.withLock {
                collector.frames.append(
                    (
                        UInt32(frame.sequence), frame.timestampNanoseconds, sizes.0 + sizes.1,
                        sizes != (640 * 360, 640 * 360 / 2)
                    ))
                collector.lock.broadcast()
            }
        }
        _ = session.events.addObserver { event in
            if case .runtimeError(let error) = event {
                collector.lock.withLock {
                    collector.failure = error; collector.lock.broadcast()
                }
            }
        }
        try session.addInput(camera)
        try session.addOutput(output)
        try session.startRunning()
        #expect(collector.wait { collector.frames.count >= 10 })
        #expect(collector.frames.allSatisfy { !$0.corrupt }) // `corrupt` marks a wrong plane layout here
        try "vivid.0".write(toFile: "/sys/bus/platform/drivers/vivid/unbind", atomically: false, encoding: .utf8)
        #expect(collector.wait { collector.failure != nil })
        #expect(collector.failure?.code == .disconnected && !session.isRunning)
        try "vivid.0".write(toFile: "/sys/bus/platform/drivers/vivid/bind", atomically: false, encoding: .utf8)
    }

    struct V4L2Opener: CameraStreamOpening {
        func openStream(
            for device: Device, format: VideoFormat, frameRate: FrameRate,
            handler: @escaping (CameraStreamEvent) -> Void
        ) throws(OcellusError) -> any CameraStream {
            try V4L2CameraStream(devicePath: device.properties["api.v4l2.path"]!, format: format, frameRate: frameRate, handler: handler)
        }
    }
}

extension VividStreamTests {
    /// Another client holds the camera: the session is interrupted, then starts by itself once it is free.
    @Test func sessionIsInterruptedWhileAnotherClientStreamsAndStartsWhenItStops() throws {
        let hub = try DeviceHub(
            appID: "org.ocellus.test.vivid.busy", backends: [V4L2Backend()], timeoutMilliseconds: 0,
            stateDirectory: NSTemporaryDirectory() + "ocellus-vivid-busy")
        defer { hub.close() }
        let camera = try #require(hub.devices().first { $0.uniqueID == "v4l2-platform:vivid-000" })
        let other = V4L2Stream(devicePath: try vividNode())
        _ = try other.start(pixelFormat: .yuyv, width: 320, height: 180, frameRate: FrameRate(30)) { _ in }
        let collector = Collector()
        let events = Pinned<[String]>([])
        let session = CaptureSession(opener: VividSessionOpener())
        _ = session.events.addObserver { event in
            collector.lock.withLock {
                events.pointer.pointee.append("\(event)")
                collector.lock.broadcast()
            }
        }
        let output = VideoDataOutput(pixelFormat: .yuyv, width: 320, height: 180)
        output.frameHandler = { frame in
            collector.lock.withLock {
                collector.frames.append((UInt32(frame.sequence), 0, 0, false)); collector.lock.broadcast()
            }
        }
        try session.addInput(camera)
        try session.addOutput(output)
        #expect { try session.startRunning() } throws: { ($0 as? OcellusError)?.code == .busy }
        #expect(collector.wait { events.pointer.pointee.contains { $0.hasPrefix("interrupted") } })
        other.stop()
        #expect(collector.wait { events.pointer.pointee.contains("interruptionEnded") && collector.frames.count >= 3 })
        #expect(session.isRunning)
        try session.stopRunning()
    }

    struct VividSessionOpener: CameraStreamOpening {
        func openStream(
            for device: Device, format: VideoFormat, frameRate: FrameRate,
            handler: @escaping (CameraStreamEvent) -> Void
        ) throws(OcellusError) -> any CameraStream {
            try V4L2CameraStream(devicePath: device.properties["api.v4l2.path"]!, format: format, frameRate: frameRate, handler: handler)
        }
    }
}
