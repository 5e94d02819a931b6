import Testing

@testable import OcellusVision

/// Face IDs (behaviour §4 metadata output): stable while a face stays, new for a new face, never reused.
@Suite struct FaceTrackerTests {
    func box(_ x: Double, _ y: Double, _ size: Double = 0.2) -> NormalizedRect { NormalizedRect(x: x, y: y, width: size, height: size) }

    @Test func aFaceMovingALittleKeepsItsID() {
        var tracker = FaceTracker()
        var ids: [UInt64] = []
        tracker.identify([box(0.1, 0.1)], into: &ids)
        #expect(ids == [1])
        for step in 1...10 {
            tracker.identify([box(0.1 + Double(step) * 0.02, 0.1)], into: &ids)
            #expect(ids == [1])
        }
    }

    @Test func twoFacesKeepTheirOwnIDsWhateverTheOrderFound() {
        var tracker = FaceTracker()
        var ids: [UInt64] = []
        tracker.identify([box(0.1, 0.1), box(0.6, 0.5)], into: &ids)
        #expect(ids == [1, 2])
        tracker.identify([box(0.61, 0.5), box(0.11, 0.1)], into: &ids)
        #expect(ids == [2, 1])
    }

    @Test func aFaceMissedBrieflyKeepsItsIDThenIsForgottenForGood() {
        var tracker = FaceTracker()
        var ids: [UInt64] = []
        tracker.identify([box(0.3, 0.3)], into: &ids)
        for _ in 0..<FaceTracker.patience { tracker.identify([], into: &ids) }
        tracker.identify([box(0.31, 0.3)], into: &ids)
        #expect(ids == [1], "a blink of the detector is not a new face")
        for _ in 0...FaceTracker.patience { tracker.identify([], into: &ids) }
        #expect(tracker.tracks.isEmpty)
        tracker.identify([box(0.3, 0.3)], into: &ids)
        #expect(ids == [2], "a face back after a while is a new one; IDs are never reused")
    }

    @Test func aFaceJumpingAcrossThePictureIsANewFace() {
        var tracker = FaceTracker()
        var ids: [UInt64] = []
        tracker.identify([box(0.05, 0.05)], into: &ids)
        tracker.identify([box(0.7, 0.7)], into: &ids)
        #expect(ids == [2])
    }

    @Test func overlapIsIntersectionOverUnion() {
        #expect(box(0, 0).overlap(box(0, 0)) == 1)
        #expect(box(0, 0).overlap(box(0.5, 0.5)) == 0)
        #expect(abs(box(0, 0, 0.2).overlap(box(0.1, 0, 0.2)) - 1.0 / 3.0) < 1e-9)
    }
}
