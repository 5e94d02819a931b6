import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// behaviour §4 multi-camera sessions and fit instead of fail, on the scripted backend with USB
/// buses whose load is given (the kernel's accounting is tested on the gadget bed).
@Suite struct MultiCamSessionTests {
    let choice = FormatChoiceTests()
    let costs = HardwareCostTests()

    func session(_ backend: ScriptedBackend, bus: any USBBusReading = HardwareCostTests.FixedBus(held: [])) -> MultiCamSession {
        MultiCamSession(bus: bus) { branch in
            CaptureSession(branch: branch, opener: backend, conversion: FormatChoiceTests.AnyConversion())
        }
    }

    /// Two webcams on one high-speed bus, NV12 VGA each: the first gets raw (61%), the second
    /// MJPEG beside it (21%), before either streams; the session's cost is the bus's 82%.
    @Test func camerasAreFittedBesideTheOnesAddedBefore() throws {
        let backend = ScriptedBackend()
        let multi = session(backend)
        let (first, second) = (choice.webcam(speedMbps: 480, serial: "A"), choice.webcam(speedMbps: 480, interface: "1-3:1.1", serial: "B"))
        for camera in [first, second] {
            try multi.addCamera(camera).addOutput(VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480))
        }
        let cost = multi.hardwareCost
        #expect(cost.buses.count == 1 && cost.buses[0].bus == "usb1" && cost.buses[0].cameras.map(\.uniqueID) == [first.uniqueID, second.uniqueID])
        #expect(abs(cost.total - 0.82) < 1e-9 && cost.fits, "\(cost.total)")
        let log = EventLog<MultiCamSession.Event>()
        _ = multi.events.addObserver(log.append)
        try multi.startRunning()
        #expect(backend.opened.map { "\($0.format.pixelFormat.name) \($0.format.width)" } == ["YUYV 640", "MJPEG 640"])
        #expect(log.wait { $0.contains { if case .started = $0 { true } else { false } } })
        // The second camera's fallback is an event of the session, naming it.
        #expect(
            log.wait { events in
                events.contains { event in
                    if case .camera(let camera, .formatFallback(let fallback)) = event {
                        camera === second && fallback.chosen.format.pixelFormat == .mjpeg && fallback.wanted.format.pixelFormat == .yuyv
                            && "\(fallback)".contains("instead of YUYV 640x480 at 30.0 fps: it would take 122% of usb1 beside C920 A")
                    } else {
                        false
                    }
                }
            }, "\(log.events)")
        try multi.stopRunning()
        #expect(backend.opened.allSatisfy { $0.isStopped })
    }

    /// A branch's change is planned again for the cameras after it: the second camera counts what
    /// the first reserves now, not what it reserved when the second joined.
    @Test func aBranchsChangeIsCountedByTheCamerasAfterIt() throws {
        let multi = session(ScriptedBackend())
        let first = try multi.addCamera(choice.webcam(speedMbps: 480, serial: "A"))
        let second = try multi.addCamera(choice.webcam(speedMbps: 480, interface: "1-3:1.1", serial: "B"))
        try second.addOutput(VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480))
        func counted() -> [Int]? { second.hardwareCost?.others.flatMap(\.endpoints).map(\.bytesPerService) }
        let raw = VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480)
        try first.addOutput(raw)
        #expect(counted() == [3072] && first.hardwareCost?.reservation?.bytesPerService == 3072)
        first.beginConfiguration()
        try first.removeOutput(raw)
        try first.addOutput(VideoDataOutput(pixelFormat: .mjpeg, width: 640, height: 480))
        #expect(counted() == [3072], "a change not committed yet is not planned")
        try first.commitConfiguration()
        #expect(counted() == [1024] && first.hardwareCost?.reservation?.bytesPerService == 1024)
    }

    /// What another process streams, changing under the session.
    final class ChangingBus: USBBusReading, @unchecked Sendable {
        var held: [BusReservation] = []
        func reservations(onBus bus: String) -> [BusReservation] { held }
    }

    /// A camera whose pinned format does not fit beside the others refuses the commit; one that
    /// no longer fits when the session starts (another process took the bus meanwhile) refuses
    /// the start, naming itself, the bus and who holds it, and the cameras started are stopped.
    /// Fitting turned on, it runs at a lower rate.
    @Test func aCameraThatCannotFitIsRefusedNamingItAndWhatStartedIsStopped() throws {
        let backend = ScriptedBackend()
        let bus = ChangingBus()
        let multi = session(backend, bus: bus)
        let cameras = ["A", "B"].enumerated().map { choice.webcam(speedMbps: 480, interface: "1-\($0.offset + 2):1.1", serial: $0.element) }
        try multi.addCamera(cameras[0]).addOutput(VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480)) // YUYV, 61%
        let pinned = try multi.addCamera(cameras[1])
        #expect { try pinned.addOutput(VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480)) } throws: { error in
            let message = (error as? OcellusError)?.message ?? ""
            return message.contains("on usb1 for \(cameras[1].uniqueID)") && message.contains("C920 A (1-2:1.1)")
        }
        try pinned.addOutput(VideoDataOutput(pixelFormat: .mjpeg, width: 640, height: 480)) // 21%: fits
        #expect(multi.hardwareCost.fits && abs(multi.hardwareCost.total - 0.82) < 1e-9)
        bus.held = [costs.webcamStreaming(3072, interface: "1-9:1.1")]
        #expect(!multi.hardwareCost.fits, "A goes MJPEG (82%), B's pinned MJPEG would make 103%")
        var caught: OcellusError?
        do { try multi.startRunning() } catch { caught = error }
        #expect(caught?.code == .noResources && caught?.message.contains("on usb1 for \(cameras[1].uniqueID)") == true, "\(String(describing: caught))")
        #expect(caught?.message.contains("Other Webcam (1-9:1.1), C920 A (1-2:1.1)") == true, "\(String(describing: caught))")
        #expect(!multi.isRunning && backend.opened.count == 1 && backend.opened.allSatisfy { $0.isStopped })
        try pinned.setBusFit(.on)
        try multi.startRunning()
        #expect(backend.opened.suffix(2).map { "\($0.format.pixelFormat.name) \($0.format.maxFrameRate!.framesPerSecond)" } == ["MJPEG 30.0", "MJPEG 15.0"])
        try multi.stopRunning()
    }

    /// One camera's stream failing stops the others; the error names the camera.
    @Test func aRuntimeErrorStopsEveryCameraAndNamesTheOneThatFailed() throws {
        let backend = ScriptedBackend()
        let multi = session(backend)
        let cameras = ["A", "B"].map { choice.webcam(speedMbps: 5000, bus: "usb2", serial: $0) }
        for camera in cameras { try multi.addCamera(camera) }
        let log = EventLog<MultiCamSession.Event>()
        _ = multi.events.addObserver(log.append)
        try multi.startRunning()
        backend.opened[1].fail(OcellusError(.io, "the driver failed"))
        #expect(
            log.wait {
                $0.contains {
                    if case .runtimeError(let camera, let error) = $0 {
                        camera === cameras[1] && error.message == "\(cameras[1].uniqueID): the driver failed"
                    } else {
                        false
                    }
                }
            }, "\(log.events)")
        #expect(!multi.isRunning)
        #expect(log.wait { _ in backend.opened[0].isStopped })
        try multi.stopRunning()
    }

    /// An error that names its camera already (a stall, a disconnection: "ID sent no frame …") is
    /// not named again; one that does not is ("ID: the driver failed").
    @Test func aCamerasErrorNamesItOnce() {
        let camera = choice.webcam(speedMbps: 5000, bus: "usb2", serial: "A")
        let id = camera.uniqueID
        for (message, expected) in [
            ("\(id) sent no frame for 3 s (the camera stalled)", "\(id) sent no frame for 3 s (the camera stalled)"),
            ("\(id): busy", "\(id): busy"), ("the driver failed", "\(id): the driver failed"),
            ("\(id)0 is another camera", "\(id): \(id)0 is another camera")
        ] {
            #expect(MultiCamSession.naming(camera, OcellusError(.io, message)).message == expected)
        }
    }

    /// Branches are the session's: they neither start, stop nor change camera on their own, and
    /// cameras are added and removed only while the session is stopped.
    @Test func theSessionOwnsItsBranches() throws {
        let backend = ScriptedBackend()
        let multi = session(backend)
        let camera = choice.webcam(speedMbps: 5000, bus: "usb2")
        let branch = try multi.addCamera(camera)
        #expect(!multi.canAddCamera(camera) && multi.branch(for: camera) === branch)
        #expect(throws: OcellusError.self) { try multi.addCamera(camera) }
        for call in [{ try branch.startRunning() }, { try branch.stopRunning() }, { try branch.removeInput() }] as [() throws -> Void] {
            #expect { try call() } throws: { ($0 as? OcellusError)?.code == .wrongState }
        }
        branch.setAutomaticallySwitchesCamera(following: try ScriptedCameras.hub([backend]))
        #expect(!branch.automaticallySwitchesCamera, "a single-camera feature")
        try multi.startRunning()
        #expect { try multi.removeCamera(camera) } throws: { ($0 as? OcellusError)?.code == .wrongState }
        try multi.stopRunning()
        try multi.removeCamera(camera)
        #expect(multi.cameras.isEmpty)
        #expect { try multi.startRunning() } throws: { ($0 as? OcellusError)?.code == .wrongState }
    }
}

/// behaviour §4 fit instead of fail, in a single-camera session.
@Suite struct BusFitTests {
    let choice = FormatChoiceTests()
    let costs = HardwareCostTests()

    /// With a webcam already at 61% of the bus: NV12 outputs are fitted (MJPEG); an output pinning
    /// the camera's YUYV is refused unless fitting is turned on; turned off, NV12 is refused too.
    @Test func fittingIsOnUnlessTheCamerasOwnFormatIsPinned() throws {
        let bus = HardwareCostTests.FixedBus(held: [costs.webcamStreaming(3072)])
        let camera = choice.webcam(speedMbps: 480)
        let session = CaptureSession(opener: ScriptedBackend(), conversion: FormatChoiceTests.AnyConversion(), bus: bus)
        try session.addInput(camera)
        #expect(session.busFit == .automatic)
        try session.addOutput(VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480))
        #expect(session.hardwareCost?.reservation?.bytesPerService == 1024, "MJPEG")
        #expect { try session.setBusFit(.off) } throws: { ($0 as? OcellusError)?.code == .noResources }
        #expect(session.busFit == .automatic, "a refused change leaves the session as it was")
        let backend = ScriptedBackend()
        let pinned = CaptureSession(opener: backend, conversion: FormatChoiceTests.AnyConversion(), bus: bus)
        try pinned.addInput(camera)
        #expect { try pinned.addOutput(VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480)) } throws: {
            ($0 as? OcellusError)?.code == .noResources
        }
        try pinned.setBusFit(.on)
        try pinned.addOutput(VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480))
        try pinned.startRunning()
        #expect(
            backend.opened.map { "\($0.format.pixelFormat.name) \($0.format.maxFrameRate!.framesPerSecond)" } == ["MJPEG 30.0"],
            "MJPEG at the full rate before YUYV at a lower one")
        try pinned.stopRunning()
    }

    /// The estimate said raw fits, the kernel refused it (ENOSPC at stream-on): the session steps
    /// to the next format that fits, and says so.
    @Test func aRefusalAtStreamOnStepsToTheNextFormat() throws {
        let backend = ScriptedBackend()
        let session = CaptureSession(opener: backend, conversion: FormatChoiceTests.AnyConversion(), bus: HardwareCostTests.FixedBus(held: []))
        let log = EventLog<CaptureSession.Event>()
        _ = session.events.addObserver(log.append)
        try session.addInput(choice.webcam(speedMbps: 480))
        try session.addOutput(VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480))
        let refusal = OcellusError(.noResources, "cannot start streaming: not enough USB bandwidth for this format, size and rate")
        backend.failNextOpens(refusal)
        try session.startRunning()
        #expect(backend.opened.map(\.format.pixelFormat) == [.mjpeg])
        #expect(
            log.wait {
                $0.contains {
                    if case .formatFallback(let fallback) = $0 {
                        "\(fallback)"
                            == "usb-046d:082d-X runs MJPEG 640x480 at 30.0 fps instead of YUYV 640x480 at 30.0 fps: the kernel refused it (\(refusal.message))"
                    } else {
                        false
                    }
                }
            }, "\(log.events)")
        try session.stopRunning()
        // Off, the refusal is the app's.
        try session.setBusFit(.off)
        backend.failNextOpens(refusal)
        #expect { try session.startRunning() } throws: { ($0 as? OcellusError)?.message == refusal.message }
    }
}

extension ScriptedStream {
    var isStopped: Bool { !stops.isEmpty }
}
