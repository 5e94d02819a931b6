import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import OcellusVision

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

    @Test(arguments: [0, 37, 120, 250])
    func theSweepSettlesNearTheSharpestPosition(best: Int64) {
        var sweep = FocusSweep(range: .init(minimum: 0, maximum: 250, step: 1))
        let face = NormalizedRect(x: 0.4, y: 0.3, width: 0.2, height: 0.2)
        func sharpness(_ position: Int64) -> Double { 1 / (1 + pow(Double(position - best) / 20, 2)) }
        var position: Int64 = 125
        var measurements = 0
        while !sweep.isHolding && measurements < 30 {
            if let next = sweep.next(face: face, sharpness: sharpness(position)) { position = next }
            measurements += 1
        }
        #expect(sweep.isHolding && abs(position - best) <= 21, "settled at \(position) after \(measurements)")
        #expect(measurements <= FocusSweep.coarsePositions + FocusSweep.finePositions + 1)
        // Holding: a sharp face changes nothing; a much blurrier one starts again.
        #expect(sweep.next(face: face, sharpness: sharpness(position)) == nil)
        #expect(sweep.next(face: face, sharpness: sharpness(position) * 0.3) == nil && !sweep.isHolding)
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
