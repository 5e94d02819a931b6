import OcellusCore
import Testing

@testable import OcellusVision

/// Where Center Stage aims for the faces it is shown, and — with the window moving on frame
/// timestamps — that a face walking across the picture stays near the middle of what is delivered.
@Suite struct FramingPolicyTests {
    let second: UInt64 = 1_000_000_000

    func face(_ centerX: Double, _ centerY: Double, _ size: Double) -> PictureRegion {
        PictureRegion(x: centerX - size / 2, y: centerY - size / 2, width: size, height: size)
    }

    @Test func oneFaceIsCentredAtAThirdOfTheWindowsHeight() throws {
        var policy = FramingPolicy()
        let changed = policy.update(faces: [face(0.3, 0.6, 0.1)], at: second)
        #expect(changed)
        let aim = try #require(policy.aim)
        #expect(abs(aim.centerX - 0.3) < 1e-9 && abs(aim.centerY - 0.6) < 1e-9)
        #expect(abs(aim.height - 0.1 / FramingPolicy.faceShareOfHeight) < 1e-9 && aim.width == aim.height)
    }

    @Test func aGroupFitsWithinMostOfTheWidth() throws {
        var policy = FramingPolicy()
        _ = policy.update(faces: [face(0.2, 0.5, 0.08), face(0.6, 0.5, 0.08)], at: second)
        let aim = try #require(policy.aim)
        #expect(abs(aim.width - 0.48 / FramingPolicy.groupShareOfWidth) < 1e-9 && abs(aim.centerX - 0.4) < 1e-9)
    }

    @Test func detectionJitterKeepsTheAimAndARealMoveChangesIt() throws {
        var policy = FramingPolicy()
        _ = policy.update(faces: [face(0.5, 0.5, 0.1)], at: second)
        let aim = policy.aim
        let jitters = [
            policy.update(faces: [face(0.505, 0.495, 0.104)], at: second + 100_000_000),
            policy.update(faces: [face(0.49, 0.51, 0.097)], at: second + 200_000_000)
        ]
        #expect(jitters == [false, false] && policy.aim == aim)
        let moved = policy.update(faces: [face(0.6, 0.5, 0.1)], at: second + 300_000_000)
        let grew = policy.update(faces: [face(0.6, 0.5, 0.14)], at: second + 400_000_000)
        #expect(moved && grew, "moved by a tenth of the picture, then grew by 40%")
    }

    @Test func aFaceLostForTwoSecondsGivesTheWholePictureBack() {
        var policy = FramingPolicy()
        _ = policy.update(faces: [face(0.5, 0.5, 0.1)], at: second)
        let blink = policy.update(faces: [], at: second + 1_900_000_000)
        #expect(!blink && policy.aim != nil, "a blink or a turned head is not a loss")
        let lost = policy.update(faces: [], at: second + 3_000_000_000)
        #expect(lost && policy.aim == nil)
    }

    /// A face walking across a wide picture (from 0.3 to 0.7 of its width in four seconds, a
    /// person crossing a desk), then standing: while it walks it stays within 0.15 of the
    /// delivered picture's middle (the window follows a little behind: a spring, not a jump),
    /// and a second after it stopped, within 0.05.
    @Test func aWalkingFaceStaysNearTheMiddleOfWhatIsDelivered() {
        var policy = FramingPolicy()
        let window = FramingWindow()
        window.minimumScale = 0.5
        var walking: [Double] = [], standing: [Double] = []
        for index in 0..<180 {
            let time = second + UInt64(index) * 33_333_333
            let person = face(0.3 + 0.4 * min(1, Double(index) / 120), 0.45, 0.12)
            if index % 3 == 0, policy.update(faces: [person], at: time) { window.aim(at: policy.aim) }
            guard let shown = window.region(at: time) else { continue }
            let offset = (person.centerX - shown.x) / shown.width - 0.5
            if (30..<120).contains(index) { walking.append(offset) } else if index >= 150 { standing.append(offset) }
        }
        #expect(walking.count == 90 && walking.allSatisfy { abs($0) < 0.15 }, "\(walking.map { ($0 * 100).rounded() / 100 })")
        #expect(standing.count == 30 && standing.allSatisfy { abs($0) < 0.05 }, "\(standing.map { ($0 * 100).rounded() / 100 })")
    }
}
