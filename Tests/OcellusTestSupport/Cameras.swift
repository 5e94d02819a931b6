import Foundation
import OcellusCore

/// Devices for scripted tests, as backends describe them.
public enum ScriptedCameras {
    /// A USB webcam's facts (YUYV 640x480 and 1280x720 at 30 fps) with `serial`, reported under `key`.
    public static func webcam(serial: String, key: String, name: String = "C920", usbPort: String = "3-3") -> DeviceFacts {
        var facts = DeviceFacts(media: .video, name: name, backendKey: key, fallbackName: key)
        facts.bus = "usb"
        facts.vendorID = 0x046d
        facts.productID = 0x082d
        facts.serial = serial
        facts.usbPort = usbPort
        facts.formats = [(640, 480), (1280, 720)].map {
            VideoFormat(pixelFormat: .yuyv, width: UInt32($0.0), height: UInt32($0.1), frameRates: [FrameRate(30)])
        }
        return facts
    }

    /// A webcam (YUYV 640x480 at 30 fps unless `formats` says) as a session takes it, without a hub.
    public static func webcamDevice(
        serial: String, backend: BackendKind = .pipewire, key: String = "c",
        formats: [VideoFormat] = [
            VideoFormat(
                pixelFormat: .yuyv, width: 640, height: 480,
                frameRates: [FrameRate(30)])
        ]
    ) -> Device {
        Device(
            uniqueID: "usb-046d:082d-\(serial)", name: "C920", type: .externalCamera, position: .unspecified,
            backend: backend, backendKey: key, formats: formats,
            vendorID: 0x046d, productID: 0x082d, serialNumber: serial, pluggedMicroseconds: nil, properties: [:])
    }

    /// That webcam's microphone, a PipeWire source.
    /// A webcam's microphone; `sends` its own format, as its system reports it (nil: unreported).
    public static func pipewireMicrophone(serial: String, sends soundFormat: AudioFormat? = nil) -> Device {
        var details = DeviceDetails()
        details.soundFormat = soundFormat
        return Device(
            uniqueID: "usb-046d:082d-\(serial)-mic", name: "C920 Mic", type: .microphone, position: .unspecified,
            backend: .pipewire, backendKey: "m", formats: [], vendorID: nil, productID: nil, serialNumber: nil,
            pluggedMicroseconds: nil, details: details, properties: [:], capabilities: ScriptedBackend(.pipewire).capabilities)
    }

    /// A fresh directory for a hub's selection state.
    public static func stateDirectory() -> String {
        var template = Array("/tmp/ocellus-scripted-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// A hub over `backends`, keeping its state in `stateDirectory`.
    public static func hub(
        _ backends: [any DeviceBackend], appID: String = "org.ocellus.test.scripted",
        stateDirectory: String = stateDirectory()
    ) throws -> DeviceHub {
        try DeviceHub(appID: appID, backends: backends, timeoutMilliseconds: 0, stateDirectory: stateDirectory)
    }
}

/// Collects a session's events for a test to wait on.
public final class EventLog<Event: Sendable>: @unchecked Sendable {
    private let lock = NSCondition()
    private var seen: [Event] = []

    public init() {}

    public func append(_ event: Event) {
        lock.withLock {
            seen.append(event); lock.broadcast()
        }
    }

    public var events: [Event] { lock.withLock { seen } }

    /// Waits up to `seconds` for the events to satisfy `condition`; returns whether they did.
    public func wait(seconds: Double = 5, until condition: ([Event]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        return lock.withLock {
            while !condition(seen) { if !lock.wait(until: deadline) { return condition(seen) } }
            return true
        }
    }
}
