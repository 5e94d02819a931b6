/// Host-side face-driven focus (tier `host`): a coarse-to-fine sweep of the absolute focus
/// control that keeps the position where the face is sharpest, then holds while the face holds.
/// Each position is measured on the analysis after it was set (the lens has moved by then); a
/// sweep starts again when the face moves or changes size a lot, or its sharpness falls well
/// below what the sweep found (someone moved nearer or further).
struct FocusSweep {
    static let coarsePositions = 7
    static let finePositions = 5
    /// Sharpness below this share of the best found means focus was lost.
    static let lossShare = 0.6
    /// A face this far off its position (in face widths) or size (as a share) is a new subject.
    static let moveLimit = 0.5
    static let sizeLimit = 0.35

    enum Phase: Equatable {
        case idle
        /// Measuring `positions[index]` (set before the current analysis).
        case sweeping(positions: [Int64], index: Int, fine: Bool)
        case holding(position: Int64, sharpness: Double)
    }

    let range: ExposureLoop.Range
    private(set) var phase = Phase.idle
    private var measured: [(position: Int64, sharpness: Double)] = []
    private var subject: NormalizedRect?

    init(range: ExposureLoop.Range) { self.range = range }

    var isHolding: Bool { if case .holding = phase { true } else { false } }

    /// Positions spread evenly over `low…high`, snapped to the control's steps, without repeats.
    private func spread(_ low: Int64, _ high: Int64, count: Int) -> [Int64] {
        var result: [Int64] = []
        for index in 0..<count {
            let value = range.snapped(Double(low) + Double(high - low) * Double(index) / Double(max(1, count - 1)))
            if result.last != value { result.append(value) }
        }
        return result
    }

    /// One analysis: the face's bounds and sharpness, measured at the position set before it.
    /// Returns the position to set now (nil: keep the lens where it is).
    mutating func next(face: NormalizedRect, sharpness: Double) -> Int64? {
        if let subject, Self.isNewSubject(face, after: subject) { phase = .idle }
        subject = face
        switch phase {
        case .idle:
            measured.removeAll(keepingCapacity: true)
            let coarse = spread(range.minimum, range.maximum, count: Self.coarsePositions)
            phase = .sweeping(positions: coarse, index: 0, fine: false)
            return coarse[0]
        case .sweeping(let positions, let index, let fine):
            measured.append((positions[index], sharpness))
            if index + 1 < positions.count {
                phase = .sweeping(positions: positions, index: index + 1, fine: fine)
                return positions[index + 1]
            }
            let best = measured.max { $0.sharpness < $1.sharpness }!
            if fine {
                phase = .holding(position: best.position, sharpness: best.sharpness)
                return best.position
            }
            // Fine: around the best coarse position, one coarse spacing either side.
            let spacing = (range.maximum - range.minimum) / Int64(Self.coarsePositions - 1)
            let fineRange = spread(max(range.minimum, best.position - spacing), min(range.maximum, best.position + spacing),
                                      count: Self.finePositions)
            measured.removeAll(keepingCapacity: true)
            measured.append(best)
            phase = .sweeping(positions: fineRange, index: 0, fine: true)
            return fineRange[0]
        case .holding(_, let best):
            if sharpness < best * Self.lossShare { phase = .idle }
            return nil
        }
    }

    /// Starts again at the next face (the face was lost, or the settings changed).
    mutating func reset() {
        phase = .idle
        subject = nil
    }

    static func isNewSubject(_ face: NormalizedRect, after previous: NormalizedRect) -> Bool {
        let dx = (face.x + face.width / 2) - (previous.x + previous.width / 2)
        let dy = (face.y + face.height / 2) - (previous.y + previous.height / 2)
        let moved = (dx * dx + dy * dy).squareRoot() / max(1e-6, previous.width)
        let resized = abs(face.width - previous.width) / max(1e-6, previous.width)
        return moved > moveLimit || resized > sizeLimit
    }
}
