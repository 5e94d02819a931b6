import CPipeWire
import OcellusCore

/// A PipeWire camera's controls through its node (`PropInfo` describes them, `Props` sets
/// them), for cameras whose V4L2 node is out of reach: a sandboxed app's, a libcamera
/// camera's. They carry the names and V4L2 ids the V4L2 path gives, so a control is the
/// same to the app either way. Debian 12's PipeWire (0.3.65) does not report current values
/// through `Props`: a control's value is the one set through here, else unknown (nil).
public final class PipeWireControls: CameraControlling, @unchecked Sendable {
    private weak var backend: PipeWireBackend?
    private let serial: String

    public init(backend: PipeWireBackend, nodeSerial: String) {
        self.backend = backend
        serial = nodeSerial
    }

    /// SPA's own keys for the common controls, and the V4L2 ids they stand for.
    static let spaToV4L2: [UInt32: UInt32] = [
        UInt32(SPA_PROP_brightness.rawValue): 0x0098_0900, UInt32(SPA_PROP_contrast.rawValue): 0x0098_0901,
        UInt32(SPA_PROP_saturation.rawValue): 0x0098_0902, UInt32(SPA_PROP_hue.rawValue): 0x0098_0903,
        UInt32(SPA_PROP_gamma.rawValue): 0x0098_0910, UInt32(SPA_PROP_exposure.rawValue): 0x009a_0902,
        UInt32(SPA_PROP_gain.rawValue): 0x0098_0913, UInt32(SPA_PROP_sharpness.rawValue): 0x0098_091b
    ]

    static func v4l2ID(ofKey key: UInt32) -> UInt32 {
        if let known = spaToV4L2[key] { return known }
        let custom = UInt32(SPA_PROP_START_CUSTOM.rawValue)
        return key >= custom ? key - custom : key
    }

    private func reachable() throws(OcellusError) -> PipeWireBackend {
        guard let backend else { throw OcellusError(.disconnected, "the camera's PipeWire connection is gone") }
        return backend
    }

    public func controls() throws(OcellusError) -> [CameraControl] {
        let (infos, values) = try reachable().controls(ofNode: serial)
        return infos.map { info in
            var info = info
            let name = withUnsafeBytes(of: &info.description) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let kind: CameraControl.Kind =
                switch Int(info.kind) {
                case Int(OCPW_PROP_BOOL.rawValue): .boolean
                case Int(OCPW_PROP_MENU.rawValue): .menu
                default: .integer
                }
            let menu = (0..<Int(info.n_labels)).map { index in
                CameraControl.MenuItem(
                    value: Int64(withUnsafeBytes(of: &info.label_values) { $0.load(fromByteOffset: index * 4, as: Int32.self) }),
                    name: withUnsafeBytes(of: &info.labels) { raw in
                        String(decoding: raw[(index * 48)..<(index * 48 + 48)].prefix { $0 != 0 }, as: UTF8.self)
                    })
            }
            return CameraControl(
                id: Self.v4l2ID(ofKey: info.id), name: CameraControl.canonicalName(name), kind: kind,
                minimum: Int64(info.minimum), maximum: Int64(info.maximum), step: Int64(info.step),
                defaultValue: Int64(info.default_value), flags: [], menu: menu, value: values[info.id])
        }
    }

    public func setControl(named name: String, to value: Int64) throws(OcellusError) {
        let backend = try reachable()
        let (infos, _) = try backend.controls(ofNode: serial)
        guard
            let info = infos.first(where: { info in
                var copy = info
                let description = withUnsafeBytes(of: &copy.description) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                return CameraControl.canonicalName(description) == name
            })
        else {
            throw OcellusError(.notFound, "the camera has no control \(name) through PipeWire")
        }
        guard Int64(info.minimum) <= value && value <= Int64(info.maximum) else {
            throw OcellusError(.invalidArgument, "\(name) must be between \(info.minimum) and \(info.maximum), not \(value)")
        }
        try backend.setControl(ofNode: serial, key: info.id, value: Int32(value), isBoolean: info.kind == UInt32(OCPW_PROP_BOOL.rawValue))
    }

    public func setControl(named name: String, payload: [UInt8]) throws(OcellusError) {
        throw OcellusError(.invalidArgument, "\(name): PipeWire carries integer, boolean and menu controls only")
    }

    public func lockForConfiguration() throws(OcellusError) {
        throw OcellusError(.notFound, "the configuration lock needs the camera's V4L2 node, which is out of reach here (controls come through PipeWire)")
    }

    public func unlockForConfiguration() throws(OcellusError) {
        throw OcellusError(.wrongState, "not locked for configuration (a camera whose controls come through PipeWire cannot be locked)")
    }
}
