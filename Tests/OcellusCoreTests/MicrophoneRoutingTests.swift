import Testing

@testable import OcellusCore

@Suite struct MicrophoneRoutingTests {
    func microphone(_ id: String, node: String) -> Device {
        Device(
            uniqueID: id, name: "Mic \(id)", type: .microphone, position: .unspecified, backend: .pipewire,
            backendKey: id, formats: [], vendorID: nil, productID: nil, serialNumber: nil,
            pluggedMicroseconds: nil, details: details(defaultDeviceName: node), properties: [:])
    }

    func details(defaultDeviceName: String) -> DeviceDetails {
        var details = DeviceDetails()
        details.defaultDeviceName = defaultDeviceName
        return details
    }

    func route(_ inputs: [(Device, UInt64)], preferred: String? = nil, systemDefault: String?, changedAt: UInt64) -> Device? {
        MicrophoneRouting.route(
            inputs: inputs.map { .init(device: $0.0, pluggedAt: $0.1) }, preferred: preferred,
            systemDefault: systemDefault, systemDefaultChangedAt: changedAt)
    }

    @Test func followsTheSystemDefaultWhenNothingWasPluggedSince() {
        let (builtIn, usb) = (microphone("pipewire-a", node: "a"), microphone("usb-b", node: "b"))
        #expect(route([(builtIn, 10), (usb, 20)], systemDefault: "a", changedAt: 30) === builtIn)
        #expect(route([(builtIn, 10), (usb, 20)], systemDefault: "b", changedAt: 30) === usb)
    }

    @Test func theNewestPluggedMicrophoneWinsOverAnOlderDefault() {
        let (builtIn, usb, headset) = (microphone("a", node: "a"), microphone("b", node: "b"), microphone("c", node: "c"))
        #expect(route([(builtIn, 10), (usb, 40), (headset, 50)], systemDefault: "a", changedAt: 30) === headset)
        headset.markDisconnected() // unplugged: the next newest still came after the default changed
        #expect(route([(builtIn, 10), (usb, 40), (headset, 50)], systemDefault: "a", changedAt: 30) === usb)
        #expect(route([(builtIn, 10), (usb, 40)], systemDefault: "a", changedAt: 45) === builtIn, "a later default choice wins")
    }

    @Test func thePreferredInputWinsWhileConnected() {
        let (builtIn, usb) = (microphone("a", node: "a"), microphone("b", node: "b"))
        #expect(route([(builtIn, 10), (usb, 40)], preferred: "a", systemDefault: "b", changedAt: 50) === builtIn)
        builtIn.markDisconnected()
        #expect(route([(builtIn, 10), (usb, 40)], preferred: "a", systemDefault: "b", changedAt: 50) === usb)
    }

    @Test func withoutADefaultTheFirstByNameAndNoneWithoutMicrophones() {
        let (first, second) = (microphone("x", node: "x"), microphone("y", node: "y"))
        #expect(route([(second, 1), (first, 2)], systemDefault: nil, changedAt: 10) === first)
        #expect(route([(second, 1), (first, 2)], systemDefault: "gone", changedAt: 10) === first)
        #expect(route([], systemDefault: "a", changedAt: 0) == nil)
    }

    @Test func theRouteDeviceIsNamedAfterItsInput() {
        let route = MicrophoneRoute()
        let device = Device(
            uniqueID: "microphone", name: "Microphone", type: .microphone, position: .unspecified,
            backend: .pipewire, backendKey: "", formats: [], vendorID: nil, productID: nil,
            serialNumber: nil, pluggedMicroseconds: nil, properties: [:], route: route)
        #expect(device.name == "Microphone")
        #expect(route.update(microphone("a", node: "a")))
        #expect(device.name == "Mic a")
        #expect(!route.update(route.current), "the same input is no change")
    }
}
