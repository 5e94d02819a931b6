import Testing

@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// behaviour §3 checked against a simulation of the physical setup, without the formulas:
/// a scene with a known "up" (gravity), a camera on the host (facing the user or away)
/// or beside it, its sensor rolled in its mount; the frame it stores; a preview layer
/// drawing that frame rotated, then mirrored, in a UI laid out for an interface
/// orientation, on a screen the user sees turned with the host. The driver's S and the
/// user's M are *measured* from the simulated setup, as a driver author or user would.
@Suite struct RotationSimulationTests {
    typealias Vector = (x: Double, y: Double, z: Double)

    static func cross(_ a: Vector, _ b: Vector) -> Vector {
        (a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
    static func dot(_ a: Vector, _ b: Vector) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }

    /// Rotation about `axis` (unit) by `radians`, right-handed (Rodrigues).
    static func rotate(_ v: Vector, about axis: Vector, by radians: Double) -> Vector {
        let (c, s) = (cos(radians), sin(radians))
        let k = cross(axis, v), d = dot(axis, v)
        return (
            v.x * c + k.x * s + axis.x * d * (1 - c),
            v.y * c + k.y * s + axis.y * d * (1 - c),
            v.z * c + k.z * s + axis.z * d * (1 - c)
        )
    }

    // World: X to the user's right, Y up (against gravity), Z out of the screen toward the
    // user when the host stands in its natural orientation. The host turns about Z; H is
    // clockwise as seen from the screen side, i.e. a negative right-handed angle about +Z.
    static let worldUp: Vector = (0, 1, 0)
    static let zAxis: Vector = (0, 0, 1)
    static func radians(_ degrees: Int) -> Double { Double(degrees) * .pi / 180 }

    enum Mount { case front, back, beside }

    /// The camera's image axes in the world: right and up as the stored frame shows them,
    /// looking along the optical axis; the sensor is rolled by `roll` in its mount.
    static func imageAxes(_ mount: Mount, roll: Int, host: Int) -> (right: Vector, up: Vector) {
        // A camera looking along d has image right × image up = −d.
        let (right, up, direction): (Vector, Vector, Vector) =
            switch mount {
            case .back: ((1, 0, 0), (0, 1, 0), (0, 0, -1)) // looks away from the user, through the host
            case .front, .beside: ((-1, 0, 0), (0, 1, 0), (0, 0, 1)) // looks at the user
            }
        // The sensor's roll about its own optical axis…
        var r = rotate(right, about: direction, by: radians(roll))
        var u = rotate(up, about: direction, by: radians(roll))
        // …and, for a camera on the host, the host's turn.
        if mount != .beside {
            r = rotate(r, about: zAxis, by: -radians(host))
            u = rotate(u, about: zAxis, by: -radians(host))
        }
        return (r, u)
    }

    /// Where the scene's up points in the stored frame, clockwise from the frame's up, in degrees.
    static func sceneUpInStoredFrame(_ mount: Mount, roll: Int, host: Int) -> Int {
        let axes = imageAxes(mount, roll: roll, host: host)
        let angle = atan2(dot(worldUp, axes.right), dot(worldUp, axes.up)) * 180 / .pi
        return RotationCoordinator.normalized(Int(angle.rounded()))
    }

    /// Where the scene's up points as the user sees the screen: the layer rotates the
    /// frame clockwise by `preview`, then mirrors it about its vertical axis; the UI is
    /// laid out for `interface`, so it stands upright in the world when host == interface.
    static func sceneUpOnScreen(storedUp: Int, preview: Int, mirrored: Bool, host: Int, interface: Int) -> Int {
        let inLayer = storedUp + preview
        let shown = mirrored ? -inLayer : inLayer
        return RotationCoordinator.normalized(shown + host - interface)
    }

    @Test func everyCameraKindSensorHostInterfaceAndMirroring() throws {
        let angles = [0, 90, 180, 270]
        var checked = 0
        for mount in [Mount.front, .back, .beside] {
            for roll in angles {
                // What the driver reports (S) or the user sets (M): the clockwise turn that
                // makes the stored frame upright with the host in its natural orientation.
                let measured = RotationCoordinator.normalized(-Self.sceneUpInStoredFrame(mount, roll: roll, host: 0))
                let kind: RotationCoordinator.CameraKind =
                    switch mount {
                    case .front: .builtInFront
                    case .back: .builtInBack
                    case .beside: .external
                    }
                for mirrored in [false, true] {
                    let coordinator = try RotationCoordinator(
                        kind: kind, sensorMounting: mount == .beside ? 0 : measured,
                        mountingCorrection: mount == .beside ? measured : 0, previewMirrored: mirrored)
                    for host in angles {
                        try coordinator.setHostOrientation(host)
                        for interface in angles.map(RotationCoordinator.InterfaceOrientation.fixed) + [.followsDevice] {
                            try coordinator.setInterfaceOrientation(interface)
                            let ui: Int = if case .fixed(let degrees) = interface { degrees } else { host }
                            let result = coordinator.angles
                            let stored = Self.sceneUpInStoredFrame(mount, roll: roll, host: host)
                            #expect(
                                RotationCoordinator.normalized(stored + result.capture) == 0,
                                "capture: \(mount) roll \(roll) host \(host)")
                            #expect(
                                Self.sceneUpOnScreen(
                                    storedUp: stored, preview: result.preview, mirrored: mirrored,
                                    host: host, interface: ui) == 0,
                                "preview: \(mount) roll \(roll) host \(host) ui \(ui) mirrored \(mirrored)")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 3 * 4 * 2 * 4 * 5)
    }

    @Test func changesAreObservedOnceEach() throws {
        let coordinator = try RotationCoordinator(kind: .builtInBack, sensorMounting: 90, previewMirrored: false)
        let log = Pinned<[RotationCoordinator.Angles]>([])
        let lock = ConditionLock()
        _ = coordinator.changes.addObserver { angles in
            lock.withLock {
                log.pointer.pointee.append(angles); lock.broadcast()
            }
        }
        try coordinator.setInterfaceOrientation(.fixed(0)) // with H = 0 nothing changes
        try coordinator.setHostOrientation(90)
        let deadline = monotonicNanoseconds() + 5_000_000_000
        let seen = lock.withLock { () -> [RotationCoordinator.Angles] in
            while log.pointer.pointee.isEmpty && lock.wait(untilMonotonicNanoseconds: deadline) {}
            return log.pointer.pointee
        }
        #expect(seen == [.init(preview: 90, capture: 180)])
    }

    @Test func badAnglesAreRefused() {
        #expect(throws: OcellusError.self) { try RotationCoordinator(kind: .external, sensorMounting: 45, previewMirrored: true) }
        let coordinator = try? RotationCoordinator(kind: .external, sensorMounting: 0, previewMirrored: true)
        #expect(throws: OcellusError.self) { try coordinator?.setHostOrientation(30) }
        #expect(throws: OcellusError.self) { try coordinator?.setInterfaceOrientation(.fixed(100)) }
    }

    @Test func devicesGiveKindSensorMountingAndMirroringDefaults() {
        func device(
            _ type: DeviceType, _ position: DevicePosition, name: String = "Camera", sensorRotation: Int? = nil,
            videoInput: DeviceDetails.VideoInput? = nil
        ) -> Device {
            var details = DeviceDetails()
            (details.sensorRotation, details.videoInput) = (sensorRotation, videoInput)
            // Display strings that say otherwise: policies read the typed details, never these.
            let misleading = ["api.v4l2.sensor_rotation": "180", "device.video-input": videoInput == .camera ? "connector" : "camera"]
            return Device(
                uniqueID: "x", name: name, type: type, position: position, backend: .v4l2, backendKey: "k", formats: [],
                vendorID: nil, productID: nil, serialNumber: nil, pluggedMicroseconds: nil, details: details,
                properties: misleading)
        }
        let rear = device(.builtInCamera, .back, sensorRotation: 90)
        #expect(RotationCoordinator.kind(of: rear) == .builtInBack)
        #expect(RotationCoordinator.sensorMounting(of: rear) == 270) // 90 counter-clockwise is 270 clockwise
        #expect(!RotationCoordinator.mirrorsByDefault(rear))
        #expect(RotationCoordinator.mirrorsByDefault(device(.builtInCamera, .front)))
        #expect(RotationCoordinator.mirrorsByDefault(device(.externalCamera, .unspecified, name: "HD Pro Webcam C920")))
        #expect(!RotationCoordinator.mirrorsByDefault(device(.externalCamera, .unspecified, name: "USB3. 0 capture")))
        #expect(!RotationCoordinator.mirrorsByDefault(device(.externalCamera, .unspecified, name: "Cam Link 4K")))
        // The descriptors decide over the name, either way.
        #expect(
            !RotationCoordinator.mirrorsByDefault(
                device(
                    .externalCamera, .unspecified, name: "USB Video",
                    videoInput: .connector)))
        #expect(
            RotationCoordinator.mirrorsByDefault(
                device(
                    .externalCamera, .unspecified, name: "Capture Cam Pro",
                    videoInput: .camera)))
        // A side-by-side stereo camera (every format two pictures wide): mirroring would swap the eyes.
        let stereo = Device(
            uniqueID: "s", name: "Stereo Camera", type: .externalCamera, position: .unspecified, backend: .v4l2,
            backendKey: "s",
            formats: [
                VideoFormat(pixelFormat: .mjpeg, width: 2560, height: 720, frameRates: [FrameRate(30)]),
                VideoFormat(pixelFormat: .yuyv, width: 1280, height: 480, frameRates: [FrameRate(30)])
            ],
            vendorID: nil, productID: nil, serialNumber: nil, pluggedMicroseconds: nil, properties: [:])
        #expect(!RotationCoordinator.mirrorsByDefault(stereo))
    }
}
