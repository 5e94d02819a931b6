import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// How a session picks the camera format for its outputs, and the USB budget (behaviour §4).
@Suite struct FormatChoiceTests {
    /// Claims every conversion: the choice, not the pixels, is under test here.
    struct AnyConversion: FrameConversion {
        func canConvert(from source: FourCC, to target: FourCC) -> Bool { true }
        func makeConverter(
            to target: FourCC, width: UInt32, height: UInt32, rotation: Int, mirrored: Bool,
            yuvFullRange: Bool
        ) -> any FrameConverting {
            NoPictures()
        }
    }

    /// Sessions that start with `AnyConversion` are given no frames to convert.
    final class NoPictures: FrameConverting {
        func convert(_ frame: CameraFrame) -> CameraFrame? { nil }
    }

    /// A webcam's streaming alternate settings at each speed: at high speed the Surface Pro 3 rear
    /// camera's (3 × 1024, 1024 and 256 bytes a microframe, from its `lsusb -v`).
    func webcam(
        speedMbps: Double, bus: String = "usb1", interface: String = "1-2:1.1", translator: String? = nil,
        serial: String = "X"
    ) -> Device {
        let rates = [FrameRate(30), FrameRate(15)]
        var details = DeviceDetails()
        let settings: [Int] =
            switch speedMbps {
            case ..<480: [512, 1023]
            case 480: [256, 1024, 3072]
            default: [49152]
            }
        details.usbLink = USBLink(
            bus: bus, speedMbps: speedMbps, translator: translator, streamingInterface: interface,
            streamingSettings: settings.map { PeriodicEndpoint(bytesPerService: $0) })
        let formats = [FourCC.yuyv, .mjpeg].flatMap { pixelFormat in
            [(640, 480), (1280, 720), (1920, 1080)].map {
                VideoFormat(pixelFormat: pixelFormat, width: UInt32($0.0), height: UInt32($0.1), frameRates: rates)
            }
        }
        return Device(
            uniqueID: "usb-046d:082d-\(serial)", name: "C920 \(serial)", type: .externalCamera, position: .unspecified,
            backend: .v4l2, backendKey: "k\(serial)", formats: formats, vendorID: 0x046d, productID: 0x082d,
            serialNumber: serial, pluggedMicroseconds: nil, details: details, properties: [:])
    }

    func choose(_ device: Device, _ outputs: [VideoDataOutput]) throws -> (VideoFormat, FrameRate)? {
        var configuration = SessionConfiguration()
        configuration.input = device
        configuration.outputs = outputs
        return try FormatChoice(conversion: AnyConversion()).picture(for: configuration)
    }

    @Test func rawIsPreferredWhenItFitsTheBus() throws {
        let choice = try #require(try choose(webcam(speedMbps: 480), [VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480)]))
        #expect(choice.0.pixelFormat == .yuyv && choice.0.width == 640 && choice.1 == FrameRate(30)) // 18 MB/s of 24.5
    }

    @Test func mjpegIsChosenWhenRawWouldNotFit() throws {
        let choice = try #require(try choose(webcam(speedMbps: 480), [VideoDataOutput(pixelFormat: .nv12, width: 1920, height: 1080)]))
        #expect(choice.0.pixelFormat == .mjpeg && choice.0.width == 1920) // raw 1080p30 needs 124 MB/s
    }

    @Test func aNativeMatchWinsOverConversion() throws {
        let choice = try #require(try choose(webcam(speedMbps: 5000), [VideoDataOutput(pixelFormat: .mjpeg, width: 1280, height: 720)]))
        #expect(choice.0.pixelFormat == .mjpeg && choice.0.width == 1280)
    }

    @Test func smallPreviewsDoNotPullTheLargestFormat() throws {
        let choice = try #require(try choose(webcam(speedMbps: 5000), [VideoDataOutput(pixelFormat: .bgra, width: 320, height: 240)]))
        #expect(choice.0.width == 640 && choice.0.pixelFormat == .yuyv)
    }

    @Test func theStreamRateIsOneTheCameraOffers() throws {
        func capped(_ rate: FrameRate?) -> VideoDataOutput {
            let output = VideoDataOutput(pixelFormat: .nv12, width: 640, height: 480)
            output.maximumFrameRate = rate
            return output
        }
        let camera = webcam(speedMbps: 5000) // 30 and 15 fps listed
        #expect(try choose(camera, [capped(FrameRate(15))])?.1 == FrameRate(15))
        #expect(try choose(camera, [capped(FrameRate(10))])?.1 == FrameRate(15), "10 is not offered: 15, thinned by the output")
        #expect(try choose(camera, [capped(FrameRate(20))])?.1 == FrameRate(30))
        #expect(try choose(camera, [capped(FrameRate(10)), capped(nil)])?.1 == FrameRate(30), "an uncapped output wants every frame")
        let ranged = Device(
            uniqueID: "r", name: "r", type: .externalCamera, position: .unspecified, backend: .v4l2, backendKey: "r",
            formats: [
                VideoFormat(
                    pixelFormat: .yuyv, width: 640, height: 480,
                    frameRates: [FrameRate(60), FrameRate(5)], frameRatesAreRange: true)
            ],
            vendorID: nil, productID: nil, serialNumber: nil, pluggedMicroseconds: nil, properties: [:])
        #expect(try choose(ranged, [capped(FrameRate(12))])?.1 == FrameRate(12))
        #expect(try choose(ranged, [capped(FrameRate(2))])?.1 == FrameRate(5))
    }

    @Test func overBudgetIsRefusedWithTheNumbers() throws {
        #expect {
            _ = try choose(webcam(speedMbps: 12), [VideoDataOutput(pixelFormat: .nv12, width: 1920, height: 1080)])
        } throws: { error in
            let error = error as? OcellusError
            return error?.code == .noResources && error?.message.contains("not enough USB bandwidth on usb1") == true
        }
        #expect(HardwareCost.bytesPerSecond(VideoFormat(pixelFormat: .yuyv, width: 640, height: 480, frameRates: []), rate: FrameRate(30)) == 18_432_000)
    }
}

extension FormatChoiceTests {
    func chooseWithPreset(_ preset: CaptureSession.Preset, outputs: [VideoDataOutput] = [VideoDataOutput()]) throws -> VideoFormat? {
        var configuration = SessionConfiguration()
        configuration.input = webcam(speedMbps: 5000)
        configuration.outputs = outputs
        configuration.preset = preset
        return try FormatChoice(conversion: AnyConversion()).picture(for: configuration)?.0
    }

    @Test func presetsPickTheStreamSize() throws {
        #expect(try chooseWithPreset(.high)?.width == 1920)
        #expect(try chooseWithPreset(.photo)?.width == 1920)
        #expect(try chooseWithPreset(.medium)?.width == 640)
        #expect(try chooseWithPreset(.low)?.width == 640)
        #expect(try chooseWithPreset(.hd1280x720)?.width == 1280)
        // A pinned output size overrides the preset.
        #expect(try chooseWithPreset(.hd1920x1080, outputs: [VideoDataOutput(width: 1280, height: 720)])?.width == 1280)
        #expect(CaptureSession.device(webcam(speedMbps: 480), supports: .hd1920x1080))
        #expect(!CaptureSession.device(webcam(speedMbps: 480), supports: .uhd3840x2160))
    }

    /// A driver's stepwise sizes (an HDMI receiver's, 16x16 to 16384x8640 in steps of 2): the size
    /// an output pins is streamed as such when the range holds it; otherwise a common size it holds.
    @Test func aRangeOfSizesServesThePinnedSizeOrACommonOne() throws {
        let range = SizeRange(minWidth: 16, minHeight: 16, maxWidth: 16384, maxHeight: 8640, stepWidth: 2, stepHeight: 2)
        let grabber = Device(
            uniqueID: "v4l2-platform:vivid-001", name: "HDMI", type: .externalCamera, position: .unspecified,
            backend: .v4l2, backendKey: "k",
            formats: [
                VideoFormat(
                    pixelFormat: .yuyv, width: 16384, height: 8640, frameRates: [FrameRate(60)],
                    sizeRange: range)
            ],
            vendorID: nil, productID: nil, serialNumber: nil, pluggedMicroseconds: nil, properties: [:])
        let pinned = try #require(try choose(grabber, [VideoDataOutput(pixelFormat: .yuyv, width: 640, height: 360)]))
        #expect((pinned.0.width, pinned.0.height, pinned.0.sizeRange) == (640, 360, range))
        let free = try #require(try choose(grabber, [VideoDataOutput()]))
        #expect((free.0.width, free.0.height) == (3840, 2160)) // the largest common size, not the hardware's limit
        #expect(
            range.contains(width: 640, height: 360) && !range.contains(width: 641, height: 360)
                && !range.contains(width: 16386, height: 100))
    }

    /// A producer that states what it prefers within its ranges (PipeWire's videotestsrc: any size
    /// and rate, 320x240 at 25 by default) streams that when nothing asks otherwise, as GStreamer
    /// fixates it: its largest, at its fastest, is a picture no machine draws in software in time.
    @Test func aRangeStreamsTheProducersDefaultWhenNothingAsks() throws {
        var range = SizeRange(minWidth: 1, minHeight: 1, maxWidth: 1920, maxHeight: 1080, stepWidth: 1, stepHeight: 1)
        range.preferred = FrameSize(width: 320, height: 240)
        let source = Device(
            uniqueID: "pipewire-pwranged", name: "videotestsrc", type: .virtualCamera, position: .unspecified,
            backend: .pipewire, backendKey: "k",
            formats: [
                VideoFormat(
                    pixelFormat: .uyvy, width: 1920, height: 1080, frameRates: [FrameRate(60), FrameRate(1)],
                    frameRatesAreRange: true, sizeRange: range, preferredFrameRate: FrameRate(25))
            ],
            vendorID: nil, productID: nil, serialNumber: nil, pluggedMicroseconds: nil, properties: [:])
        let free = try #require(try choose(source, [VideoDataOutput()]))
        #expect((free.0.width, free.0.height, free.1) == (320, 240, FrameRate(25)))
        // What outputs ask for still wins: a pinned size and a rate cap within the ranges.
        let capped = VideoDataOutput(width: 640, height: 480)
        capped.maximumFrameRate = FrameRate(50)
        let asked = try #require(try choose(source, [capped]))
        #expect((asked.0.width, asked.0.height, asked.1) == (640, 480, FrameRate(50)))
    }

    /// Refusals say which rule a size breaks and what would work (an 800x600 output of a 640x480
    /// camera was refused "a size must keep a format's aspect ratio", listing nothing).
    @Test func aRefusedSizeSaysWhyAndWhatWouldWork() throws {
        func camera(_ sizes: [(UInt32, UInt32)]) -> Device {
            Device(
                uniqueID: "usb-046d:082d-REFUSE", name: "C920", type: .externalCamera, position: .unspecified, backend: .v4l2,
                backendKey: "k", formats: sizes.map { VideoFormat(pixelFormat: .yuyv, width: $0.0, height: $0.1, frameRates: [FrameRate(30)]) },
                vendorID: nil, productID: nil, serialNumber: nil, pluggedMicroseconds: nil, properties: [:])
        }
        func refusal(_ device: Device, _ outputs: [VideoDataOutput]) -> String {
            do { _ = try choose(device, outputs); return "" } catch { return (error as? OcellusError)?.message ?? "" }
        }
        let vga = camera([(640, 480), (320, 240)])
        let larger = refusal(vga, [VideoDataOutput(pixelFormat: .nv12, width: 800, height: 600)])
        #expect(larger.contains("800x600 is larger than every size it streams (640x480, 320x240)") && !larger.contains("aspect"), "\(larger)")
        let shape = refusal(vga, [VideoDataOutput(pixelFormat: .nv12, width: 640, height: 360)])
        #expect(shape.contains("640x360 (16:9) cannot be cut from any size it streams (640x480, 320x240)"), "\(shape)")
        let hd = camera([(1280, 720), (640, 480)])
        let together = refusal(
            hd,
            [
                VideoDataOutput(pixelFormat: .nv12, width: 1280, height: 720),
                VideoDataOutput(pixelFormat: .bgr24, width: 640, height: 480)
            ])
        #expect(
            together.contains("serves 1280x720 (16:9) and 640x480 (4:3) together") && together.hasSuffix("e.g. 1280x720 and 640x360 from 1280x720"),
            "\(together)")
        // Sizes that fit but are refused for another reason (MJPEG is never scaled) are not blamed on size.
        let mjpeg = Device(
            uniqueID: "usb-046d:082d-MJPEG", name: "C920", type: .externalCamera, position: .unspecified, backend: .v4l2,
            backendKey: "m", formats: [VideoFormat(pixelFormat: .mjpeg, width: 640, height: 480, frameRates: [FrameRate(30)])],
            vendorID: nil, productID: nil, serialNumber: nil, pluggedMicroseconds: nil, properties: [:])
        let compressed = refusal(mjpeg, [VideoDataOutput(pixelFormat: .mjpeg, width: 320, height: 240)])
        #expect(compressed.contains("never scaled") && !compressed.contains("cannot be cut"), "\(compressed)")
        // What a refusal suggests works.
        #expect(
            try choose(
                hd,
                [
                    VideoDataOutput(pixelFormat: .nv12, width: 1280, height: 720),
                    VideoDataOutput(pixelFormat: .bgr24, width: 640, height: 360)
                ]) != nil)
        #expect(try choose(vga, [VideoDataOutput(pixelFormat: .nv12, width: 320, height: 240)]) != nil)
    }
}
