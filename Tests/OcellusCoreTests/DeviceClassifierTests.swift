import Testing

@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// behaviour §1 identity and type rules, on facts shaped like real devices
/// (values from real device dumps: a C920, an MS2109 HDMI dongle, a Dell laptop camera).
@Suite struct DeviceClassifierTests {
    func usbFacts(
        vendor: UInt16, product: UInt16, serial: String?, busPath: String = "pci-0000:00:14.0-usb-0:2.3:1.0",
        removable: DeviceFacts.Removable = .removable
    ) -> DeviceFacts {
        var facts = DeviceFacts(media: .video, name: "Camera", backendKey: "42", fallbackName: "v4l2_input.x")
        facts.bus = "usb"
        facts.busPath = busPath
        facts.vendorID = vendor
        facts.productID = product
        facts.serial = serial
        facts.removable = removable
        return facts
    }

    @Test func serialThatIdentifiesTheUnitIsUsed() {
        let facts = usbFacts(vendor: 0x046d, product: 0x082d, serial: "A1B2C3D4")
        #expect(DeviceClassifier.uniqueID(of: facts, backend: .pipewire, serialTaken: false) == "usb-046d:082d-A1B2C3D4")
    }

    @Test(arguments: ["20150130", "SN0001", "01.00.00", "0000000000000000", "", "   ", "1111"])
    func placeholderSerialFallsBackToPort(serial: String) {
        let facts = usbFacts(vendor: 0x534d, product: 0x2109, serial: serial)
        #expect(
            DeviceClassifier.uniqueID(of: facts, backend: .pipewire, serialTaken: false)
                == "usb-534d:2109@pci-0000:00:14.0-usb-0:2.3")
    }

    /// Firmware versions and build dates that models put in iSerial (the first from a real
    /// Raspberry Pi webcam dump), next to serials that merely contain digits.
    @Test(arguments: ["YG_U700_D.2021.0104.1403", "V1.2.3", "2.10", "2019-07-15", "20210104", "202101041403"])
    func versionAndDateSerialsIdentifyNothing(serial: String) {
        #expect(!DeviceClassifier.isIdentifyingSerial(serial))
    }

    @Test(arguments: [
        "B61DEDAF", "CAM0001", "VCAM-0000", "SN20210104X9Z7Q", "0x0001AB34", "123456789012",
        // from the device dumps: a C920, a C922, a Microsoft webcam, the MacBook's iBridge camera
        "5A3A22DF", "16201378", "0005AC52FE000", "046d_082d_B61DEDAF"
    ])
    func realLookingSerialsStillIdentify(serial: String) {
        #expect(DeviceClassifier.isIdentifyingSerial(serial))
    }

    /// What models ship on every unit, by kind rather than by name: versions with a date,
    /// words, counters, too short, too little variety, runs.
    @Test(arguments: [
        "V1.2.0.20210604", "v2.0.1", "1.0.0.0", "2021_06_04", "FW-2.3-20200101",
        "NONE", "Serial Number", "USB Camera", "xxxx(hidden)", "DEFAULT",
        "000001", "SN0002", "00001234", "CAM01", "S", "12AB", "0000",
        "00000000", "AAAA1111", "ABAB1212", "123456", "0123456789ABCDEF", "987654321",
        // from the device dumps: Apple's iBridge placeholder, a udev ID_SERIAL with a build date
        "nomac?123456", "Generic_Integrated_Camera_200901010001"
    ])
    func serialsEveryUnitSharesIdentifyNothing(serial: String) {
        #expect(!DeviceClassifier.isIdentifyingSerial(serial))
    }

    /// Built-in or external beyond `removable`: the port's wiring first, then an ACPI location
    /// in the lid; `panel` gives a built-in camera its position.
    @Test func hardWiredPortOrLidMakesABuiltInCameraWhateverRemovableSays() {
        var wired = usbFacts(vendor: 0x1bcf, product: 0x2ba0, serial: nil, removable: .unknown)
        wired.portConnection = .hardwired
        wired.panel = "back"
        #expect(DeviceClassifier.type(of: wired) == .builtInCamera)
        #expect(DeviceClassifier.position(of: wired, type: .builtInCamera) == .back)
        var lid = usbFacts(vendor: 0x1bcf, product: 0x2ba0, serial: nil, removable: .unknown)
        lid.inLid = true
        #expect(DeviceClassifier.type(of: lid) == .builtInCamera)
        #expect(DeviceClassifier.position(of: lid, type: .builtInCamera) == .front)
        var socket = usbFacts(vendor: 0x046d, product: 0x082d, serial: nil, removable: .fixed)
        socket.portConnection = .hotplug // a user-reachable socket, whatever an internal hub reports
        #expect(DeviceClassifier.type(of: socket) == .externalCamera)
    }

    @Test func serialSharedByAnotherConnectedUnitFallsBackToPort() {
        let facts = usbFacts(vendor: 0x0c45, product: 0x6366, serial: "SN12345X")
        #expect(
            DeviceClassifier.uniqueID(of: facts, backend: .pipewire, serialTaken: true)
                == "usb-0c45:6366@pci-0000:00:14.0-usb-0:2.3")
    }

    @Test func kernelPortWinsOverBusPath() {
        var facts = usbFacts(vendor: 0x534d, product: 0x2109, serial: nil)
        facts.usbPort = "1-2.3"
        #expect(DeviceClassifier.uniqueID(of: facts, backend: .v4l2, serialTaken: false) == "usb-534d:2109@1-2.3")
    }

    @Test func identicalCamerasOnDifferentPortsStayDistinct() {
        let a = usbFacts(vendor: 0x534d, product: 0x2109, serial: nil, busPath: "pci-0000:00:14.0-usb-0:1:1.0")
        let b = usbFacts(vendor: 0x534d, product: 0x2109, serial: nil, busPath: "pci-0000:00:14.0-usb-0:2:1.0")
        #expect(
            DeviceClassifier.uniqueID(of: a, backend: .pipewire, serialTaken: false)
                != DeviceClassifier.uniqueID(of: b, backend: .pipewire, serialTaken: false))
    }

    @Test func microphoneOfACameraGetsItsOwnID() {
        var mic = usbFacts(vendor: 0x046d, product: 0x082d, serial: "A1B2C3D4")
        mic.media = .audio
        #expect(DeviceClassifier.uniqueID(of: mic, backend: .pipewire, serialTaken: false) == "usb-046d:082d-A1B2C3D4-audio")
        #expect(DeviceClassifier.type(of: mic) == .microphone)
    }

    @Test func softwareSourceIsVirtualWithBackendID() {
        var facts = DeviceFacts(media: .video, name: "OBS", backendKey: "7", fallbackName: "obs-cam")
        facts.isSoftwareSource = true
        #expect(DeviceClassifier.type(of: facts) == .virtualCamera)
        #expect(DeviceClassifier.position(of: facts, type: .virtualCamera) == .unspecified)
        #expect(DeviceClassifier.uniqueID(of: facts, backend: .pipewire, serialTaken: false) == "pipewire-obs-cam")
    }

    @Test func fixedUSBCameraIsBuiltInFront() {
        let facts = usbFacts(vendor: 0x1bcf, product: 0x2ba0, serial: "200901010001", removable: .fixed)
        let type = DeviceClassifier.type(of: facts)
        #expect(type == .builtInCamera)
        #expect(DeviceClassifier.position(of: facts, type: type) == .front)
    }

    @Test(arguments: [DeviceFacts.Removable.removable, .unknown])
    func pluggableUSBCameraIsExternalWithoutPosition(removable: DeviceFacts.Removable) {
        let facts = usbFacts(vendor: 0x046d, product: 0x082d, serial: "X", removable: removable)
        let type = DeviceClassifier.type(of: facts)
        #expect(type == .externalCamera)
        #expect(DeviceClassifier.position(of: facts, type: type) == .unspecified)
    }

    @Test func libcameraLocationDecidesBuiltInPosition() {
        var facts = DeviceFacts(media: .video, name: "imx708", backendKey: "1", fallbackName: "libcamera")
        facts.location = "back"
        facts.firmwarePath = "/base/soc/i2c0mux/i2c@1/imx708@1a"
        #expect(DeviceClassifier.type(of: facts) == .builtInCamera)
        #expect(DeviceClassifier.position(of: facts, type: .builtInCamera) == .back)
        #expect(
            DeviceClassifier.uniqueID(of: facts, backend: .pipewire, serialTaken: false)
                == "platform-_base_soc_i2c0mux_i2c@1_imx708@1a")
    }

    /// A depth format wherever it is listed makes a depth camera: alone, or beside picture formats.
    @Test func depthFormatsMakeADepthCameraWhereverListed() {
        var facts = usbFacts(vendor: 0x8086, product: 0x0b5b, serial: "123")
        facts.formats = [VideoFormat(pixelFormat: .z16, width: 848, height: 480, frameRates: [FrameRate(30)])]
        #expect(DeviceClassifier.type(of: facts) == .depthCamera)
        facts.formats.append(VideoFormat(pixelFormat: .yuyv, width: 640, height: 480, frameRates: [FrameRate(30)]))
        #expect(DeviceClassifier.type(of: facts) == .depthCamera)
        #expect(facts.depthFormatsListed.map(\.pixelFormat) == [.z16])
        facts.formats.removeFirst()
        #expect(DeviceClassifier.type(of: facts) == .externalCamera)
    }
}

@Suite struct AppIDTests {
    @Test(arguments: ["org.example.Meet", "a", "A-b_c.9", String(repeating: "x", count: 255)])
    func validIDs(id: String) throws {
        try AppID.validate(id)
    }

    @Test(arguments: ["", "../x", ".hidden", "a/b", "with space", "ünicode", String(repeating: "x", count: 256)])
    func invalidIDs(id: String) {
        #expect(throws: OcellusError.self) { try AppID.validate(id) }
    }
}

@Suite struct FormatModelTests {
    @Test func fourCCRoundTrips() {
        #expect(FourCC("YUYV").description == "YUYV")
        #expect(FourCC.z16.description == "Z16")
        #expect(FourCC.mjpeg.rawValue == 0x4750_4a4d)
    }

    @Test func frameRatesAreSortedHighestFirstWithoutDuplicates() {
        let format = VideoFormat(
            pixelFormat: .nv12, width: 1, height: 1,
            frameRates: [FrameRate(15), FrameRate(30000, 1001), FrameRate(30), FrameRate(15)])
        #expect(format.frameRates == [FrameRate(30), FrameRate(30000, 1001), FrameRate(15)])
        #expect(format.maxFrameRate == FrameRate(30))
    }

    @Test func rangeKeepsMaximumAndMinimum() {
        let format = VideoFormat(
            pixelFormat: .nv12, width: 1, height: 1,
            frameRates: [FrameRate(1), FrameRate(60), FrameRate(30)], frameRatesAreRange: true)
        #expect(format.frameRates == [FrameRate(60), FrameRate(1)])
    }
}

@Suite struct StateDirectoryTests {
    func resolve(_ explicit: String?, _ environment: [String: String]) throws -> String {
        try StateDirectory.resolve(explicit: explicit) { environment[$0] }
    }

    @Test func precedence() throws {
        let all = ["OCELLUS_STATE_DIR": "/o", "XDG_STATE_HOME": "/x", "HOME": "/h"]
        #expect(try resolve("/explicit", all) == "/explicit")
        #expect(try resolve(nil, all) == "/o")
        #expect(try resolve(nil, ["XDG_STATE_HOME": "/x", "HOME": "/h"]) == "/x/ocellus")
        #expect(try resolve(nil, ["HOME": "/h"]) == "/h/.local/state/ocellus")
    }

    @Test func relativeXDGStateHomeIsIgnored() throws {
        #expect(try resolve(nil, ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/ocellus")
    }

    @Test func withoutHOMETheAccountsHomeIsUsed() throws {
        #expect(
            try StateDirectory.resolve(explicit: nil, environment: { _ in nil }, accountHome: { "/home/u" })
                == "/home/u/.local/state/ocellus")
        #expect(
            try StateDirectory.resolve(explicit: nil, environment: { $0 == "HOME" ? "" : nil }, accountHome: { "/home/u" })
                == "/home/u/.local/state/ocellus")
    }

    @Test func aVariableThatIsNotUTF8IsAnErrorNotAnotherDirectory() {
        let utf8 = strdup("/tmp/caf\u{E9}")! // as UTF-8: valid
        let latin1 = UnsafeMutablePointer<CChar>.allocate(capacity: 10)
        defer {
            free(utf8)
            latin1.deallocate()
        }
        latin1.initialize(from: Array("/tmp/caf".utf8CString.dropLast()) + [CChar(bitPattern: 0xE9), 0], count: 10)
        let variables = ["VALID": UnsafePointer(utf8), "LATIN1": UnsafePointer(latin1)]
        #expect((try? environmentVariable("VALID", lookup: { variables[$0] })) == "/tmp/caf\u{E9}")
        #expect { try environmentVariable("LATIN1", lookup: { variables[$0] }) } throws: { error in
            (error as? OcellusError)?.message.contains("LATIN1 is not valid UTF-8") == true
        }
        #expect(throws: OcellusError.self) {
            try StateDirectory.resolve(explicit: nil) { name throws(OcellusError) in
                switch name {
                case "XDG_STATE_HOME": try environmentVariable("LATIN1", lookup: { variables[$0] })
                case "HOME": "/h"
                default: nil
                }
            }
        }
    }

    @Test func nothingToGoOnIsAnError() {
        #expect(throws: OcellusError.self) { try StateDirectory.resolve(explicit: nil, environment: { _ in nil }, accountHome: { nil }) }
        #expect(throws: OcellusError.self) { try resolve("", ["HOME": "/h"]) }
    }
}
