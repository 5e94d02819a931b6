import CVisionPlugins
import OcellusCore
import OcellusPlugins

/// Codes read by zxing-cpp, through Ocellus's plugin `libocellus-codes-zxing.so`
/// (plugins/codes-zxing), loaded on first use so that the library never links zxing-cpp.
final class CodeReader {
    struct Library: @unchecked Sendable {
        typealias Read = @convention(c) (UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32, UnsafeMutablePointer<ocellus_code>?, Int32) -> Int32
        let read: Read

        /// plugins/codes-zxing/ocellus_codes.h's OCELLUS_CODES_INTERFACE_VERSION.
        static let interfaceVersion: Int32 = 1

        static func load() throws(OcellusError) -> Library {
            try LoadedLibrary.plugin(
                "libocellus-codes-zxing.so", what: "code reader plugin", environmentVariable: "OCELLUS_CODES_LIB",
                versionSymbol: "ocellus_codes_interface_version", version: interfaceVersion,
                needs: "codes need Ocellus's plugin libocellus-codes-zxing.so and zxing-cpp",
                install: "Debian: install libocellus0-metadata"
            ) { loaded in
                loaded.symbol("ocellus_codes_read", as: Read.self).map { Library(read: $0) }
            }
        }
    }

    static let capacity = 8
    private let library: Library
    /// The plugin's answers, reused from call to call (a few kilobytes each).
    private var found = [ocellus_code](repeating: ocellus_code(), count: CodeReader.capacity)

    init() throws(OcellusError) { library = try Library.load() }

    /// The codes in a grey picture, in its pixels; nil when zxing-cpp failed.
    func read(_ grey: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> ArraySlice<ocellus_code>? {
        let count = found.withUnsafeMutableBufferPointer { found in
            library.read(grey, Int32(width), Int32(height), Int32(stride), CodeSymbology.everyMask, found.baseAddress, Int32(found.count))
        }
        return count < 0 ? nil : found[..<Int(count)]
    }
}

extension ocellus_code {
    /// The content as encoded.
    var content: [UInt8] {
        withUnsafeBytes(of: bytes) { Array($0.prefix(Int(max(0, min(length, Int32($0.count)))))) }
    }

    var utf8Text: String {
        withUnsafeBytes(of: text) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
