import CLoadedObject
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// An engine's library opened with `dlopen` (on first use: nothing is linked), its entry points
/// looked up by name.
public struct LoadedLibrary {
    /// Why an opened library is not the engine's (then it is closed again).
    public struct Refusal: Error {
        let reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    /// Where a loader reads its variables: the process's environment, or a test's own table
    /// (setenv beside other threads' getenv is a race glibc does not guard).
    public typealias Environment = (String) -> String?
    public static let processEnvironment: Environment = { getenv($0).map { String(cString: $0) } }

    public let path: String
    private let handle: UnsafeMutableRawPointer

    public func symbol<T>(_ name: String, as type: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: type) } }

    /// Where one of Ocellus's own plugins (C++ libraries wrapped in C, built and installed with
    /// the library) is looked for, in order: the path in `environmentVariable` alone when set,
    /// else `ocellus/` beside the library holding this code (LIBDIR/ocellus/ once installed,
    /// build/lib/ocellus/ in the build tree), else the loader's path.
    public static func pluginCandidates(
        _ fileName: String, environmentVariable: String, environment: Environment = processEnvironment
    ) -> [String] {
        if let path = environment(environmentVariable), !path.isEmpty { return [path] }
        var candidates = [fileName]
        if let loaded = ocellus_loaded_object_path() {
            let path = String(cString: loaded)
            if let slash = path.lastIndex(of: "/") { candidates.insert(path[..<slash] + "/ocellus/" + fileName, at: 0) }
        }
        return candidates
    }

    /// The entry points of the first of `candidates` that opens and that `resolve` accepts; nil
    /// and every candidate's failure (the loader's message, or the refusal), in order, when none.
    /// The entry points of one of Ocellus's own plugins (`what`: "echo canceller plugin"): the
    /// first candidate (`pluginCandidates`) whose `versionSymbol` answers `version` and in which
    /// `resolve` finds every entry point. Else `.libraryUnavailable`: `needs` (what the plugin is
    /// for), how to `install` it, then why each candidate failed.
    public static func plugin<Entry>(
        _ fileName: String, what: String, environmentVariable: String, versionSymbol: String,
        version: Int32, needs: String, install: String, environment: Environment = processEnvironment,
        resolve: (LoadedLibrary) -> Entry?
    ) throws(OcellusError) -> Entry {
        typealias Version = @convention(c) () -> Int32
        let candidates = pluginCandidates(fileName, environmentVariable: environmentVariable, environment: environment)
        let (entry, failures) = first(of: candidates) { (loaded) throws(Refusal) in
            guard let answer = loaded.symbol(versionSymbol, as: Version.self), answer() == version, let entry = resolve(loaded) else {
                throw Refusal("\(loaded.path) is not Ocellus's \(what) of interface \(version)")
            }
            return entry
        }
        if let entry { return entry }
        throw OcellusError(
            .libraryUnavailable,
            "\(needs) (\(install), or set \(environmentVariable) to the plugin): \(failures.joined(separator: "; "))")
    }

    public static func first<Entry>(
        of candidates: [String],
        resolve: (LoadedLibrary) throws(Refusal) -> Entry
    ) -> (entry: Entry?, failures: [String]) {
        var failures: [String] = []
        for path in candidates {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                failures.append(dlerror().map { String(cString: $0) } ?? path)
                continue
            }
            do throws(Refusal) {
                return (try resolve(LoadedLibrary(path: path, handle: handle)), failures)
            } catch {
                failures.append(error.reason)
                dlclose(handle)
            }
        }
        return (nil, failures)
    }
}
