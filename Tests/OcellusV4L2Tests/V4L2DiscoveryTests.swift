import OcellusCore
import Testing

@testable import OcellusV4L2

/// Discovery and classification on device profiles replayed at the ioctl layer.
@Suite struct V4L2DiscoveryTests {
    func discover(_ profiles: String...) throws -> (cameras: [Device], system: ProfileSystem) {
        let system = try ProfileSystem(profiles: profiles)
        let hub = Recorder()
        let backend = V4L2Backend(system: system, hotplug: false)
        try backend.start(delegate: hub, timeoutMilliseconds: 0)
        backend.stop()
        return (hub.devices, system)
    }

    /// Classifies facts the way a context does, without starting backends.
    final class Recorder: DeviceBackendDelegate, @unchecked Sendable {
        var devices: [Device] = []
        func backend(_ backend: any DeviceBackend, didAdd facts: DeviceFacts) {
            devices.append(
                Device(
                    classifying: facts, uniqueID: DeviceClassifier.uniqueID(of: facts, backend: .v4l2, serialTaken: false),
                    backend: .v4l2))
        }
        func backend(_ backend: any DeviceBackend, didRemoveDeviceWithKey key: String) {}
        func backend(_ backend: any DeviceBackend, didFail error: OcellusError) {}
    }

    @Test func uvcWebcamWithMetadataNode() throws {
        let (cameras, system) = try discover("logitech-c920")
        let camera = try #require(cameras.first)
        #expect(cameras.count == 1) // the metadata node is not a camera
        #expect(camera.uniqueID == "usb-046d:082d-B61DEDAF")
        #expect(camera.name == "HD Pro Webcam C920")
        #expect(camera.type == .externalCamera && camera.position == .unspecified)
        #expect(Set(camera.formats.map(\.pixelFormat)) == [.yuyv, .h264, .mjpeg])
        let vga = try #require(camera.formats.first { $0.pixelFormat == .yuyv && $0.width == 640 && $0.height == 480 })
        #expect(vga.frameRates.first == FrameRate(30) && vga.frameRates.contains(FrameRate(15, 2)))
        #expect(camera.properties["api.v4l2.path"] == "/dev/video0")
        #expect(system.openDescriptorCount == 0) // every node opened was closed
    }

    @Test func laptopCameraHidesInfraredAndMetadataNodes() throws {
        let (cameras, _) = try discover("dell-latitude-7420")
        let camera = try #require(cameras.first)
        #expect(cameras.count == 1)
        #expect(camera.type == .builtInCamera && camera.position == .front) // fixed USB port
        #expect(camera.uniqueID == "usb-1bcf:2ba0@3-6") // 01.00.00 identifies nothing
        #expect(!camera.formats.contains { $0.pixelFormat == .grey })
        #expect(camera.properties["api.v4l2.nodes"] == "/dev/video0" && camera.details.videoNodes == ["/dev/video0"])
    }

    /// An infrared function with the picture function's strings, streaming YUYV at an odd
    /// size: what tells it apart is that it offers none of the controls only colour has.
    @Test func infraredFunctionWithTheSameStringsIsNotPartOfTheCamera() throws {
        let (cameras, _) = try discover("rgb-ir-same-strings")
        let camera = try #require(cameras.first)
        #expect(cameras.count == 1 && camera.type == .builtInCamera)
        #expect(!camera.formats.contains { $0.width == 640 && $0.height == 360 })
        #expect(camera.properties["api.v4l2.nodes"] == "/dev/video0" && camera.details.videoNodes == ["/dev/video0"])
    }

    /// Where the interface has no string, the function's name is what uvcvideo put after the
    /// product in the card (the association's string), however it was cut.
    @Test func aFunctionNamedOnlyByItsAssociationIsReadFromUVCVideosCard() {
        let name = V4L2Discovery.uvcFunctionName(card: "Gadget Webcam: Integrated IR Ca", driver: "uvcvideo", product: "Gadget Webcam")
        #expect(name == "Integrated IR Ca" && V4L2Discovery.namesInfrared(name!))
        #expect(V4L2Discovery.uvcFunctionName(card: "Gadget Webcam", driver: "uvcvideo", product: "Gadget Webcam") == nil)
        #expect(V4L2Discovery.uvcFunctionName(card: "Other: Integrated IR", driver: "uvcvideo", product: "Gadget Webcam") == nil)
        #expect(V4L2Discovery.uvcFunctionName(card: "Gadget Webcam: IR", driver: "vivid", product: "Gadget Webcam") == nil)
        #expect(V4L2Discovery.uvcFunctionName(card: "Gadget Webcam: IR", driver: "uvcvideo", product: nil) == nil)
    }

    @Test func hdmiCaptureDongleIsExternal() throws {
        let (cameras, _) = try discover("ms2109-hdmi-capture")
        let dongle = try #require(cameras.first)
        #expect(dongle.uniqueID == "usb-534d:2109@5-2" && dongle.type == .externalCamera)
        #expect(dongle.formats.contains { $0.pixelFormat == .mjpeg && $0.width == 1920 && $0.maxFrameRate == FrameRate(60) })
    }

    @Test func platformCameraOrientationAndRotationAreRead() throws {
        let (arducam, _) = try discover("arducam-tof-unicam")
        #expect(arducam.first?.position == .unspecified) // camera_orientation = External
        #expect(arducam.first?.properties["api.v4l2.sensor_rotation"] == "0" && arducam.first?.details.sensorRotation == 0)
        let (surface, _) = try discover("surface-rear-ov8865")
        #expect(surface.first?.properties["api.v4l2.sensor_rotation"] == "180" && surface.first?.details.sensorRotation == 180)
    }

    @Test func depthOnlyNodeIsADepthCamera() throws {
        let (cameras, _) = try discover("realsense-d457-depth")
        let depth = try #require(cameras.first)
        #expect(depth.type == .depthCamera)
        #expect(depth.formats.allSatisfy { $0.pixelFormat == .z16 })
        #expect(depth.formats.contains { $0.width == 848 && $0.height == 480 && $0.maxFrameRate == FrameRate(90) })
        // Its picture stream is its depth: the same formats in both lists.
        #expect(depth.depthFormats == depth.formats && depth.depthSharesPictureStream)
    }

    /// A depth format wherever it is listed makes a depth camera: Z16 beside MJPEG in one
    /// function is depth on the picture's own stream.
    @Test func aDepthFormatBesideThePictureFormatsMakesADepthCamera() throws {
        let (cameras, _) = try discover("mjpeg-and-z16-one-function")
        let camera = try #require(cameras.first)
        #expect(cameras.count == 1 && camera.type == .depthCamera)
        #expect(camera.depthFormats.map(\.pixelFormat) == [.z16] && camera.depthSharesPictureStream)
        let mjpeg = try #require(camera.formats.first { $0.pixelFormat == .mjpeg })
        #expect(camera.depthFormats(beside: mjpeg).isEmpty) // one stream: depth or picture
    }

    /// A time-of-flight sensor on a board: 12-bit greyscale only, no 8-bit mode, not named
    /// infrared: its frames are depth, and it is a depth camera.
    @Test func aTimeOfFlightSensorIsADepthCamera() throws {
        let (cameras, _) = try discover("arducam-tof-unicam")
        let tof = try #require(cameras.first)
        #expect(tof.type == .depthCamera)
        #expect(tof.depthFormats.map(\.pixelFormat) == [.y12] && tof.depthFormats.first?.width == 240)
    }

    @Test func identicalCamerasWithAPlaceholderSerialStayDistinctByPort() throws {
        let (cameras, _) = try discover("two-elp-4k-same-serial")
        #expect(Set(cameras.map(\.uniqueID)) == ["usb-32e4:0317@1-1", "usb-32e4:0317@1-2"])
    }

    @Test func nodesOfDifferentDevicesAreNotGroupedTogether() throws {
        // A laptop (video0–3) with an HDMI dongle plugged in (video4).
        let (cameras, _) = try discover("dell-latitude-7420", "ms2109-hdmi-capture")
        #expect(Set(cameras.map(\.uniqueID)) == ["usb-1bcf:2ba0@3-6", "usb-534d:2109@5-2"])
    }

    /// A Raspberry Pi 4: unicam (a media-controller pipeline), the ISP's and codecs' queues,
    /// and a USB webcam whose serial is a firmware build string. Only the webcam is a camera
    /// here; that the board's own camera needs libcamera is the backend's problem to report.
    @Test func raspberryPiListsTheWebcamAndSaysTheBoardCameraNeedsLibcamera() throws {
        let system = try ProfileSystem(profiles: ["rpi4-unicam-isp-usb-webcam"])
        let survey = V4L2Discovery(system: system).survey()
        #expect(survey.cameras.map(\.name) == ["Webcam"])
        #expect(survey.cameras.first?.details.videoNodes == ["/dev/video2"])
        let problem = try #require(survey.problem)
        #expect(problem.message.contains("libcamera") && problem.message.contains("unicam"))
        let (cameras, _) = try discover("rpi4-unicam-isp-usb-webcam")
        #expect(cameras.map(\.uniqueID) == ["usb-1b3f:2247@1-1.1"]) // the build string is no serial
        #expect(cameras.first?.type == .externalCamera)
        #expect(system.openDescriptorCount == 0)
    }

    /// A Rockchip board: the rkisp queues (multi-planar, with raw read-back queues: a pipeline)
    /// are never listed, so the plugged-in webcam is the only camera and the default.
    @Test func rockchipISPQueuesAreNotCameras() throws {
        let (cameras, _) = try discover("rockchip-rkisp-usb-webcam")
        #expect(cameras.map(\.uniqueID) == ["usb-0c45:6366@1-1"]) // 01.00.00 identifies nothing
        #expect(cameras.first?.name == "3DO USB CAMERA" && cameras.first?.type == .externalCamera)
        #expect(cameras.first?.formats.contains { $0.pixelFormat == .mjpeg } == true)
    }

    /// An HDMI grabber whose name says nothing of capture: its descriptors do (a vendor-specific
    /// input terminal, sound from a digital audio interface), so it is not mirrored like a webcam.
    @Test func hdmiGrabberIsToldByItsDescriptorsNotItsName() throws {
        let (cameras, _) = try discover("elgato-cam-link-4k")
        let grabber = try #require(cameras.first)
        #expect(cameras.count == 1 && grabber.uniqueID == "usb-0fd9:0066-0005AC52FE000" && grabber.type == .externalCamera)
        #expect(grabber.details.videoInput == .connector && grabber.properties["device.video-input"] == "connector")
        #expect(!RotationCoordinator.mirrorsByDefault(grabber))
        // The duplicate NV12 descriptor lists once.
        #expect(grabber.formats.map { "\($0.pixelFormat) \($0.width)x\($0.height)" } == ["NV12 3840x2160", "YU12 3840x2160"])
    }

    /// A webcam with no serial at all and a microphone: a camera terminal, a microphone terminal.
    @Test func webcamWithoutASerialIsNamedByPortAndMirrored() throws {
        let (cameras, _) = try discover("microsoft-lifecam-nx-6000")
        let webcam = try #require(cameras.first)
        #expect(webcam.uniqueID == "usb-045e:00f8@5-3" && webcam.type == .externalCamera)
        #expect(webcam.details.videoInput == .camera && RotationCoordinator.mirrorsByDefault(webcam))
        #expect(webcam.formats.count == 9 && webcam.formats.allSatisfy { $0.pixelFormat == .mjpeg })
        #expect(webcam.formats.first { $0.width == 1600 }?.maxFrameRate == FrameRate(15, 2))
        // Its bus, and what its one streaming setting reserves there (0x13fc: 3 × 1020 bytes a microframe).
        #expect(
            webcam.details.usbLink
                == USBLink(
                    bus: "usb5", speedMbps: 480, streamingInterface: "5-3:1.1",
                    streamingSettings: [PeriodicEndpoint(bytesPerService: 3060)]))
    }

    /// H.264 only on a second function's node: one camera whose formats include it, and the
    /// stream of H.264 opens that node (the MJPG/YUYV node does not list it).
    @Test func h264OnASeparateNodeIsOneCameraAndStreamsFromThatNode() throws {
        let (cameras, system) = try discover("arducam-1080p-h264-node")
        let camera = try #require(cameras.first)
        #expect(cameras.count == 1 && camera.uniqueID == "usb-0c45:6366@1-1") // SN0001 names no unit
        #expect(Set(camera.formats.map(\.pixelFormat)) == [.mjpeg, .yuyv, .h264])
        #expect(camera.properties["api.v4l2.nodes"] == "/dev/video8 /dev/video10" && camera.details.videoNodes == ["/dev/video8", "/dev/video10"])
        let h264 = try #require(camera.formats.first { $0.pixelFormat == .h264 && $0.width == 1920 })
        let mjpeg = try #require(camera.formats.first { $0.pixelFormat == .mjpeg && $0.width == 1920 })
        let discovery = V4L2Discovery(system: system)
        #expect(discovery.node(offering: h264, among: ["video8", "video10"]) == "video10")
        #expect(discovery.node(offering: mjpeg, among: ["video8", "video10"]) == "video8")
    }

    @Test func webcamOnAnAllwinnerBoard() throws {
        let (cameras, _) = try discover("logitech-c922-h616")
        let camera = try #require(cameras.first)
        #expect(cameras.count == 1 && camera.uniqueID == "usb-046d:085c-5A3A22DF" && camera.name == "C922 Pro Stream Webcam")
        #expect(Set(camera.formats.map(\.pixelFormat)) == [.yuyv, .mjpeg])
        #expect(camera.formats.contains { $0.pixelFormat == .mjpeg && $0.width == 1920 && $0.maxFrameRate == FrameRate(30) })
    }

    /// Kernel 5.8's control names are the driver's, listed as v4l2-ctl printed them.
    @Test func controlsKeepTheKernelsOwnNames() throws {
        let system = try ProfileSystem(profiles: ["logitech-brio-kernel-5.8"])
        let (cameras, _) = try discover("logitech-brio-kernel-5.8")
        #expect(cameras.map(\.uniqueID) == ["usb-046d:085e-16201378"])
        let names = Set(try V4L2Controls(devicePath: "/dev/video0", system: system).controls().map(\.name))
        #expect(["exposure_auto", "white_balance_temperature_auto", "focus_auto", "zoom_absolute", "led1_mode"].allSatisfy(names.contains))
    }

    /// A grabber with MS2109's format matrix: YUYV and MJPG up to 1920x1080, listed as the driver lists them.
    @Test func hdmiStickFormatMatrix() throws {
        let (cameras, _) = try discover("ms2109-generic-okmonitor")
        let stick = try #require(cameras.first)
        #expect(stick.uniqueID == "usb-534d:2109@1-2")
        #expect(stick.formats.contains { $0.pixelFormat == .mjpeg && $0.width == 1920 && $0.height == 1080 && $0.maxFrameRate == FrameRate(30) })
        #expect(stick.formats.contains { $0.pixelFormat == .yuyv })
    }

    /// v4l2loopback without a producer: a virtual camera, listed with no formats until one feeds it.
    @Test func loopbackWithoutAProducerIsAVirtualCamera() throws {
        let (cameras, _) = try discover("v4l2loopback-no-producer")
        let loopback = try #require(cameras.first)
        #expect(cameras.count == 1 && loopback.type == .virtualCamera && loopback.formats.isEmpty)
        #expect(loopback.uniqueID == "v4l2-platform:v4l2loopback-000")
    }
}
