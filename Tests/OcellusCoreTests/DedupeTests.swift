import OcellusTestSupport
import Testing

@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The hub's rule for a camera that both backends see, with scripted stand-in backends: no
/// machine here has a camera that PipeWire and raw V4L2 can both see (the vivid guest runs no PipeWire).
@Suite struct DedupeTests {
    func webcam(key: String) -> DeviceFacts { ScriptedCameras.webcam(serial: "B61DEDAF", key: key) }

    func makeHub() throws -> (DeviceHub, ScriptedBackend, ScriptedBackend, String) {
        let pipewire = ScriptedBackend(.pipewire), v4l2 = ScriptedBackend(.v4l2), state = ScriptedCameras.stateDirectory()
        return (try ScriptedCameras.hub([pipewire, v4l2], appID: "org.ocellus.test.dedupe", stateDirectory: state), pipewire, v4l2, state)
    }

    @Test func theSameCameraIsListedOnceThroughPipeWire() throws {
        let (hub, pipewire, v4l2, _) = try makeHub()
        defer { hub.close() }
        v4l2.add(webcam(key: "/sys/devices/usb3/3-3"))
        let rawInstance = try #require(hub.devices().first)
        #expect(rawInstance.backend == .v4l2)
        pipewire.add(webcam(key: "71"))
        #expect(hub.devices().map(\.backend) == [.pipewire])
        #expect(!rawInstance.isConnected) // replaced by the PipeWire instance
        // The daemon goes away while the camera stays: it comes back through V4L2.
        pipewire.fail()
        let revived = try #require(hub.devices().first)
        #expect(revived.backend == .v4l2 && revived.uniqueID == "usb-046d:082d-B61DEDAF" && revived !== rawInstance)
        // A V4L2 camera appearing while PipeWire has it stays hidden.
        pipewire.add(webcam(key: "72"))
        v4l2.remove("/sys/devices/usb3/3-3")
        v4l2.add(webcam(key: "/sys/devices/usb3/3-3"))
        #expect(hub.devices().map(\.backend) == [.pipewire])
    }

    /// One device number, one camera: a USB webcam that PipeWire publishes through both its V4L2
    /// monitor and its libcamera monitor, whose camera ID is an ACPI path sysfs cannot resolve
    /// (the only key they share is the kernel node), is listed once, as the webcam, in either
    /// order of appearance.
    @Test(arguments: [false, true])
    func theLibcameraAndV4L2MonitorNodesOfOneWebcamAreOneCamera(libcameraFirst: Bool) throws {
        let (hub, pipewire, _, _) = try makeHub()
        defer { hub.close() }
        var monitor = webcam(key: "70")
        monitor.deviceNumbers = [DeviceNumbers.make(major: 81, minor: 2)]
        var libcamera = DeviceFacts(
            media: .video, name: "Integrated Camera", backendKey: "71",
            fallbackName: "libcamera_input.__SB_.PC00.XHCI.RHUB.HS05-5_1.0-046d_082d")
        libcamera.firmwarePath = "\\_SB_.PC00.XHCI.RHUB.HS05-5:1.0-046d:082d"
        libcamera.location = "external"
        libcamera.deviceNumbers = [DeviceNumbers.make(major: 81, minor: 2)]
        libcamera.formats = monitor.formats
        for facts in libcameraFirst ? [libcamera, monitor] : [monitor, libcamera] { pipewire.add(facts) }
        let cameras = hub.devices()
        #expect(cameras.map(\.uniqueID) == ["usb-046d:082d-B61DEDAF"], "\(cameras.map(\.uniqueID))")
        #expect(cameras.first?.type == .externalCamera && cameras.first?.vendorID == 0x046d)
        // Either view going leaves the camera listed through the other, under the same ID.
        pipewire.remove(libcameraFirst ? "70" : "71")
        #expect(hub.devices().map(\.uniqueID) == ["usb-046d:082d-B61DEDAF"])
    }

    /// A v4l2loopback relay (an IPU6 camera passed on through a loopback node) seen by raw V4L2 and
    /// through PipeWire's node of the same /dev/video: no hardware identity at all, one device
    /// number, one camera, named alike in either order.
    @Test(arguments: [false, true])
    func aLoopbackNodeSeenByBothBackendsIsOneCamera(pipewireFirst: Bool) throws {
        let (hub, pipewire, v4l2, _) = try makeHub()
        defer { hub.close() }
        var raw = DeviceFacts(media: .video, name: "Intel MIPI Camera", backendKey: "/dev/video50", fallbackName: "platform:v4l2loopback-050")
        var node = DeviceFacts(media: .video, name: "Intel MIPI Camera", backendKey: "88", fallbackName: "v4l2_input.platform-v4l2loopback-050")
        for index in [0, 1] {
            var facts = index == 0 ? raw : node
            facts.isSoftwareSource = true
            facts.deviceNumbers = [DeviceNumbers.make(major: 81, minor: 50)]
            facts.formats = [VideoFormat(pixelFormat: .yuyv, width: 1280, height: 720, frameRates: [FrameRate(30)])]
            if index == 0 { raw = facts } else { node = facts }
        }
        if pipewireFirst { pipewire.add(node); v4l2.add(raw) } else { v4l2.add(raw); pipewire.add(node) }
        let cameras = hub.devices()
        #expect(cameras.count == 1 && cameras.first?.backend == .pipewire, "\(cameras.map(\.uniqueID))")
        #expect(cameras.first?.uniqueID == "v4l2-platform:v4l2loopback-050")
    }

    /// Two units of one model with one serial: once seen together, the serial is remembered
    /// (in the state directory) and both get port IDs in any plug order, in any later context.
    @Test func aSerialSeenOnTwoUnitsGivesPortIDsFromThenOn() throws {
        func unit(_ port: String) -> DeviceFacts {
            var facts = webcam(key: "/sys/devices/usb1/\(port)")
            facts.serial = "FW7K1403"
            facts.usbPort = port
            return facts
        }
        let (hub, _, v4l2, state) = try makeHub()
        v4l2.add(unit("1-1"))
        v4l2.add(unit("2-1"))
        #expect(Set(hub.devices().map(\.uniqueID)) == ["usb-046d:082d-FW7K1403", "usb-046d:082d@2-1"])
        hub.close()
        // Later, either unit alone, in either order: its port names it.
        for port in ["1-1", "2-1"] {
            let backend = ScriptedBackend(.v4l2)
            let later = try DeviceHub(
                appID: "org.ocellus.test.dedupe", backends: [backend], timeoutMilliseconds: 0,
                stateDirectory: state)
            backend.add(unit(port))
            #expect(later.devices().map(\.uniqueID) == ["usb-046d:082d@\(port)"])
            later.close()
        }
    }

    /// Through PipeWire each video function of a USB device is a node of its own: a laptop's
    /// infrared function beside its webcam, a depth camera's depth and infrared beside its
    /// colour. They are one camera: listed once, as its colour function, with the serial's ID
    /// (the functions share the serial because they are one unit, not two units).
    @Test func theFunctionsOfOneUSBDeviceAreOneCameraThroughPipeWire() throws {
        let (hub, pipewire, v4l2, _) = try makeHub()
        defer { hub.close() }
        var infrared = webcam(key: "81")
        infrared.formats = [VideoFormat(pixelFormat: .grey, width: 340, height: 340, frameRates: [FrameRate(30)])]
        var colour = webcam(key: "82")
        colour.formats = [
            VideoFormat(pixelFormat: .yuyv, width: 640, height: 480, frameRates: [FrameRate(30)]),
            VideoFormat(pixelFormat: .mjpeg, width: 1280, height: 720, frameRates: [FrameRate(30)])
        ]
        pipewire.add(infrared)
        pipewire.add(colour)
        #expect(hub.devices().map(\.backendKey) == ["82"])
        #expect(hub.devices().first?.uniqueID == "usb-046d:082d-B61DEDAF")
        // An equal view arriving later does not replace the listed instance.
        let listed = try #require(hub.devices().first)
        var twin = colour
        twin.backendKey = "83"
        pipewire.add(twin)
        #expect(hub.devices().first === listed)
        // A depth camera's V4L2 view outranks every PipeWire view (PipeWire has no depth).
        var depth = colour
        depth.backendKey = "/sys/devices/usb3/3-3"
        depth.depthFormats = [VideoFormat(pixelFormat: .z16, width: 640, height: 480, frameRates: [FrameRate(30)])]
        v4l2.add(depth)
        #expect(hub.devices().map(\.backend) == [.v4l2] && !listed.isConnected)
        // It goes: the best PipeWire view comes back, not the infrared one.
        v4l2.remove("/sys/devices/usb3/3-3")
        #expect(hub.devices().count == 1 && ["82", "83"].contains(hub.devices().first?.backendKey ?? ""))
    }

    /// Two software sources that happen to share a name (and so the fallback ID) are two
    /// cameras, not two views of one: both are listed and announced.
    @Test func softwareSourcesSharingANameAreNotFolded() throws {
        let (hub, pipewire, _, _) = try makeHub()
        defer { hub.close() }
        for key in ["91", "92"] {
            var source = DeviceFacts(media: .video, name: "Test Pattern", backendKey: key, fallbackName: "test-pattern")
            source.isSoftwareSource = true
            source.formats = [VideoFormat(pixelFormat: .yuyv, width: 320, height: 240, frameRates: [FrameRate(30)])]
            pipewire.add(source)
        }
        #expect(hub.devices().map(\.backendKey).sorted() == ["91", "92"])
    }
}
