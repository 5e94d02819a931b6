/// behaviour §4 hardware cost: a stream's share of its USB bus, estimated from format,
/// size and rate against what isochronous video can get at the bus speed.
/// Refusing above 1.0 up front beats the kernel's ENOSPC at stream-on.
public enum HardwareCost {
    /// Bytes per second isochronous transfers can carry at a bus speed (Mbit/s):
    /// full speed 1023 B/ms; high speed 3 × 1024 B per 125 µs microframe; SuperSpeed
    /// 48 KiB per 125 µs, doubled per generation.
    public static func usbBudget(speedMbps: Double) -> Double {
        switch speedMbps {
        case ..<13: 1_023_000
        case ..<481: 24_576_000
        case ..<5001: 393_216_000
        case ..<10001: 786_432_000
        default: 1_572_864_000
        }
    }

    /// Estimated bytes per second of a camera stream; compressed formats at typical
    /// UVC ratios (MJPEG ≈ 3 bits per pixel).
    public static func bytesPerSecond(_ format: VideoFormat, rate: FrameRate) -> Double {
        let pixels = Double(format.width) * Double(format.height)
        let bytesPerPixel: Double = switch format.pixelFormat {
        case .mjpeg: 0.375
        case .h264: 0.05
        case .nv12, .i420: 1.5
        case .rgb24: 3
        case .bgrx, .bgra: 4
        case .grey: 1
        default: 2
        }
        return pixels * bytesPerPixel * rate.framesPerSecond
    }

    /// The stream's load on the device's bus (1.0 = all of it), or nil when the device is not on USB.
    public static func usbLoad(of device: Device, format: VideoFormat, rate: FrameRate) -> Double? {
        guard let speed = device.details.usbSpeedMbps, speed > 0 else { return nil }
        return bytesPerSecond(format, rate: rate) / usbBudget(speedMbps: speed)
    }
}
