import Testing

@testable import OcellusPipeWire

/// Numeric properties in whichever form the daemon writes them.
@Suite struct PipeWireFactsTests {
    /// Current PipeWire writes "0x174f"; 0.3.4x (Ubuntu 22.04's 0.3.48) wrote the number in
    /// decimal (5967 is 0x174f); udev's own form is bare hex.
    @Test func usbIDsAreReadInTheBaseTheyAreWrittenIn() {
        #expect(PipeWireFacts.parseUSBID("0x174f") == 0x174f)
        #expect(PipeWireFacts.parseUSBID("5967") == 0x174f)
        #expect(PipeWireFacts.parseUSBID("8250") == 8250 && PipeWireFacts.parseUSBID("65529") == 65529)
        #expect(PipeWireFacts.parseUSBID("046d") == 0x046d && PipeWireFacts.parseUSBID("0825") == 0x0825)
        #expect(PipeWireFacts.parseUSBID("70000") == nil && PipeWireFacts.parseUSBID("0xgg") == nil && PipeWireFacts.parseUSBID("") == nil)
    }

    @Test func deviceNumbersComeFromEitherMonitorsProperty() {
        #expect(PipeWireFacts.deviceNumbers(["device.devids": "20738"]) == [20738])
        #expect(PipeWireFacts.deviceNumbers(["api.libcamera.SystemDevices": "[ 20738, 20739 ]", "device.devids": "20738"]) == [20738, 20739])
        #expect(PipeWireFacts.deviceNumbers(["device.devids": "video2"]).isEmpty)
    }
}
