import OcellusCore

/// What a metadata output looks for (behaviour §4 metadata output), one bit each.
public struct MetadataObjectTypes: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Human faces, tracked from delivery to delivery.
    public static let faces = MetadataObjectTypes(rawValue: 1 << 0)
    /// Machine-readable codes: QR and the common 2D and 1D symbologies (`CodeSymbology`).
    public static let codes = MetadataObjectTypes(rawValue: 1 << 1)
    public static let all: MetadataObjectTypes = [.faces, .codes]
}

/// A code's symbology; the raw values are the code plugin's bits (ocellus_codes.h).
public enum CodeSymbology: Int32, CaseIterable, Sendable {
    case qr = 0x1, microQR = 0x2, aztec = 0x4, dataMatrix = 0x8, pdf417 = 0x10, ean8 = 0x20, ean13 = 0x40
    case upcA = 0x80, upcE = 0x100, code39 = 0x200, code93 = 0x400, code128 = 0x800, itf = 0x1000, codabar = 0x2000

    /// The name programs see (the CLI's JSON, the C ABI's `symbology`).
    public var name: String {
        switch self {
        case .qr: "qr"
        case .microQR: "micro_qr"
        case .aztec: "aztec"
        case .dataMatrix: "data_matrix"
        case .pdf417: "pdf417"
        case .ean8: "ean8"
        case .ean13: "ean13"
        case .upcA: "upca"
        case .upcE: "upce"
        case .code39: "code39"
        case .code93: "code93"
        case .code128: "code128"
        case .itf: "itf"
        case .codabar: "codabar"
        }
    }

    /// Every symbology as one plugin mask.
    static let everyMask = allCases.reduce(Int32(0)) { $0 | $1.rawValue }
}

/// A box in 0...1 of the delivered picture (after the output's rotation and mirroring, as a
/// preview draws it): x, y its top-left corner. The core's picture rectangle, which Center Stage's
/// window is too.
public typealias NormalizedRect = PictureRegion

extension PictureRegion {
    var area: Double { max(0, width) * max(0, height) }

    /// Intersection over union: 0 apart, 1 the same box.
    func overlap(_ other: NormalizedRect) -> Double {
        let width = min(x + self.width, other.x + other.width) - max(x, other.x)
        let height = min(y + self.height, other.y + other.height) - max(y, other.y)
        let shared = max(0, width) * max(0, height)
        let union = area + other.area - shared
        return union > 0 ? shared / union : 0
    }
}

/// One object seen in a frame.
public struct MetadataObject: Sendable {
    public enum Kind: Sendable {
        /// `id` stays the same while the face stays in view (from 1 up, never reused by an output).
        case face(id: UInt64)
        /// The code's content as encoded (`bytes`) and as UTF-8 text.
        case code(CodeSymbology, text: String, bytes: [UInt8])
    }

    public let kind: Kind
    public let bounds: NormalizedRect
    /// 0...1 (1 for a code, which either decodes or is not reported).
    public let confidence: Float
}

/// What one analysed frame held: its capture time (CLOCK_MONOTONIC ns, the frame's) and objects.
public struct MetadataDelivery: Sendable {
    public let timestampNanoseconds: UInt64
    public let objects: [MetadataObject]
}
