import OcellusTestSupport
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// The USB hardware cost (behaviour §4): bus time by the kernel's formula, the alternate
/// setting a format reserves, and a camera's share beside what its bus already carries.
@Suite struct HardwareCostTests {
    let choice = FormatChoiceTests()

    struct FixedBus: USBBusReading {
        var held: [BusReservation]
        func reservations(onBus bus: String) -> [BusReservation] { held.filter { $0.interface.hasPrefix(bus.dropFirst(3) + "-") } }
    }

    func webcamStreaming(_ bytes: Int, interface: String = "1-3:1.1") -> BusReservation {
        BusReservation(device: "Other Webcam", interface: interface, speedMbps: 480, endpoints: [PeriodicEndpoint(bytesPerService: bytes)])
    }

    func choose(_ device: Device, _ outputs: [VideoDataOutput], beside held: [BusReservation]) throws -> (VideoFormat, FrameRate)? {
        var configuration = SessionConfiguration()
        configuration.input = device
        configuration.outputs = outputs
        return try FormatChoice(conversion: FormatChoiceTests.AnyConversion(), bus: FixedBus(held: held)).picture(for: configuration)
    }

    @Test func busTimeIsTheKernelsFormula() {
        // usb_calc_bus_time's HS_NSECS_ISO, rounded up to µs as EHCI keeps it: 61 µs for 3 × 1024
        // bytes, 21 µs for 1024, of the 100 µs a microframe gives periodic transfers.
        #expect(HardwareCost.transactionMicroseconds(bytes: 3072, speedMbps: 480, isInput: true) == 61)
        #expect(HardwareCost.transactionMicroseconds(bytes: 1024, speedMbps: 480, isInput: true) == 21)
        #expect(HardwareCost.transactionMicroseconds(bytes: 2048, speedMbps: 480, isInput: true) == 41)
        // Full speed: a 1023-byte isochronous IN packet takes 807 µs of the 900 a frame gives.
        #expect(HardwareCost.transactionMicroseconds(bytes: 1023, speedMbps: 12, isInput: true) == 807)
        #expect(abs(HardwareCost.load(of: PeriodicEndpoint(bytesPerService: 3072), speedMbps: 480) - 0.61) < 1e-9)
        #expect(
            abs(HardwareCost.load(of: PeriodicEndpoint(bytesPerService: 3072, interval: 4), speedMbps: 480) - 0.1525) < 1e-9,
            "every fourth microframe")
    }

    @Test func endpointsReadAsTheKernelReadsThem() {
        // LifeCam NX-6000: 0x13fc = 3 × 1020 bytes; a UAC microphone: 192 bytes every 2^(4-1) microframes.
        #expect(PeriodicEndpoint(wMaxPacketSize: 0x13FC, bInterval: 1, speedMbps: 480, isInput: true).bytesPerService == 3060)
        let microphone = PeriodicEndpoint(wMaxPacketSize: 0x00C0, bInterval: 4, speedMbps: 480, isInput: true)
        #expect(microphone.bytesPerService == 192 && microphone.interval == 8)
        #expect(
            PeriodicEndpoint(wMaxPacketSize: 0x13FC, bInterval: 1, speedMbps: 12, isInput: true).bytesPerService == 1020,
            "no extra transactions at full speed")
    }

    @Test func aFormatReservesTheSmallestSettingThatCarriesIt() throws {
        let link = try #require(choice.webcam(speedMbps: 480).details.usbLink)
        func reserved(_ pixelFormat: FourCC, _ width: UInt32, _ height: UInt32) -> (Int, Bool)? {
            HardwareCost.reservation(
                on: link, format: VideoFormat(pixelFormat: pixelFormat, width: width, height: height, frameRates: []),
                rate: FrameRate(30)
            ).map { ($0.endpoint.bytesPerService, $0.carries) }
        }
        #expect(reserved(.yuyv, 640, 480)! == (3072, true)) // 2304 bytes a microframe and a header
        #expect(reserved(.yuyv, 320, 240)! == (1024, true)) // 576
        #expect(reserved(.mjpeg, 640, 480)! == (1024, true)) // about 432
        #expect(reserved(.yuyv, 1920, 1080)! == (3072, false), "15552 bytes a microframe: no setting carries it")
        #expect(
            HardwareCost.reservation(
                on: USBLink(bus: "usb1", speedMbps: 480), format: VideoFormat(pixelFormat: .yuyv, width: 640, height: 480, frameRates: []),
                rate: FrameRate(30)) == nil, "a bulk camera reserves nothing")
    }

    @Test func aSecondCameraOnTheBusGetsWhatFitsBesideTheFirst() throws {
        let camera = choice.webcam(speedMbps: 480)
        let nv12 = [VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480)]
        #expect(try choose(camera, nv12, beside: [])?.0.pixelFormat == .yuyv, "alone: raw, 61%")
        // Another webcam streaming at 3 × 1024 bytes: raw would make 122%; MJPEG (1024 bytes, 21%) fits.
        let beside = try #require(try choose(camera, nv12, beside: [webcamStreaming(3072)]))
        #expect(beside.0.pixelFormat == .mjpeg && beside.0.width == 640)
        // On another bus it changes nothing.
        #expect(try choose(camera, nv12, beside: [webcamStreaming(3072, interface: "2-1:1.1")])?.0.pixelFormat == .yuyv)
        // The camera's own streaming interface (it streams already) is not counted twice.
        #expect(try choose(camera, nv12, beside: [webcamStreaming(3072, interface: "1-2:1.1")])?.0.pixelFormat == .yuyv)
    }

    @Test func aCameraThatDoesNotFitIsRefusedNamingTheBusTheOthersAndWhatWouldFit() throws {
        let camera = choice.webcam(speedMbps: 480)
        // 61% and 21% held: MJPEG 640x480 at 30 fps needs the 1024-byte setting (21%, 103% in all);
        // at 15 fps the 256-byte one (7%) carries it.
        let held = [webcamStreaming(3072), webcamStreaming(1024, interface: "1-4:1.1")]
        var caught: OcellusError?
        do { _ = try choose(camera, [VideoDataOutput(pixelFormat: .mjpeg, width: 640, height: 480)], beside: held) } catch { caught = error as? OcellusError }
        let error = try #require(caught)
        #expect(error.code == .noResources)
        #expect(error.message.contains("on usb1") && error.message.contains("Other Webcam (1-3:1.1), Other Webcam (1-4:1.1)"), "\(error.message)")
        #expect(error.message.contains("21% of its periodic time") && error.message.contains("beside 82%"), "\(error.message)")
        #expect(
            error.message.hasSuffix("; MJPEG 1920x1080 at 15.0 fps would fit") == false && error.message.contains("at 15.0 fps would fit"),
            "\(error.message)")
        // With the bus full, nothing fits: the message says to stop one or move the camera.
        var full: OcellusError?
        do { _ = try choose(camera, [VideoDataOutput()], beside: [webcamStreaming(3072), webcamStreaming(3072, interface: "1-4:1.1")]) } catch {
            full = error as? OcellusError
        }
        #expect(full?.message.contains("nothing the camera offers fits while they stream") == true, "\(String(describing: full?.message))")
    }

    @Test func fullSpeedCamerasBehindOneTranslatorShareItsFrame() throws {
        let camera = choice.webcam(speedMbps: 12, translator: "1-1")
        let other = BusReservation(
            device: "Old Webcam", interface: "1-1.3:1.1", speedMbps: 12, translator: "1-1",
            endpoints: [PeriodicEndpoint(bytesPerService: 512)])
        let format = VideoFormat(pixelFormat: .mjpeg, width: 320, height: 240, frameRates: [FrameRate(30)])
        let shared = try #require(HardwareCost.share(of: camera, format: format, rate: FrameRate(30), others: [other]))
        #expect(shared.translatorLoad! > 1, "two full-speed streams of 806 and 417 µs in one 900 µs frame")
        #expect(!shared.fits && shared.load < 0.5, "the high-speed bus above has room; the translator has not")
        var apart = other
        apart.translator = "1-1:4" // a multi-TT hub: another port, another translator
        #expect(try #require(HardwareCost.share(of: camera, format: format, rate: FrameRate(30), others: [apart])).fits)
    }
}

extension HardwareCostTests {
    /// What a session reports before it starts: the format it would choose and that format's share,
    /// and when nothing fits, the share of what it would choose on an idle bus (and that it does not fit).
    @Test func aSessionReportsItsCostBeforeStarting() throws {
        let camera = choice.webcam(speedMbps: 480)
        let bus = FixedBus(held: [webcamStreaming(3072)])
        let session = CaptureSession(opener: ScriptedBackend(), conversion: FormatChoiceTests.AnyConversion(), bus: bus)
        #expect(session.hardwareCost == nil, "no input")
        try session.addInput(camera)
        try session.addOutput(VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480))
        let mjpeg = try #require(session.hardwareCost)
        #expect(mjpeg.fits && abs(mjpeg.own - 0.21) < 1e-9 && abs(mjpeg.load - 0.82) < 1e-9 && mjpeg.others.count == 1)
        let pinned = VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 480)
        let raw = CaptureSession(opener: ScriptedBackend(), bus: bus) // takes the camera's own formats: YUYV it must be
        try raw.addInput(camera)
        #expect(throws: OcellusError.self) { try raw.addOutput(pinned) }
        raw.beginConfiguration()
        try raw.addOutput(pinned)
        let over = try #require(raw.hardwareCost)
        #expect(!over.fits && abs(over.load - 1.22) < 1e-9 && over.bus == "usb1", "YUYV beside the other webcam: 122%")
    }
}
