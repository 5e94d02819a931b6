import OcellusCore
import Testing

@testable import OcellusV4L2
@testable import OcellusVision

/// behaviour §4 face-driven exposure and focus on cameras replayed from real dumps: the tier each
/// camera's controls allow (read by control ID: kernel 5.8's names are not 6.x's), and what the
/// steering writes to the controls and gives back.
@Suite struct FaceDrivenProfileTests {
    func controls(_ profile: String) throws -> (V4L2Controls, ProfileSystem) {
        let system = try ProfileSystem(profiles: [profile])
        return (V4L2Controls(devicePath: "/dev/\(system.nodes[0].name)", system: system), system)
    }

    @Test(arguments: [
        ("logitech-c920", FaceDrivenTier.host, FaceDrivenTier.host),
        ("logitech-brio-kernel-5.8", .host, .host), // exposure_absolute, focus_auto: the old names
        ("sunplusit-uvc15-roi", .cameraRegion, .none), // UVC 1.5 region of interest, no focus control
        ("ms2109-hdmi-capture", .none, .none) // a capture stick: nothing to steer
    ])
    func theTierFollowsTheControlsOffered(profile: String, exposure: FaceDrivenTier, focus: FaceDrivenTier) throws {
        let (controls, _) = try controls(profile)
        #expect(FaceDrivenTiers(controls: try controls.controls()) == FaceDrivenTiers(exposure: exposure, focus: focus))
    }

    /// A grey picture `width` x `height` of `background`, with a face box of `level`.
    final class Picture {
        let width = 480, height = 270
        let pixels: UnsafeMutableBufferPointer<UInt8>
        let face = NormalizedRect(x: 0.4, y: 0.3, width: 0.2, height: 0.35)
        var timestamp: UInt64 = monotonicNanoseconds()

        deinit { pixels.deallocate() }

        init(level: UInt8, background: UInt8 = 230) {
            pixels = .allocate(capacity: width * height)
            pixels.initialize(repeating: background)
            for y in Int(face.y * 270)..<Int((face.y + face.height) * 270) {
                for x in Int(face.x * 480)..<Int((face.x + face.width) * 480) { pixels[y * width + x] = level }
            }
        }

        /// The picture as the analysis hands it over, a second after the last (past any settling).
        func next() -> GreyPicture {
            timestamp += 1_000_000_000
            return GreyPicture(pixels: UnsafeBufferPointer(pixels), width: width, height: height, timestampNanoseconds: timestamp)
        }
    }

    func steered(_ controls: V4L2Controls, width: Int, height: Int) throws -> SteeredCamera {
        let list = try controls.controls()
        let camera = Device(
            uniqueID: "usb-test", name: "Test", type: .externalCamera, position: .unspecified, backend: .v4l2,
            backendKey: "video0", formats: [], vendorID: nil, productID: nil, serialNumber: nil,
            pluggedMicroseconds: nil, properties: [:])
        return SteeredCamera(
            camera: camera, controls: controls, tiers: FaceDrivenTiers(controls: list), width: width, height: height,
            controlList: list, frameInterval: 33_333_333)
    }

    func value(_ controls: V4L2Controls, _ name: String) throws -> Int64? { try controls.controls().first { $0.name == name }?.value }

    @Test func theCameraRegionIsPointedAtTheFaceAndGivenBack() throws {
        let (controls, system) = try controls("sunplusit-uvc15-roi")
        var camera = try steered(controls, width: 1280, height: 720)
        let picture = Picture(level: 40)
        let adjusting = camera.step(picture.next(), picture.face, setting: .init())
        #expect(adjusting)
        let region = try #require(system.nodes[0].extendedControls.first { $0.name == "region_of_interest_rect" })
        func rect(_ bytes: [UInt8]) -> [Int32] {
            stride(from: 0, to: 16, by: 4).map {
                Int32(bitPattern: UInt32(bytes[$0]) | UInt32(bytes[$0 + 1]) << 8 | UInt32(bytes[$0 + 2]) << 16 | UInt32(bytes[$0 + 3]) << 24)
            }
        }
        // The face in the stream's pixels: 0.4 x 1280 = 512, 0.3 x 720 = 216, 256 x 252.
        #expect(region.payloadsSet.map(rect) == [[512, 216, 256, 252]])
        #expect(try value(controls, "region_of_interest_auto") == FaceDrivenControlID.regionAutoExposure)
        #expect(try value(controls, "auto_exposure") == 3, "the camera's own exposure runs, metering the region")
        // The face staying put: nothing is written again.
        _ = camera.step(picture.next(), picture.face, setting: .init())
        #expect(system.nodes[0].extendedControls.first { $0.name == "region_of_interest_rect" }?.payloadsSet.count == 1)
        camera.restore(.exposure)
        let restored = try #require(system.nodes[0].extendedControls.first { $0.name == "region_of_interest_rect" })
        #expect(restored.payloadsSet.last.map(rect) == [0, 0, 1280, 720])
    }

    @Test func theHostLoopTakesOverWithTheValuesItWritesThenBrightensAndGivesBack() throws {
        let (controls, _) = try controls("logitech-c920")
        var camera = try steered(controls, width: 640, height: 480)
        let dark = Picture(level: 40)
        let adjusting = camera.step(dark.next(), dark.face, setting: .init())
        #expect(adjusting)
        // First the manual mode with the exposure time and gain read written back: a known base.
        #expect(try value(controls, "auto_exposure") == 1)
        #expect(try value(controls, "exposure_time_absolute") == 333)
        #expect(try value(controls, "gain") == 17)
        _ = camera.step(dark.next(), dark.face, setting: .init())
        // Exposure time is at a frame at 30 fps already: the light comes from gain.
        #expect(try value(controls, "exposure_time_absolute") == 333)
        #expect(try value(controls, "gain")! > 17)
        #expect(camera.isActing(.exposure))
        camera.restore(.exposure)
        #expect(try value(controls, "auto_exposure") == 3)
        #expect(try value(controls, "exposure_time_absolute") == 333)
        #expect(try value(controls, "gain") == 17)
        #expect(!camera.isActing(.exposure))
    }

    @Test func aFaceInTheBandChangesNothing() throws {
        let (controls, _) = try controls("logitech-c920")
        var camera = try steered(controls, width: 640, height: 480)
        let lit = Picture(level: 120)
        let before = try controls.controls().map(\.value)
        for _ in 0..<3 { _ = camera.step(lit.next(), lit.face, setting: FaceDrivenSettings.State()) }
        // Focus sweeps (it cannot know the lens is right without trying), exposure does not move.
        #expect(try value(controls, "auto_exposure") == 3)
        #expect(before.count == (try controls.controls()).count)
    }

    @Test func anotherHandOnTheExposureIsLeftAlone() throws {
        let (controls, _) = try controls("logitech-c920")
        var camera = try steered(controls, width: 640, height: 480)
        let dark = Picture(level: 40)
        _ = camera.step(dark.next(), dark.face, setting: .init())
        try controls.setControl(named: "gain", to: 200) // the user, in another app's panel
        _ = camera.step(dark.next(), dark.face, setting: .init())
        #expect(try value(controls, "gain") == 200)
        #expect(!camera.isActing(.exposure))
        camera.restore(.exposure)
        #expect(try value(controls, "gain") == 200, "what another hand set stays")
    }

    @Test func turnedOffByTheAppEverythingIsGivenBack() throws {
        let (controls, _) = try controls("logitech-c920")
        var camera = try steered(controls, width: 640, height: 480)
        let dark = Picture(level: 40)
        _ = camera.step(dark.next(), dark.face, setting: .init())
        #expect(try value(controls, "auto_exposure") == 1)
        var off = FaceDrivenSettings.State()
        off.exposure = FaceDrivenSetting(automaticallyAdjusts: false, isEnabled: false)
        off.focus = off.exposure
        let adjusting = camera.step(dark.next(), dark.face, setting: off)
        #expect(!adjusting)
        #expect(try value(controls, "auto_exposure") == 3)
        #expect(try value(controls, "focus_automatic_continuous") == 1)
    }

    @Test func theAppsConfigurationLockTurnsTheAutomaticChoiceOff() throws {
        let (controls, _) = try controls("logitech-c920")
        var camera = try steered(controls, width: 640, height: 480)
        try controls.lockForConfiguration()
        defer { try? controls.unlockForConfiguration() }
        let dark = Picture(level: 40)
        let adjusting = camera.step(dark.next(), dark.face, setting: .init())
        #expect(!adjusting)
        #expect(try value(controls, "auto_exposure") == 3)
        // Turned on explicitly, it runs under the app's lock (no other client can change controls then).
        var on = FaceDrivenSettings.State()
        on.exposure = FaceDrivenSetting(automaticallyAdjusts: false, isEnabled: true)
        _ = camera.step(dark.next(), dark.face, setting: on)
        #expect(try value(controls, "auto_exposure") == 1)
    }
}
