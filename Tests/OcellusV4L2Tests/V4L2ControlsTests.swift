import CV4L2
import OcellusCore
import Testing

@testable import OcellusV4L2

/// The controls API on a Logitech C920's controls replayed from its `v4l2-ctl --all` dump.
@Suite struct V4L2ControlsTests {
    func c920() throws -> (V4L2Controls, ProfileSystem) {
        let system = try ProfileSystem(profiles: ["logitech-c920"])
        return (V4L2Controls(devicePath: "/dev/video0", system: system), system)
    }

    @Test func describesTheUVCSetWithRangesMenusAndFlags() throws {
        let (controls, system) = try c920()
        let all = Dictionary(uniqueKeysWithValues: try controls.controls().map { ($0.name, $0) })
        #expect(
            Set(all.keys).isSuperset(of: [
                "brightness", "contrast", "saturation", "white_balance_automatic", "gain",
                "power_line_frequency", "white_balance_temperature", "sharpness",
                "auto_exposure", "exposure_time_absolute", "pan_absolute", "tilt_absolute",
                "focus_absolute", "focus_automatic_continuous", "zoom_absolute"
            ]))
        let temperature = try #require(all["white_balance_temperature"])
        #expect((temperature.minimum, temperature.maximum, temperature.defaultValue, temperature.value) == (2000, 6500, 4000, 3222))
        #expect(all["power_line_frequency"]?.menu.map(\.name) == ["Disabled", "50 Hz", "60 Hz"])
        #expect(all["auto_exposure"]?.menu.map(\.value) == [1, 3]) // a menu with holes
        #expect(all["exposure_time_absolute"]?.flags.contains(.inactive) == true)
        #expect(all["white_balance_automatic"]?.kind == .boolean)
        #expect(system.openDescriptorCount == 0)
    }

    @Test func setsValidValuesAndRefusesOthersWithTheReason() throws {
        let (controls, _) = try c920()
        try controls.setControl(named: "zoom_absolute", to: 300)
        #expect(try controls.controls().first { $0.name == "zoom_absolute" }?.value == 300)
        func refusal(_ name: String, _ value: Int64) -> String? {
            do { try controls.setControl(named: name, to: value); return nil } catch { return error.message }
        }
        #expect(refusal("zoom_absolute", 600)?.contains("out of range") == true)
        #expect(refusal("pan_absolute", 1000)?.contains("not a valid step") == true) // step 3600
        #expect(refusal("auto_exposure", 2)?.contains("not an item") == true)
        #expect(refusal("hue", 1)?.contains("no control named hue") == true)
        #expect(try controls.controls().first { $0.name == "zoom_absolute" }?.value == 300) // refusals change nothing
    }

    /// A set reads no value: on a UVC camera each read is a USB request, and face-driven
    /// adjustments set several controls ten times a second.
    @Test func aSetDescribesTheControlsWithoutReadingThem() throws {
        let (controls, system) = try c920()
        let reads = system.count(of: CV4L2_VIDIOC_G_EXT_CTRLS)
        try controls.setControl(named: "zoom_absolute", to: 200)
        try controls.setControl(named: "gain", to: 40)
        #expect(system.count(of: CV4L2_VIDIOC_G_EXT_CTRLS) == reads)
        #expect(system.count(of: CV4L2_VIDIOC_S_EXT_CTRLS) == 2)
        let values = Dictionary(uniqueKeysWithValues: try controls.controls().map { ($0.name, $0.value) })
        #expect(values["zoom_absolute"] == 200 && values["gain"] == 40)
        #expect(system.count(of: CV4L2_VIDIOC_G_EXT_CTRLS) > reads, "listing reads the values")
    }

    @Test func configurationLockIsExclusiveWithinTheProcess() throws {
        let (controls, system) = try c920()
        try controls.lockForConfiguration()
        #expect(throws: OcellusError.self) { try controls.lockForConfiguration() }
        try controls.setControl(named: "brightness", to: 10) // through the locked descriptor
        #expect(system.openDescriptorCount == 1)
        try controls.unlockForConfiguration()
        #expect(system.openDescriptorCount == 0)
        #expect(throws: OcellusError.self) { try controls.unlockForConfiguration() }
    }
}

/// A depth node's unit: read from a `depth_units` control (micrometres per unit) where the
/// driver has one; none on the real D457 depth node, whose Z16 is then millimetres.
@Suite struct DepthUnitTests {
    @Test func aDepthUnitsControlGivesTheUnitAndItsAbsenceMillimetres() throws {
        let constructed = try ProfileSystem(profiles: ["depth-node-with-depth-units"])
        #expect(V4L2CameraStream.depthUnit(of: "/dev/video0", system: constructed) == Float(100) * 1e-6)
        let real = try ProfileSystem(profiles: ["realsense-d457-depth"])
        #expect(V4L2CameraStream.depthUnit(of: "/dev/video0", system: real) == nil)
        #expect(constructed.openDescriptorCount == 0 && real.openDescriptorCount == 0)
    }
}
