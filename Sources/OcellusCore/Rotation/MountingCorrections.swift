/// The mounting corrections M of external cameras (SPEC §3), by unique ID, in
/// `<state dir>/camera-mounting`: a physical fact about where a camera sits, so
/// kept beside the apps' selection state and shared by them.
///
///     ocellus-mounting 1
///     <degrees> <unique id>
public final class MountingCorrections: @unchecked Sendable {
    private let file: StateFile
    static let header = "ocellus-mounting 1"

    public init(directory: String) {
        file = StateFile(directory: directory, name: "camera-mounting", lockName: "camera-mounting.lock")
    }

    /// M for `uniqueID`: 0 when never set (or the file is unreadable).
    public func correction(for uniqueID: String) -> Int {
        Self.parse(file.read())[uniqueID] ?? 0
    }

    public func setCorrection(_ degrees: Int, for uniqueID: String) throws(OcellusError) {
        let value = try RotationCoordinator.rightAngle(degrees, "mounting correction")
        try file.prepareDirectory()
        let outcome: Result<Void, OcellusError> = file.withLock { locked in
            guard locked else { return .failure(OcellusError(.other, "cannot lock \(file.lockPath)")) }
            var all = Self.parse(file.read())
            all[uniqueID] = value
            let lines = [Self.header] + all.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            return file.writeAtomically(lines.joined(separator: "\n") + "\n")
        }
        try outcome.get()
    }

    /// Entries of a well-formed file; anything else reads as no corrections.
    static func parse(_ text: String?) -> [String: Int] {
        guard let text else { return [:] }
        let lines = text.split(separator: "\n")
        guard lines.first.map(String.init) == header else { return [:] }
        var result: [String: Int] = [:]
        for line in lines.dropFirst() {
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, let degrees = Int(fields[0]), degrees % 90 == 0 else { continue }
            result[String(fields[1])] = RotationCoordinator.normalized(degrees)
        }
        return result
    }
}
