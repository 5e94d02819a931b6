import OcellusUSB
import Testing

/// libcamera's camera IDs: a UVC camera's names its USB interface and model (how the PipeWire
/// backend joins libcamera's node of a webcam to the V4L2 monitor's); others are firmware paths.
@Suite struct LibcameraIDTests {
    @Test func aUVCCamerasIDNamesItsInterfaceAndModel() throws {
        let acpi = try #require(USBIdentity.libcameraUSBCamera(#"\_SB_.PCI0.XHC_.RHUB.HS07-1-7:1.0-5986:211b"#))
        #expect(acpi.interface == "1-7:1.0" && acpi.vendorID == 0x5986 && acpi.productID == 0x211b)
        let hub = try #require(USBIdentity.libcameraUSBCamera("/base/scb/pcie@7d500000/pci@0,0/usb@0,0-10-1.4.2:1.0-046d:0825"))
        #expect(hub.interface == "10-1.4.2:1.0" && hub.vendorID == 0x046d)
    }

    @Test(arguments: [
        #"\_SB_.PC00.I2C2.CAMR"#, "/base/soc/i2c0mux/i2c@1/imx708@1a", "/base/axi/pcie@120000/rp1/i2c@88000/ov5647@36",
        "x-1-7:1.0-zz11:0825", "1-7:1.0-046d:825"
    ])
    func otherIDsNameNoUSBCamera(id: String) {
        #expect(USBIdentity.libcameraUSBCamera(id) == nil)
    }
}
