/// The mounting corrections M of external cameras (behaviour §3), by unique ID, in
/// `<state dir>/camera-mounting`: a physical fact about where a camera sits, so
/// kept beside the apps' selection state and shared by them.
///
///     ocellus-mounting 2          (1: the same lines, from 0.1/0.2)
///     <degrees> <unique id>
///     end <checksum>
public final class MountingCorrections: @unchecked Sendable {
    private let file: StateFile
    static let header = "ocellus-mounting 2"
    static let unsealedHeader = "ocellus-mounting 1"

    public init(directory: String) {
        file = StateFile(
            directory: directory, name: "camera-mounting", lockName: "camera-mounting.lock",
            unsealedHeader: Self.unsealedHeader)
    }

    /// M for `uniqueID`: 0 when never set, or while the file is damaged (`problem` says why).
    public func correction(for uniqueID: String) -> Int {
        (try? Self.parse(file.read()).get())?[uniqueID] ?? 0
    }

    /// Why the stored corrections cannot be used (the file is kept until the next
    /// correction is set, which moves it aside), or nil.
    public var problem: String? {
        guard case .failure(let reason) = Self.parse(file.read()) else { return nil }
        return "\(file.path): \(reason.message); mounting corrections read as 0 until one is set again"
    }

    public func setCorrection(_ degrees: Int, for uniqueID: String) throws(OcellusError) {
        let value = try RotationCoordinator.rightAngle(degrees, "mounting correction")
        try file.prepareDirectory()
        let outcome: Result<Void, OcellusError> = file.withLock { locked in
            guard locked else { return .failure(OcellusError(.io, "cannot lock \(file.lockPath)")) }
            var all: [String: Int] = [:]
            switch Self.parse(file.read()) {
            case .success(let stored): all = stored
            case .failure: _ = file.moveAside() // kept for inspection, never overwritten
            }
            all[uniqueID] = value
            let lines = [Self.header] + all.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            return file.writeAtomically(lines.joined(separator: "\n") + "\n")
        }
        try outcome.get()
    }

    static func parse(_ contents: StateFile.Contents) -> Result<[String: Int], OcellusError> {
        let text: String
        switch contents {
        case .missing: return .success([:])
        case .damaged(let reason): return .failure(OcellusError(.io, reason))
        case .intact(let body): text = body
        }
        let lines = text.split(separator: "\n")
        guard let first = lines.first, first == header || first == unsealedHeader else {
            return .failure(OcellusError(.io, "not an Ocellus mounting file of version 1 or 2"))
        }
        var result: [String: Int] = [:]
        for (index, line) in lines.enumerated().dropFirst() {
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, let degrees = Int(fields[0]), degrees % 90 == 0 else {
                return .failure(OcellusError(.io, "line \(index + 1): malformed entry"))
            }
            result[String(fields[1])] = RotationCoordinator.normalized(degrees)
        }
        return .success(result)
    }
}
