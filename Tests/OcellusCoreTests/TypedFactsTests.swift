import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Policies read typed facts (`DeviceDetails`), never the display dictionary: a backend that
/// spells a key differently, or a daemon that publishes a hostile value, must not steer them.
/// Reads the source tree, as a linter would, so that a new property read fails here by name.
@Suite struct TypedFactsTests {
    static let policyTargets = ["OcellusCore", "OcellusCapture", "OcellusMedia", "OcellusSystem"]

    static func sources(under directory: String) -> [String] {
        guard let listing = opendir(directory) else { return [] }
        defer { closedir(listing) }
        var found: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard !name.hasPrefix(".") else { continue }
            let path = directory + "/" + name
            if entry.pointee.d_type == UInt8(DT_DIR) { found += sources(under: path) } else if name.hasSuffix(".swift") { found.append(path) }
        }
        return found
    }

    static func text(of path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { bytes += chunk[..<count] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `properties[…]`, `properties.…` and `properties?.…`, outside comments.
    static func propertyReads(in text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let reads = ["properties[", "properties.", "properties?."].contains { code.contains($0) }
            return reads ? number + 1 : nil
        }
    }

    @Test func theLinterSeesAPropertyRead() {
        #expect(Self.propertyReads(in: "let a = 1\nlet r = device.properties[\"api.v4l2.sensor_rotation\"]\n// properties[x]") == [2])
        #expect(Self.propertyReads(in: "x = device.properties?.first\ny = facts.properties.keys") == [1, 2])
        #expect(Self.propertyReads(in: "self.properties = properties\nDevice(properties: facts.properties)").isEmpty)
    }

    @Test func policiesReadNoDisplayProperty() {
        let root = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/")).withLeadingSlash
        var found: [String] = []
        for target in Self.policyTargets {
            let files = Self.sources(under: root + "/Sources/" + target)
            #expect(!files.isEmpty, "no sources under \(root)/Sources/\(target)")
            for file in files {
                found += Self.propertyReads(in: Self.text(of: file)).map { "\(file):\($0)" }
            }
        }
        #expect(found.isEmpty, "policies read display properties (use DeviceDetails): \(found)")
    }
}

private extension String {
    var withLeadingSlash: String { hasPrefix("/") ? self : "/" + self }
}
