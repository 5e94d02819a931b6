/// Serials seen on two connected units of one model at once (behaviour §1): such a
/// serial names the model, not the unit, so from then on that model's units get port
/// IDs whatever order they are plugged in. Remembered per user in the state directory
/// (`shared-serials`: one `vvvv:pppp SERIAL` per line, a `StateFile`, updated under its
/// lock), since the first encounter alone cannot tell: the first unit seen keeps its
/// serial ID until it is unplugged.
final class SharedSerials: @unchecked Sendable {
    private let file: StateFile
    private let lock = ConditionLock()
    private var known: Set<String>

    init(directory: String) {
        file = StateFile(directory: directory, name: "shared-serials", lockName: "shared-serials.lock")
        known = Self.entries(file.read())
    }

    func contains(vendor: UInt16, product: UInt16, serial: String) -> Bool {
        lock.withLock { known.contains(Self.entry(vendor, product, serial)) }
    }

    /// Adds the serial (merged with what other processes wrote meanwhile). A state
    /// directory that cannot be written only loses the memory, never the device.
    func remember(vendor: UInt16, product: UInt16, serial: String) {
        let entry = Self.entry(vendor, product, serial)
        guard lock.withLock({ known.insert(entry).inserted }) else { return }
        file.withLock { locked in
            guard locked, (try? file.prepareDirectory()) != nil else { return }
            let merged = lock.withLock { () -> Set<String> in
                known.formUnion(Self.entries(file.read()))
                return known
            }
            _ = file.writeAtomically(merged.sorted().map { $0 + "\n" }.joined())
        }
    }

    private static func entry(_ vendor: UInt16, _ product: UInt16, _ serial: String) -> String {
        "\(DeviceClassifier.hex4(vendor)):\(DeviceClassifier.hex4(product)) \(serial)"
    }

    private static func entries(_ contents: StateFile.Contents) -> Set<String> {
        guard case .intact(let text) = contents else { return [] }
        return Set(text.split(separator: "\n").map(String.init))
    }
}
