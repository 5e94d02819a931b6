/// Host-side face-driven focus (tier `host`): a sweep of the absolute focus control that keeps
/// the position where the face is sharpest, then holds while the face holds.
///
/// A sweep measures a few positions spread over the whole range, then passes that narrow in on
/// the sharpest. When no position stands out (a lens with a narrow depth of field, far from the
/// face: every position measured so far equally blurred) the next pass fills in between all the
/// positions measured instead, until one does. Each position is measured on the analysis after
/// it was set (the lens has moved by then), always on the face's box as it was when the sweep
/// began, so that a blurred face found a little larger or smaller does not skew the comparison.
/// A sweep starts again when the face moves a lot, or, once holding, changes size a lot or its
/// sharpness falls well below what the sweep found (someone moved nearer or further).
struct FocusSweep {
    static let firstPositions = 7
    /// A narrowing pass: this many positions between the sharpest's neighbours.
    static let narrowingPositions = 5
    /// The sharpest position stands out when it is this many times the median of those measured.
    static let standOut = 1.5
    /// Passes end when positions are this share of the range apart (or one step).
    static let finestShare = 1.0 / 64
    /// Sharpness below this share of the best found means focus was lost.
    static let lossShare = 0.6
    /// A face this far off its position (in face widths) or size (as a share) is a new subject.
    static let moveLimit = 0.5
    static let sizeLimit = 0.35

    enum Phase: Equatable {
        case idle
        /// Measuring `positions[index]` (set before the current analysis).
        case sweeping(positions: [Int64], index: Int)
        case holding(position: Int64, sharpness: Double)
    }

    let range: ExposureLoop.Range
    private(set) var phase = Phase.idle
    /// Every position measured in this sweep, in order of position.
    private var measured: [(position: Int64, sharpness: Double)] = []
    private var subject: NormalizedRect?

    init(range: ExposureLoop.Range) { self.range = range }

    var isHolding: Bool { if case .holding = phase { true } else { false } }

    /// Where to measure sharpness for `face`: while sweeping, the box the sweep began on.
    func measuringRegion(for face: NormalizedRect) -> NormalizedRect {
        if case .sweeping = phase, let subject { return subject }
        return face
    }

    /// Positions spread evenly over `low…high`, snapped to the control's steps, without repeats.
    private func spread(_ low: Int64, _ high: Int64, count: Int) -> [Int64] {
        var result: [Int64] = []
        for index in 0..<count {
            let value = range.snapped(Double(low) + Double(high - low) * Double(index) / Double(max(1, count - 1)))
            if result.last != value { result.append(value) }
        }
        return result
    }

    private var finestSpacing: Int64 {
        max(range.step, Int64((Double(range.maximum - range.minimum) * Self.finestShare).rounded()))
    }

    /// One analysis: the face's bounds and the sharpness measured in `measuringRegion(for:)`, at
    /// the position set before it. Returns the position to set now (nil: keep the lens where it is).
    mutating func next(face: NormalizedRect, sharpness: Double) -> Int64? {
        if let subject, Self.isNewSubject(face, after: subject, sizeMatters: isHolding) { phase = .idle }
        switch phase {
        case .idle:
            subject = face
            measured.removeAll(keepingCapacity: true)
            return begin(spread(range.minimum, range.maximum, count: Self.firstPositions))
        case .sweeping(let positions, let index):
            record(positions[index], sharpness)
            if index + 1 < positions.count {
                phase = .sweeping(positions: positions, index: index + 1)
                return positions[index + 1]
            }
            if let pass = nextPass() { return begin(pass) }
            let best = measured.max { $0.sharpness < $1.sharpness }!
            subject = face
            phase = .holding(position: best.position, sharpness: best.sharpness)
            return best.position
        case .holding(_, let best):
            subject = face
            if sharpness < best * Self.lossShare { phase = .idle }
            return nil
        }
    }

    private mutating func begin(_ positions: [Int64]) -> Int64 {
        phase = .sweeping(positions: positions, index: 0)
        return positions[0]
    }

    private mutating func record(_ position: Int64, _ sharpness: Double) {
        let at = measured.firstIndex { $0.position >= position } ?? measured.endIndex
        if at < measured.endIndex && measured[at].position == position {
            measured[at].sharpness = sharpness
        } else {
            measured.insert((position, sharpness), at: at)
        }
    }

    /// The positions of the next pass, or nil when the sweep is done: around the sharpest when it
    /// stands out, between every pair measured when none does; never one measured already.
    private func nextPass() -> [Int64]? {
        guard measured.count > 1 else { return nil }
        let bestIndex = measured.indices.max { measured[$0].sharpness < measured[$1].sharpness }!
        let sorted = measured.map(\.sharpness).sorted()
        let median = sorted[sorted.count / 2]
        let standsOut = measured[bestIndex].sharpness >= median * Self.standOut && measured[bestIndex].sharpness > 0
        let known = Set(measured.map(\.position))
        var pass: [Int64] = []
        if standsOut {
            let low = measured[max(0, bestIndex - 1)].position, high = measured[min(measured.count - 1, bestIndex + 1)].position
            guard max(measured[bestIndex].position - low, high - measured[bestIndex].position) > finestSpacing else { return nil }
            pass = spread(low, high, count: Self.narrowingPositions)
        } else {
            for (left, right) in zip(measured, measured.dropFirst()) where right.position - left.position > finestSpacing {
                pass.append(range.snapped(Double(left.position + right.position) / 2))
            }
        }
        pass.removeAll { known.contains($0) }
        return pass.isEmpty ? nil : pass
    }

    /// Starts again at the next face (the face was lost, or the settings changed).
    mutating func reset() {
        phase = .idle
        subject = nil
    }

    /// A face that moved by half its width, or (`sizeMatters`) changed size by a third, is
    /// someone else or someone who moved. A defocused face is found a little larger or smaller,
    /// so a sweep judges by place only.
    static func isNewSubject(_ face: NormalizedRect, after previous: NormalizedRect, sizeMatters: Bool = true) -> Bool {
        let dx = (face.x + face.width / 2) - (previous.x + previous.width / 2)
        let dy = (face.y + face.height / 2) - (previous.y + previous.height / 2)
        let moved = (dx * dx + dy * dy).squareRoot() / max(1e-6, previous.width)
        let resized = abs(face.width - previous.width) / max(1e-6, previous.width)
        return moved > moveLimit || (sizeMatters && resized > sizeLimit)
    }
}
