import OcellusCore

extension CaptureSession {
    /// behaviour §4 presets: what the stream aims for when no output pins a size.
    public enum Preset: Int32, Sendable, CaseIterable {
        case high = 0, medium, low, photo, vga640x480, hd1280x720, hd1920x1080, uhd3840x2160, inputPriority

        /// The exact size the preset needs, if any.
        public var size: (width: UInt32, height: UInt32)? {
            switch self {
            case .vga640x480: (640, 480)
            case .hd1280x720: (1280, 720)
            case .hd1920x1080: (1920, 1080)
            case .uhd3840x2160: (3840, 2160)
            default: nil
            }
        }
    }

    /// Whether a camera has what `preset` needs (the fixed sizes need that size).
    public static func device(_ device: Device, supports preset: Preset) -> Bool {
        guard device.type.isCamera, !device.formats.isEmpty else { return false }
        guard let size = preset.size else { return true }
        return device.formats.contains { $0.width == size.width && $0.height == size.height }
    }

    /// behaviour §4 fit instead of fail: whether the session may choose a format that fits the
    /// camera's USB bus instead of the one it would choose on an idle bus (MJPEG instead of raw,
    /// a smaller size where the outputs take it). Automatic: yes, unless an output pins a pixel
    /// format the camera sends itself; then a format that does not fit is refused.
    public enum BusFit: Int32, Sendable, CaseIterable {
        case automatic = 0, on, off
    }
}
