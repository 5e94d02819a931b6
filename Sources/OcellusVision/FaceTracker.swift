/// Gives faces IDs that stay while a face stays in view (behaviour §4 metadata output): a face
/// is the one of the last analysis it overlaps most (intersection over union at least
/// `minimumOverlap`), else a new one. A face missed by one analysis keeps its ID for
/// `patience` more (detectors blink); then it is forgotten, and never comes back with that ID.
struct FaceTracker {
    struct Track {
        let id: UInt64
        var bounds: NormalizedRect
        var missed: Int
    }

    static let minimumOverlap = 0.3
    static let patience = 3
    private(set) var tracks: [Track] = []
    private var lastID: UInt64 = 0

    init() { tracks.reserveCapacity(16) }

    /// The IDs of `faces` (in their order), updating the tracks.
    mutating func identify(_ faces: [NormalizedRect], into ids: inout [UInt64]) {
        ids.removeAll(keepingCapacity: true)
        var taken = [Bool](repeating: false, count: tracks.count)
        for face in faces {
            var best: (index: Int, overlap: Double)?
            for (index, track) in tracks.enumerated() where !taken[index] {
                let overlap = face.overlap(track.bounds)
                if overlap >= Self.minimumOverlap && overlap > (best?.overlap ?? 0) { best = (index, overlap) }
            }
            if let best {
                taken[best.index] = true
                tracks[best.index].bounds = face
                tracks[best.index].missed = 0
                ids.append(tracks[best.index].id)
            } else {
                lastID += 1
                ids.append(lastID)
                tracks.append(Track(id: lastID, bounds: face, missed: 0))
                taken.append(true)
            }
        }
        for index in tracks.indices where !taken[index] { tracks[index].missed += 1 }
        tracks.removeAll { $0.missed > Self.patience }
    }
}
