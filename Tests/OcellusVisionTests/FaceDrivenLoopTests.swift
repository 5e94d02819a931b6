import Testing

@testable import OcellusVision

#if canImport(Glibc)
import Glibc
#endif

/// The host loops of face-driven exposure and focus against camera responses of their own
/// (not the loop's model: a 2.4 gamma and a gain in dB, a lens whose sharpness peaks anywhere).
@Suite struct FaceDrivenLoopTests {
    /// A camera: the face's grey level for a light let in (exposure time x gain in dB, 0…12 dB
    /// over the gain range), a 2.4 tone curve clipping at white.
    struct Camera {
        var reflectance: Double
        func level(exposure: Int64, gain: Int64?, gainMax: Int64 = 255) -> Double {
            let light = Double(exposure) * pow(10, 12 * Double(gain ?? 0) / Double(gainMax) / 20)
            return 255 * pow(min(1, reflectance * light), 1 / 2.4)
        }
    }

    let loop = ExposureLoop(exposure: .init(minimum: 3, maximum: 333, step: 1), gain: .init(minimum: 0, maximum: 255, step: 1))

    /// Steps until the loop stops; the levels seen.
    func run(_ camera: Camera, exposure: Int64, gain: Int64) -> (levels: [Double], steps: Int) {
        var (exposure, gain) = (exposure, gain)
        var levels: [Double] = []
        for step in 0..<30 {
            let level = camera.level(exposure: exposure, gain: gain)
            levels.append(level)
            guard let next = loop.next(level: level, exposure: exposure, gain: gain) else { return (levels, step) }
            (exposure, gain) = (next.exposure, next.gain ?? gain)
        }
        return (levels, 30)
    }

    @Test(arguments: [0.0001, 0.0005, 0.003, 0.02, 0.05])
    func aFaceReachesTheBandWithinAFewStepsWithoutSwinging(reflectance: Double) {
        let (levels, steps) = run(Camera(reflectance: reflectance), exposure: 40, gain: 0)
        #expect(ExposureLoop.band.contains(levels.last!), "\(levels)")
        #expect(steps <= 6, "\(levels)")
        // Monotonic: never past the band and back.
        let rising = levels.first! < ExposureLoop.band.lowerBound
        #expect(zip(levels, levels.dropFirst()).allSatisfy { rising ? $1 >= $0 : $1 <= $0 }, "\(levels)")
    }

    @Test func exposureTimeIsSpentBeforeGainAndGainGivenBackFirst() {
        var state: (exposure: Int64, gain: Int64?) = (40, 0)
        // Very dark: exposure time reaches its cap before gain moves.
        while let next = loop.next(level: 10, exposure: state.exposure, gain: state.gain) {
            #expect(next.exposure == 333 || next.gain == 0)
            state = next
            if state.gain == 255 { break }
        }
        #expect(state.exposure == 333 && state.gain! > 0)
        // A little too bright: gain is given back, exposure time kept.
        let down = loop.next(level: 160, exposure: 333, gain: 100)!
        #expect(down.exposure == 333 && down.gain! < 100, "\(down)")
    }

    @Test func nothingChangesInsideTheBandOrAtTheLimit() {
        #expect(loop.next(level: 120, exposure: 100, gain: 0) == nil)
        #expect(loop.next(level: 20, exposure: 333, gain: 255) == nil)
        #expect(loop.next(level: 250, exposure: 3, gain: 0) == nil)
    }

    /// Runs a sweep from `start` until it holds; `sharpness` gives the face's sharpness at a
    /// position, `box` the face's box found there. Returns where it held and the measurements.
    private func sweep(
        from start: Int64, range: ExposureLoop.Range = .init(minimum: 0, maximum: 250, step: 1),
        sharpness: (Int64) -> Double,
        box: (Int64) -> NormalizedRect = { _ in NormalizedRect(x: 0.4, y: 0.3, width: 0.2, height: 0.2) }
    )
        -> (sweep: FocusSweep, position: Int64, measurements: Int)
    {
        var sweep = FocusSweep(range: range)
        var position = start
        var measurements = 0
        while !sweep.isHolding && measurements < 200 {
            if let next = sweep.next(face: box(position), sharpness: sharpness(position)) { position = next }
            measurements += 1
        }
        return (sweep, position, measurements)
    }

    @Test(arguments: [0, 37, 120, 250])
    func theSweepSettlesOnTheSharpestPosition(best: Int64) {
        func sharpness(_ position: Int64) -> Double { 1 / (1 + pow(Double(position - best) / 20, 2)) }
        var (sweep, position, measurements) = self.sweep(from: 125, sharpness: sharpness)
        #expect(sweep.isHolding && abs(position - best) <= 4, "settled at \(position) after \(measurements)")
        #expect(measurements <= 25, "a broad peak takes a first pass and a few narrowing ones")
        // Holding: a sharp face changes nothing; a much blurrier one starts again.
        let face = NormalizedRect(x: 0.4, y: 0.3, width: 0.2, height: 0.2)
        #expect(sweep.next(face: face, sharpness: sharpness(position)) == nil)
        #expect(sweep.next(face: face, sharpness: sharpness(position) * 0.3) == nil && !sweep.isHolding)
    }

    /// A lens sharp only within ±5 of 255 steps: away from it every position is equally blurred
    /// (a floor with a little noise), so the first positions show nothing. The sweep fills in
    /// until the face sharpens, wherever the lens started and wherever the face is; the face's box
    /// is found larger the blurrier it is, which does not start the sweep again.
    @Test(arguments: [3, 86, 140, 201, 252] as [Int64])
    func aNarrowDepthOfFieldIsFoundFromAnywhere(best: Int64) {
        let range = ExposureLoop.Range(minimum: 0, maximum: 255, step: 1)
        func blur(_ position: Int64) -> Double { Double(abs(position - best)) }
        func sharpness(_ position: Int64) -> Double {
            let noise = 0.01 * Double((position * 7919) % 13) / 13
            return blur(position) <= 5 ? 1 - blur(position) / 10 : 0.02 + noise
        }
        func box(_ position: Int64) -> NormalizedRect {
            let grown = min(0.12, blur(position) / 1000)
            return NormalizedRect(x: 0.4 - grown / 2, y: 0.3 - grown / 2, width: 0.2 + grown, height: 0.2 + grown)
        }
        for start: Int64 in [0, 128, 255] {
            let (sweep, position, measurements) = self.sweep(from: start, range: range, sharpness: sharpness, box: box)
            #expect(sweep.isHolding && abs(position - best) <= 2, "from \(start): settled at \(position) after \(measurements)")
            #expect(measurements <= 70, "from \(start): \(measurements) measurements")
        }
    }

    @Test func whileHoldingAFaceMuchLargerIsANewSubject() {
        var (sweep, _, _) = self.sweep(from: 0) { 1 / (1 + pow(Double($0 - 100) / 20, 2)) }
        let nearer = NormalizedRect(x: 0.35, y: 0.25, width: 0.3, height: 0.3)
        #expect(sweep.next(face: nearer, sharpness: 1) == 0 && !sweep.isHolding)
    }

    @Test func aNewSubjectStartsTheSweepAgain() {
        var sweep = FocusSweep(range: .init(minimum: 0, maximum: 250, step: 5))
        let face = NormalizedRect(x: 0.1, y: 0.1, width: 0.2, height: 0.2)
        _ = sweep.next(face: face, sharpness: 1)
        _ = sweep.next(face: face, sharpness: 1)
        let moved = NormalizedRect(x: 0.6, y: 0.5, width: 0.2, height: 0.2)
        #expect(sweep.next(face: moved, sharpness: 1) == 0, "from the start of the range")
    }
}
