/// A rectangle of a picture in fractions of its width and height (0…1, x and y the top-left
/// corner). Center Stage's window is one in the camera's own orientation (before any rotation or
/// mirroring of an output); a metadata object's bounds one in the delivered picture's.
public struct PictureRegion: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public static let whole = PictureRegion(x: 0, y: 0, width: 1, height: 1)

    public var centerX: Double { x + width / 2 }
    public var centerY: Double { y + height / 2 }

    /// The region in whole pixels of a `pictureWidth`×`pictureHeight` picture, on even
    /// coordinates and sizes (4:2:0 chroma is cropped with it), at least 2×2 and inside the
    /// picture; a coordinate that is not a finite number counts as the whole picture's.
    public func pixels(ofWidth pictureWidth: Int, height pictureHeight: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        func pixel(_ fraction: Double, of size: Int, otherwise: Int) -> Int {
            let value = (fraction * Double(size)).rounded()
            return value.isFinite ? Int(min(Double(size), max(0, value))) : otherwise
        }
        func span(_ start: Double, _ length: Double, _ size: Int) -> (Int, Int) {
            let extent = min(size & ~1, max(2, pixel(length, of: size, otherwise: size) & ~1))
            let origin = min(size - extent, pixel(start, of: size, otherwise: 0)) & ~1
            return (origin, extent)
        }
        let (left, width) = span(x, self.width, pictureWidth)
        let (top, height) = span(y, self.height, pictureHeight)
        return (left, top, width, height)
    }
}
