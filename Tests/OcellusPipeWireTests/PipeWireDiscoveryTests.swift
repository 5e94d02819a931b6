import Foundation
import OcellusCore
import OcellusPipeWire
import Testing

/// The PipeWire backend against the real daemon of scripts/testbed.sh
/// (vcam0, vcam1, vmic0). Skipped outside the test bed.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["OCELLUS_TESTBED_DIR"] != nil), .timeLimit(.minutes(1)))
struct PipeWireDiscoveryTests {
    final class Recorder: DeviceBackendDelegate, @unchecked Sendable {
        let lock = NSCondition()
        var added: [DeviceFacts] = []
        var removed: [String] = []
        var failures: [OcellusError] = []
        func backend(_ backend: any DeviceBackend, didAdd facts: DeviceFacts) {
            lock.withLock {
                added.append(facts); lock.broadcast()
            }
        }
        func backend(_ backend: any DeviceBackend, didRemoveDeviceWithKey key: String) {
            lock.withLock {
                removed.append(key); lock.broadcast()
            }
        }
        func backend(_ backend: any DeviceBackend, didFail error: OcellusError) {
            lock.withLock {
                failures.append(error); lock.broadcast()
            }
        }
        func wait(until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            return lock.withLock {
                while !condition() { if !lock.wait(until: deadline) { return condition() } }
                return true
            }
        }
    }

    @Test func startReportsEveryDeviceWithDeviceObjectProperties() throws {
        let recorder = Recorder()
        let backend = PipeWireBackend()
        try backend.start(delegate: recorder, timeoutMilliseconds: 3000)
        defer { backend.stop() }
        let camera = try #require(recorder.added.first { $0.fallbackName == "vcam0" })
        #expect(camera.media == .video && camera.bus == "usb")
        #expect(camera.busPath == "pci-0000:00:14.0-usb-0:1:1.0") // from the Video/Device object
        #expect(camera.vendorID == 0x1d6b && camera.productID == 0x0110 && camera.serial == "VCAM-0000")
        #expect(camera.pluggedMicroseconds != nil)
        #expect(camera.formats.count == 9)
        #expect(
            camera.formats.first
                == VideoFormat(
                    pixelFormat: .yuyv, width: 640, height: 480,
                    frameRates: [FrameRate(30), FrameRate(15)]))
        #expect(camera.properties["object.serial"] == camera.backendKey)
        #expect(recorder.added.contains { $0.fallbackName == "vmic0" && $0.media == .audio })
    }

    @Test func hotplugIsReportedAndKeyedBySerial() throws {
        let recorder = Recorder()
        let backend = PipeWireBackend()
        try backend.start(delegate: recorder, timeoutMilliseconds: 3000)
        defer { backend.stop() }
        let before = recorder.added.count
        let camera = try TestBedCamera(name: "swhp0")
        #expect(recorder.wait { recorder.added.count == before + 1 })
        let facts = try #require(recorder.added.last)
        #expect(facts.fallbackName == "swhp0" && facts.isSoftwareSource)
        camera.unplug()
        #expect(recorder.wait { recorder.removed == [facts.backendKey] })
    }

    @Test func unreachableRemoteFailsWithinASecond() {
        let started = Date()
        #expect(throws: OcellusError.self) {
            try PipeWireBackend(remote: "/nonexistent/swift-pw-0").start(delegate: Recorder(), timeoutMilliseconds: 3000)
        }
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test func relativeRemoteResolvesInTheRuntimeDirectory() throws {
        let recorder = Recorder()
        let backend = PipeWireBackend(remote: "pipewire-0") // $XDG_RUNTIME_DIR/pipewire-0 of the test bed
        try backend.start(delegate: recorder, timeoutMilliseconds: 3000)
        backend.stop()
        #expect(recorder.added.contains { $0.fallbackName == "vcam1" })
    }
}

/// A virtual camera plugged for one test through scripts/testbed.sh; unplugged on deinit.
final class TestBedCamera {
    let name: String
    private let directory: String
    private static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/testbed.sh")
            .standardized.path
    }

    init(name: String, arguments: [String] = []) throws {
        self.name = name
        directory = ProcessInfo.processInfo.environment["OCELLUS_TESTBED_DIR"]!
        try Self.run(["add-camera", directory, name, "--sizes", "640x480", "--fps", "30"] + arguments)
    }

    func unplug() { try? Self.run(["remove-camera", directory, name, "KILL"]) }

    deinit { unplug() }

    struct Failure: Error { let command: String }

    /// Through system(3): Foundation's Process.waitUntilExit can miss the exit of a
    /// script whose background child (the camera) outlives it.
    private static func run(_ arguments: [String]) throws {
        let command =
            ([script] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ") + " >/dev/null"
        guard system(command) == 0 else { throw Failure(command: command) }
    }
}
