#if canImport(Glibc)
import Glibc
#endif

/// Host-side face-driven exposure (tier `host`): from the face's mean grey level, the next
/// exposure time and gain, until the face lies in `band` (a backlit face is brought up even as
/// the background clips). Steps are in stops (log2 of the light let in), damped and capped, with
/// the band as dead band so that it settles instead of hunting. Exposure time is spent first, up
/// to the frame interval (longer would slow the stream), then gain; going down, gain goes first.
struct ExposureLoop {
    /// The face's mean grey level (0…255) aimed for, and the band where nothing changes.
    static let target = 120.0
    static let band = 100.0...145.0
    /// Stops of exposure per stop of grey level: cameras' tone curves (about a 2.2 gamma) compress
    /// light, so the light must change more than the grey level should.
    static let responseGain = 1.8
    /// At most this many stops per step, and this share of the computed step, so that a step
    /// measured before the last one showed (a frame or two of latency) does not overshoot.
    static let maximumStep = 1.5
    static let damping = 0.8
    /// What the whole gain range is taken to multiply the picture by (V4L2 gain has no unit;
    /// UVC cameras span about 12 dB). A wrong guess only slows convergence.
    static let gainRangeFactor = 4.0

    struct Range {
        var minimum: Int64
        var maximum: Int64
        var step: Int64

        func snapped(_ value: Double) -> Int64 {
            let clamped = Swift.min(Double(maximum), Swift.max(Double(minimum), value))
            let steps = ((clamped - Double(minimum)) / Double(Swift.max(1, step))).rounded()
            return Swift.min(maximum, minimum + Int64(steps) * Swift.max(1, step))
        }
    }

    let exposure: Range
    let gain: Range?

    /// `exposure` in the control's units (100 µs), already capped to the frame interval.
    init(exposure: Range, gain: Range?) {
        self.exposure = exposure
        self.gain = gain.flatMap { $0.maximum > $0.minimum ? $0 : nil }
    }

    /// The light let in, in the loop's linear units: exposure time × the gain's factor.
    func light(exposure value: Int64, gain gainValue: Int64?) -> Double {
        Double(Swift.max(1, value)) * gainFactor(gainValue)
    }

    private func gainFactor(_ value: Int64?) -> Double {
        guard let gain, let value else { return 1 }
        let share = Double(value - gain.minimum) / Double(gain.maximum - gain.minimum)
        return 1 + Swift.max(0, Swift.min(1, share)) * (Self.gainRangeFactor - 1)
    }

    /// The settings for a face at `level` under the current ones; nil inside the band, or when
    /// the camera cannot go further that way.
    func next(level: Double, exposure current: Int64, gain currentGain: Int64?) -> (exposure: Int64, gain: Int64?)? {
        guard !Self.band.contains(level) else { return nil }
        let wanted = log2(Self.target / Swift.max(level, 2)) * Self.responseGain * Self.damping
        let step = Swift.max(-Self.maximumStep, Swift.min(Self.maximumStep, wanted))
        let light = self.light(exposure: current, gain: currentGain) * pow(2, step)
        // Exposure time alone as far as it reaches, then gain for the rest.
        let time = exposure.snapped(light)
        var newGain = currentGain
        if let gain {
            let factor = light / Double(Swift.max(1, time))
            let share = (factor - 1) / (Self.gainRangeFactor - 1)
            newGain = gain.snapped(Double(gain.minimum) + Swift.max(0, share) * Double(gain.maximum - gain.minimum))
        }
        guard time != current || newGain != currentGain else { return nil }
        return (time, newGain)
    }
}
