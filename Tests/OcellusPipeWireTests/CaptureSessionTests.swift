import Foundation
import OcellusCapture
import OcellusCore
import OcellusPipeWire
import OcellusSystem
import Testing

/// Capture sessions streaming from the virtual cameras of scripts/testbed.sh over the
/// real daemon. Frames are checked on content: the virtual camera draws a luma ramp
/// (Y = 16 + 219·x/width, but for a moving bright bar) with U + V = 256 everywhere.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["OCELLUS_TESTBED_DIR"] != nil), .serialized, .timeLimit(.minutes(2)))
struct CaptureSessionTests {
    final class Frames: @unchecked Sendable {
        let lock = NSCondition()
        var count = 0
        var checked: [String] = [] // failures found in frame content
        var lastSequence: UInt64?
        var sequenceGaps = 0
        var runtimeErrors: [OcellusError] = []

        func record(_ problem: String?, sequence: UInt64) {
            lock.withLock {
                if let problem { checked.append(problem) }
                if let last = lastSequence, sequence != last + 1 { sequenceGaps += 1 }
                lastSequence = sequence
                count += 1
                lock.broadcast()
            }
        }

        func wait(_ timeout: TimeInterval = 10, until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            return lock.withLock {
                while !condition() { if !lock.wait(until: deadline) { return condition() } }
                return true
            }
        }
    }

    func hub() throws -> DeviceHub {
        try DeviceHub.system(appID: "org.ocellus.test.capture", stateDirectory: NSTemporaryDirectory() + "ocellus-capture-tests")
    }

    func camera(_ hub: DeviceHub, _ uniqueID: String = "usb-1d6b:0110-VCAM-0000") throws -> Device {
        try #require(hub.devices().first { $0.uniqueID == uniqueID })
    }

    /// Luma at x on a row is the ramp value unless x is under the bar; chroma sums to 256.
    static func checkRamp(luma: (Int) -> UInt8, chroma: (Int) -> (UInt8, UInt8), width: Int) -> String? {
        var offRamp = 0
        for x in stride(from: 0, to: width, by: 7) {
            let expected = 16 + x * 219 / width
            if abs(Int(luma(x)) - expected) > 1 && luma(x) != 235 { offRamp += 1 }
        }
        if offRamp > 0 { return "\(offRamp) luma samples off the ramp" }
        for x in stride(from: 0, to: width / 2, by: 5) {
            let (u, v) = chroma(x)
            if Int(u) + Int(v) != 256 { return "chroma \(u)+\(v) at \(x)" }
        }
        return nil
    }

    @Test func yuyvPassthroughDeliversThePattern() throws {
        let hub = try hub()
        defer { hub.close() }
        let session = CaptureSession.system(hub: hub)
        let output = VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480)
        let frames = Frames()
        output.frameHandler = { frame in
            let plane = frame.plane(0)!
            let row = UnsafeRawBufferPointer(rebasing: plane.bytes[plane.stride * 100..<plane.stride * 101])
            let problem =
                frame.width != 640 || frame.height != 480 || plane.bytes.count != 640 * 480 * 2
                ? "size" : Self.checkRamp(luma: { row[$0 * 2] }, chroma: { (row[$0 * 4 + 1], row[$0 * 4 + 3]) }, width: 640)
            frames.record(problem, sequence: frame.sequence)
        }
        try session.addInput(try camera(hub))
        try session.addOutput(output)
        try session.startRunning()
        #expect(session.activeFormat?.pixelFormat == .yuyv)
        #expect(frames.wait { frames.count >= 20 })
        try session.stopRunning()
        #expect(frames.checked.isEmpty, "\(frames.checked.prefix(3))")
        #expect(frames.sequenceGaps == 0)
    }

    @Test func nv12PassthroughHasTwoPlanes() throws {
        let hub = try hub()
        defer { hub.close() }
        let session = CaptureSession.system(hub: hub)
        let output = VideoDataOutput(pixelFormat: .nv12, width: 1280, height: 720)
        let frames = Frames()
        output.frameHandler = { frame in
            guard frame.planeCount == 2, let luma = frame.plane(0), let chroma = frame.plane(1) else {
                return frames.record("planes", sequence: frame.sequence)
            }
            let row = UnsafeRawBufferPointer(rebasing: luma.bytes[luma.stride * 10..<luma.stride * 11])
            let uv = UnsafeRawBufferPointer(rebasing: chroma.bytes[chroma.stride * 5..<chroma.stride * 6])
            let problem =
                chroma.bytes.count != 1280 * 720 / 2 ? "chroma size" : Self.checkRamp(luma: { row[$0] }, chroma: { (uv[$0 * 2], uv[$0 * 2 + 1]) }, width: 1280)
            frames.record(problem, sequence: frame.sequence)
        }
        try session.addInput(try camera(hub))
        try session.addOutput(output)
        try session.startRunning()
        #expect(frames.wait { frames.count >= 10 })
        try session.stopRunning()
        #expect(frames.checked.isEmpty, "\(frames.checked.prefix(3))")
    }

    @Test func mjpegPassthroughKeepsTheCamerasJPEG() throws {
        let hub = try hub()
        defer { hub.close() }
        let session = CaptureSession.system(hub: hub)
        let output = VideoDataOutput(pixelFormat: .mjpeg, width: 640, height: 480)
        let frames = Frames()
        output.frameHandler = { frame in
            let bytes = frame.plane(0)!.bytes
            let whole = bytes.count > 4 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[bytes.count - 2] == 0xFF && bytes[bytes.count - 1] == 0xD9
            frames.record(whole ? nil : "not a whole JPEG", sequence: frame.sequence)
        }
        try session.addInput(try camera(hub))
        try session.addOutput(output)
        try session.startRunning()
        #expect(frames.wait { frames.count >= 5 })
        try session.stopRunning()
        #expect(frames.checked.isEmpty)
    }

    @Test func microphoneInputFeedsAudioDataOutputs() throws {
        let hub = try hub()
        defer { hub.close() }
        let microphone = try camera(hub, "pipewire-vmic0")
        let session = CaptureSession.system(hub: hub)
        let audio = AudioDataOutput()
        let lock = NSCondition()
        var (frames, peak, timestamps, formats) = (0, Float(0), [UInt64](), Set<String>())
        audio.sampleHandler = { buffer in
            lock.withLock {
                frames += buffer.frameCount
                peak = max(peak, buffer.samples.map(abs).max() ?? 0)
                timestamps.append(buffer.timestampNanoseconds)
                formats.insert("\(buffer.format.channels)x\(buffer.format.sampleRate)")
                lock.broadcast()
            }
        }
        #expect(throws: OcellusError.self) { try session.addAudioInput(try camera(hub)) } // a camera is no microphone
        try session.addInput(try camera(hub))
        try session.addAudioInput(microphone)
        try session.addAudioOutput(audio)
        try session.startRunning()
        let started = Date()
        lock.withLock { while frames < 48_000 && Date().timeIntervalSince(started) < 10 { lock.wait(until: started + 10) } }
        let elapsed = Date().timeIntervalSince(started)
        try session.stopRunning()
        let after = audio.deliveredFrames
        Thread.sleep(forTimeInterval: 0.2)
        lock.withLock {
            #expect(frames >= 48_000 && elapsed < 3, "48 kHz: a second of PCM in about a second (\(frames) in \(elapsed) s)")
            #expect(formats == ["2x48000"] && peak > 0.1, "the test source's tone, as float stereo")
            #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 })
        }
        #expect(audio.deliveredFrames == after, "nothing after stop")
    }

    @Test func producerKilledMidStreamIsARuntimeError() throws {
        let plug = try TestBedCamera(name: "capkill")
        let hub = try hub()
        defer { hub.close() }
        let device = try camera(hub, "pipewire-capkill")
        let session = CaptureSession.system(hub: hub)
        let frames = Frames()
        let output = VideoDataOutput()
        output.frameHandler = { frames.record(nil, sequence: $0.sequence) }
        _ = session.events.addObserver { event in
            if case .runtimeError(let error) = event {
                frames.lock.withLock {
                    frames.runtimeErrors.append(error); frames.lock.broadcast()
                }
            }
        }
        try session.addInput(device)
        try session.addOutput(output)
        try session.startRunning()
        #expect(frames.wait { frames.count >= 3 })
        plug.unplug()
        #expect(frames.wait { !frames.runtimeErrors.isEmpty })
        #expect(frames.runtimeErrors.first?.code == .disconnected)
        #expect(!session.isRunning)
        try session.stopRunning() // harmless after a runtime error
    }

    @Test func aFailedCommitLeavesTheRunningConfigurationAlone() throws {
        let hub = try hub()
        defer { hub.close() }
        let session = CaptureSession.system(hub: hub)
        let frames = Frames()
        let first = VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480)
        first.frameHandler = { frames.record(nil, sequence: $0.sequence) }
        try session.addInput(try camera(hub))
        try session.addOutput(first)
        try session.startRunning()
        #expect(frames.wait { frames.count >= 3 })
        session.beginConfiguration()
        try session.addOutput(VideoDataOutput(pixelFormat: .nv12, width: 1000, height: 1000)) // no such aspect
        #expect { try session.commitConfiguration() } throws: {
            ($0 as? OcellusError)?.message.contains("1000x1000 (1:1) cannot be cut from any size it streams") == true
        }
        #expect(session.outputs.count == 1 && session.activeFormat?.pixelFormat == .yuyv)
        let before = frames.count
        #expect(frames.wait { frames.count >= before + 3 }) // still streaming
        #expect(!session.canAddOutput(VideoDataOutput(pixelFormat: FourCC("Y41P"))))
        #expect(throws: OcellusError.self) { try session.addOutput(VideoDataOutput(width: 123, height: 45)) }
        try session.stopRunning()
        #expect(throws: OcellusError.self) { try session.commitConfiguration() } // no begin
    }

    @Test func twoOutputsOfDifferentFormatsAndSizesFromOneStream() throws {
        let hub = try hub()
        defer { hub.close() }
        let session = CaptureSession.system(hub: hub)
        let full = VideoDataOutput(pixelFormat: .nv12, width: 1280, height: 720)
        let preview = VideoDataOutput(pixelFormat: .bgra, width: 320, height: 180)
        let fullFrames = Frames(), previewFrames = Frames()
        full.frameHandler = { frame in
            let luma = frame.plane(0)!
            let row = UnsafeRawBufferPointer(rebasing: luma.bytes[luma.stride * 50..<luma.stride * 51])
            let uv = UnsafeRawBufferPointer(rebasing: frame.plane(1)!.bytes[0..<frame.plane(1)!.stride])
            fullFrames.record(
                Self.checkRamp(luma: { row[$0] }, chroma: { (uv[$0 * 2], uv[$0 * 2 + 1]) }, width: 1280),
                sequence: frame.sequence)
        }
        preview.frameHandler = { frame in
            let plane = frame.plane(0)!
            let ok =
                frame.width == 320 && frame.height == 180 && plane.stride == 1280 && plane.bytes.count == 320 * 180 * 4
                && plane.bytes[3] == 255
            previewFrames.record(ok ? nil : "preview layout", sequence: frame.sequence)
        }
        try session.addInput(try camera(hub))
        session.beginConfiguration()
        try session.addOutput(full)
        try session.addOutput(preview)
        try session.commitConfiguration()
        try session.startRunning()
        // The stream serves the larger output natively (NV12 1280x720); the preview is converted.
        #expect(session.activeFormat.map { ($0.pixelFormat, $0.width) } ?? (.yuyv, 0) == (.nv12, 1280))
        #expect(fullFrames.wait { fullFrames.count >= 10 } && previewFrames.wait { previewFrames.count >= 10 })
        try session.stopRunning()
        #expect(fullFrames.checked.isEmpty && previewFrames.checked.isEmpty, "\(fullFrames.checked.prefix(2)) \(previewFrames.checked.prefix(2))")
    }

    @Test func mjpegCameraConvertedToNV12KeepsThePattern() throws {
        let plug = try TestBedCamera(name: "capmjpg", arguments: ["--formats", "MJPG"])
        _ = plug
        let hub = try hub()
        defer { hub.close() }
        let session = CaptureSession.system(hub: hub)
        let output = VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480)
        let frames = Frames()
        output.frameHandler = { frame in
            let luma = frame.plane(0)!
            let row = UnsafeRawBufferPointer(rebasing: luma.bytes[luma.stride * 200..<luma.stride * 201])
            // JPEG round trip (the camera sends full-range JFIF, NV12 is video range): the ramp as drawn, within a few levels.
            var off = 0
            for x in stride(from: 8, to: 600, by: 16) where abs(Int(row[x]) - (16 + x * 219 / 640)) > 6 && row[x] < 220 { off += 1 }
            frames.record(!frame.isFullRange && off < 4 ? nil : "off ramp \(off) full \(frame.isFullRange)", sequence: frame.sequence)
        }
        try session.addInput(try camera(hub, "pipewire-capmjpg"))
        try session.addOutput(output)
        try session.startRunning()
        #expect(session.activeFormat?.pixelFormat == .mjpeg)
        #expect(frames.wait { frames.count >= 5 })
        try session.stopRunning()
        #expect(frames.checked.isEmpty, "\(frames.checked.prefix(3))")
    }

    @Test func startAndStopManyTimesLeavesNoDescriptorsBehind() throws {
        let hub = try hub()
        defer { hub.close() }
        let session = CaptureSession.system(hub: hub)
        try session.addInput(try camera(hub))
        try session.addOutput(VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480))
        func descriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0 }
        try session.startRunning()
        try session.stopRunning()
        let baseline = descriptors()
        for _ in 0..<40 {
            try session.startRunning()
            try session.stopRunning()
        }
        // The count is the process's, and other suites run meanwhile (sox pipes, their own
        // streams): a few come and go. A leak grows with the rounds: one per round is 40.
        let grown = descriptors() - baseline
        #expect(grown < 10, "\(grown) more descriptors after 40 starts and stops")
    }
}
