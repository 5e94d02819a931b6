#if canImport(Glibc)
import Glibc
#endif

/// An engine's library opened with `dlopen` (on first use: nothing is linked), its entry points
/// looked up by name.
struct LoadedLibrary {
    /// Why an opened library is not the engine's (then it is closed again).
    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    let path: String
    private let handle: UnsafeMutableRawPointer

    func symbol<T>(_ name: String, as type: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: type) } }

    /// The entry points of the first of `candidates` that opens and that `resolve` accepts; nil
    /// and every candidate's failure (the loader's message, or the refusal), in order, when none.
    static func first<Entry>(of candidates: [String],
                             resolve: (LoadedLibrary) throws(Refusal) -> Entry) -> (entry: Entry?, failures: [String]) {
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
