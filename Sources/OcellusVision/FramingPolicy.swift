import OcellusCore

/// Where Center Stage aims its window for the faces in view (behaviour §4): the faces centred, at
/// a steady size — one face a third of the window's height, a group within most of its width —
/// re-aimed only when they moved or grew beyond a dead band (detections jitter; the window must
/// not), and the whole picture again once no face has been seen for a while. Pure: the
/// companion feeds it detections, `FramingWindow` moves toward its aim.
struct FramingPolicy {
    /// A face's height as a share of the window's.
    static let faceShareOfHeight = 0.33
    /// How much of the window's width and height the faces together may take.
    static let groupShareOfWidth = 0.7
    static let groupShareOfHeight = 0.6
    /// Moves smaller than this share of the window, and size changes under this ratio, keep the aim.
    static let centreDeadBand = 0.06
    static let sizeDeadBand = 1.15
    /// No face for this long: back to the whole picture.
    static let faceLossTimeout: UInt64 = 2_000_000_000

    /// The window aimed at (centre and size, before the window clamps it), nil the whole picture.
    private(set) var aim: PictureRegion?
    private var lastFaceTime: UInt64 = 0

    /// Takes one analysis' faces (in the camera's picture) at `now`; true when the aim changed.
    mutating func update(faces: [PictureRegion], at now: UInt64) -> Bool {
        guard let first = faces.first else {
            guard aim != nil, now >= lastFaceTime + Self.faceLossTimeout else { return false }
            aim = nil
            return true
        }
        lastFaceTime = now
        var (left, top, right, bottom, tallest) = (first.x, first.y, first.x + first.width, first.y + first.height, 0.0)
        for face in faces {
            (left, top) = (min(left, face.x), min(top, face.y))
            (right, bottom) = (max(right, face.x + face.width), max(bottom, face.y + face.height))
            tallest = max(tallest, face.height)
        }
        let size = min(
            1,
            max(
                tallest / Self.faceShareOfHeight, (right - left) / Self.groupShareOfWidth,
                (bottom - top) / Self.groupShareOfHeight))
        let ideal = PictureRegion(x: (left + right) / 2 - size / 2, y: (top + bottom) / 2 - size / 2, width: size, height: size)
        if let aim, abs(ideal.centerX - aim.centerX) < Self.centreDeadBand * aim.width,
            abs(ideal.centerY - aim.centerY) < Self.centreDeadBand * aim.height,
            max(ideal.width / aim.width, aim.width / ideal.width) < Self.sizeDeadBand
        {
            return false
        }
        aim = ideal
        return true
    }
}
