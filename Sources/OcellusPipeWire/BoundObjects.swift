import CLibPipeWire
import CPipeWire
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// A node bound from the registry, gathering its info and formats. Lives on the PipeWire thread.
final class BoundNode {
    let globalID: UInt32
    let media: DeviceFacts.Media
    private(set) var properties: [String: String]
    private(set) var formats: [VideoFormat] = []
    /// A microphone's own rate and channels: the first raw audio EnumFormat's (default) values.
    private(set) var soundFormat: AudioFormat?
    /// The node's controls as its PropInfo params describe them (a camera's), and the values its
    /// Props report (Debian 12's spa-v4l2 reports none) or that were set through it.
    private(set) var controls: [ocpw_prop_info] = []
    private(set) var controlValues: [UInt32: Int64] = [:]
    private(set) var infoReceived = false
    var announced = false

    private var proxy: OpaquePointer?
    private let hook = Hook()
    private let events = Pinned(pw_node_events())
    private var enumerated = false
    private var enumeratedControls = false
    private let onChange: () -> Void

    init(
        globalID: UInt32, media: DeviceFacts.Media, proxy: UnsafeMutableRawPointer, properties: [String: String],
        onChange: @escaping () -> Void
    ) {
        self.globalID = globalID
        self.media = media
        self.proxy = OpaquePointer(proxy)
        self.properties = properties
        self.onChange = onChange
        events.pointer.pointee.version = UInt32(PW_VERSION_NODE_EVENTS)
        events.pointer.pointee.info = { data, info in
            guard let info else { return }
            Unmanaged<BoundNode>.fromOpaque(data!).takeUnretainedValue().received(info: info.pointee)
        }
        events.pointer.pointee.param = { data, _, id, _, _, param in
            Unmanaged<BoundNode>.fromOpaque(data!).takeUnretainedValue().received(paramID: id, param: param)
        }
        ocpw_node_add_listener(self.proxy, hook.pointer, events.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    var serial: String? { properties["object.serial"] }

    private func received(info: pw_node_info) {
        if info.change_mask & UInt64(PW_NODE_CHANGE_MASK_PROPS) != 0 {
            properties.merge(dictionary(info.props)) { _, new in new }
        }
        infoReceived = true
        if !enumerated, let params = info.params {
            let readable = (0..<Int(info.n_params)).contains { index in
                params[index].id == SPA_PARAM_EnumFormat.rawValue && params[index].flags & UInt32(SPA_PARAM_INFO_READ) != 0
            }
            if readable {
                enumerated = true
                _ = ocpw_node_enum_params(proxy, 0, SPA_PARAM_EnumFormat.rawValue, 0, UInt32.max, nil)
            }
        }
        if media == .video && !enumeratedControls, let params = info.params,
            (0..<Int(info.n_params)).contains(where: { params[$0].id == SPA_PARAM_PropInfo.rawValue })
        {
            enumeratedControls = true
            refreshControls()
        }
        onChange()
    }

    /// Asks again for the controls and their values (answers arrive before a core sync's done).
    func refreshControls() {
        controls.removeAll()
        _ = ocpw_node_enum_params(proxy, 0, SPA_PARAM_PropInfo.rawValue, 0, UInt32.max, nil)
        _ = ocpw_node_enum_params(proxy, 0, SPA_PARAM_Props.rawValue, 0, UInt32.max, nil)
    }

    /// Sets control `key` (on the PipeWire thread, loop locked): a Props param with its value.
    func setControl(key: UInt32, value: Int32, isBoolean: Bool) -> Int32 {
        guard let proxy else { return -ENODEV }
        var buffer = [UInt8](repeating: 0, count: 256)
        let result = buffer.withUnsafeMutableBufferPointer { bytes -> Int32 in
            guard let pod = ocpw_build_prop(bytes.baseAddress, UInt32(bytes.count), key, value, isBoolean ? 1 : 0) else { return -ENOSPC }
            return ocpw_node_set_param(proxy, SPA_PARAM_Props.rawValue, 0, pod)
        }
        if result >= 0 { controlValues[key] = Int64(value) }
        return result
    }

    private func received(paramID: UInt32, param: UnsafePointer<spa_pod>?) {
        guard let param else { return }
        if paramID == SPA_PARAM_PropInfo.rawValue {
            var info = ocpw_prop_info()
            if ocpw_parse_prop_info(param, &info) == 0, info.kind != UInt32(OCPW_PROP_UNSUPPORTED.rawValue),
                !controls.contains(where: { $0.id == info.id })
            {
                controls.append(info)
            }
            return
        }
        if paramID == SPA_PARAM_Props.rawValue {
            var keys = [UInt32](repeating: 0, count: 64), values = [Int32](repeating: 0, count: 64)
            let count = Int(ocpw_parse_props(param, &keys, &values, 64))
            for index in 0..<count { controlValues[keys[index]] = Int64(values[index]) }
            return
        }
        guard paramID == SPA_PARAM_EnumFormat.rawValue else { return }
        if media == .audio {
            var rate: UInt32 = 0, channels: UInt32 = 0
            if soundFormat == nil, ocpw_parse_audio_format(param, &rate, &channels) == 0 {
                soundFormat = AudioFormat(sampleRate: rate, channels: channels)
            }
            return
        }
        var parsed = ocpw_video_format()
        guard ocpw_parse_video_format(param, &parsed) == 0 else { return }
        for format in PipeWireFormats.videoFormats(parsed) where !formats.contains(format) {
            formats.append(format)
        }
    }

    func destroy() {
        hook.remove()
        if let proxy { pw_proxy_destroy(proxy) }
        proxy = nil
    }
}

/// A `Video/Device` or `Audio/Device` object: where real PipeWire keeps udev identity.
final class BoundDevice {
    private(set) var properties: [String: String]
    private var proxy: OpaquePointer?
    private let hook = Hook()
    private let events = Pinned(pw_device_events())

    init(proxy: UnsafeMutableRawPointer, properties: [String: String]) {
        self.proxy = OpaquePointer(proxy)
        self.properties = properties
        events.pointer.pointee.version = UInt32(PW_VERSION_DEVICE_EVENTS)
        events.pointer.pointee.info = { data, info in
            guard let info, info.pointee.change_mask & UInt64(PW_DEVICE_CHANGE_MASK_PROPS) != 0 else { return }
            let device = Unmanaged<BoundDevice>.fromOpaque(data!).takeUnretainedValue()
            device.properties.merge(dictionary(info.pointee.props)) { _, new in new }
        }
        ocpw_device_add_listener(self.proxy, hook.pointer, events.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    func destroy() {
        hook.remove()
        if let proxy { pw_proxy_destroy(proxy) }
        proxy = nil
    }
}

/// The session manager's `default` metadata: where WirePlumber publishes the
/// default input (`default.audio.source`, a JSON object naming the node).
final class DefaultMetadata {
    let globalID: UInt32
    private var proxy: OpaquePointer?
    private let hook = Hook()
    private let events = Pinned(pw_metadata_events())
    private let onDefaultSource: (String?) -> Void

    init(globalID: UInt32, proxy: UnsafeMutableRawPointer, onDefaultSource: @escaping (String?) -> Void) {
        self.globalID = globalID
        self.proxy = OpaquePointer(proxy)
        self.onDefaultSource = onDefaultSource
        events.pointer.pointee.version = UInt32(PW_VERSION_METADATA_EVENTS)
        events.pointer.pointee.property = { data, subject, key, _, value in
            // Subject 0 is the whole graph; a nil key means every key was cleared.
            guard subject == 0 else { return 0 }
            let metadata = Unmanaged<DefaultMetadata>.fromOpaque(data!).takeUnretainedValue()
            if key == nil {
                metadata.onDefaultSource(nil)
            } else if String(cString: key!) == "default.audio.source" {
                metadata.onDefaultSource(value.flatMap(DefaultMetadata.nodeName(fromJSON:)))
            }
            return 0
        }
        ocpw_metadata_add_listener(self.proxy, hook.pointer, events.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// `{"name":"alsa_input.usb-…"}` → the node name.
    static func nodeName(fromJSON json: UnsafePointer<CChar>) -> String? {
        var name = [CChar](repeating: 0, count: 1024)
        guard ocpw_json_object_string(json, "name", &name, name.count) > 0 else { return nil }
        return String(cString: name)
    }

    func destroy() {
        hook.remove()
        if let proxy { pw_proxy_destroy(proxy) }
        proxy = nil
    }
}
