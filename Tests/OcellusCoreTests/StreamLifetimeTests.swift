import Testing
import Foundation
@testable import OcellusCore

/// Who stops a camera stream that failed by itself (behaviour §4 runtime errors). A backend's
/// stream cannot tear itself down from its own thread, so the session must stop it on the
/// caller's thread. The stream here is a test double that records its stop calls: the
/// session's bookkeeping, not a backend, is under test (the PipeWire and vivid suites
/// run the same path with real cameras).
@Suite struct StreamLifetimeTests {
    final class RecordingStream: CameraStream, @unchecked Sendable {
        let format: VideoFormat
        let handler: (CameraStreamEvent) -> Void
        private let lock = NSLock()
        private var stopThreads: [pthread_t] = []

        init(format: VideoFormat, handler: @escaping (CameraStreamEvent) -> Void) {
            self.format = format
            self.handler = handler
        }

        func stop() { lock.withLock { stopThreads.append(pthread_self()) } }
        var stops: [pthread_t] { lock.withLock { stopThreads } }
    }

    final class RecordingOpener: CameraStreamOpening, @unchecked Sendable {
        private let lock = NSLock()
        private(set) weak var opened: RecordingStream?

        func openStream(for device: Device, format: VideoFormat, frameRate: FrameRate,
                        handler: @escaping (CameraStreamEvent) -> Void) throws(OcellusError) -> any CameraStream {
            let stream = RecordingStream(format: format, handler: handler)
            lock.withLock { opened = stream }
            return stream
        }
    }

    let camera = Device(uniqueID: "usb-046d:082d-X", name: "C920", type: .externalCamera, position: .unspecified,
                        backend: .v4l2, backendKey: "k",
                        formats: [VideoFormat(pixelFormat: .yuyv, width: 640, height: 480, frameRates: [FrameRate(30)])],
                        vendorID: 0x046d, productID: 0x082d, serialNumber: "X", pluggedMicroseconds: nil, properties: [:])

    /// A session streaming from `camera` through a recording stream.
    func runningSession() throws -> (CaptureSession, RecordingStream) {
        let opener = RecordingOpener()
        let session = CaptureSession(opener: opener)
        try session.addInput(camera)
        try session.addOutput(VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480))
        try session.startRunning()
        return (session, try #require(opener.opened))
    }

    @Test func aStreamThatFailedIsStoppedOnTheCallersThread() throws {
        let (session, stream) = try runningSession()

        // The camera goes away: the stream reports it from its own thread.
        let failing = Thread { stream.handler(.failed(OcellusError(.disconnected, "the camera was disconnected"))) }
        failing.start()
        while session.isRunning { usleep(1000) }
        #expect(stream.stops.isEmpty)

        try session.stopRunning()
        #expect(stream.stops.count == 1)
        #expect(stream.stops.allSatisfy { pthread_equal($0, pthread_self()) != 0 })
    }

    @Test func stoppingAStoppedSessionStopsNothing() throws {
        let (session, stream) = try runningSession()
        try session.stopRunning()
        try session.stopRunning()
        #expect(stream.stops.count == 1)
    }

    /// A microphone stream that delivers its first samples while it is still being opened,
    /// and opens only once they were handled: PipeWire's connect waits for the stream's loop,
    /// which runs the first process callback first.
    final class EagerAudioOpener: AudioStreamOpening, @unchecked Sendable {
        final class Stream: AudioStream, @unchecked Sendable {
            let format = AudioFormat()
            func stop() {}
        }
        func openAudioStream(for device: Device, format: AudioFormat,
                             handler: @escaping (AudioStreamEvent) -> Void) throws(OcellusError) -> any AudioStream {
            let samples = [Float](repeating: 0, count: 96)
            let first = Thread {
                samples.withUnsafeBufferPointer { view in
                    handler(.samples(AudioBuffer(format: format, samples: view, timestampNanoseconds: monotonicNanoseconds())))
                }
            }
            first.start()
            while !first.isFinished { usleep(1000) }
            return Stream()
        }
    }

    @Test func anAudioHandlerChangingTheSessionWhileItsStreamOpensDoesNotDeadlock() throws {
        let microphone = Device(uniqueID: "mic", name: "Mic", type: .microphone, position: .unspecified, backend: .pipewire,
                                backendKey: "m", formats: [], vendorID: nil, productID: nil, serialNumber: nil,
                                pluggedMicroseconds: nil, properties: [:])
        let session = CaptureSession(opener: RecordingOpener(), audio: EagerAudioOpener())
        try session.addInput(camera)
        try session.addOutput(VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480))
        try session.addAudioInput(microphone)
        let audio = AudioDataOutput()
        var answer: String?
        audio.sampleHandler = { [camera] _ in
            // The same camera again: a change that keeps every stream.
            do throws(OcellusError) { try session.addInput(camera); answer = "ok" } catch { answer = error.message }
        }
        try session.addAudioOutput(audio)
        try session.startRunning()   // hung here while the handler waited for the stream changes' lock
        #expect(answer == "ok")
        try session.stopRunning()
    }
}
