import COcellus
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The thread-local last-error message behind `oc_last_error_message()`: one
/// malloc'd C string per thread, replaced on each failure, freed at thread exit.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    static func set(_ message: String) {
        let old = pthread_getspecific(key)
        pthread_setspecific(key, strdup(message))
        free(old)
    }

    static var message: UnsafePointer<CChar> {
        if let current = pthread_getspecific(key) {
            return UnsafePointer(current.assumingMemoryBound(to: CChar.self))
        }
        return emptyString
    }

    private static let emptyString: UnsafePointer<CChar> = UnsafePointer(strdup("")!)

    /// Records `error` and returns its status code.
    static func fail(_ error: OcellusError) -> oc_status {
        set("\(error.message)")
        return error.code.rawValue
    }

    static func fail(_ code: ErrorCode, _ message: String) -> oc_status {
        fail(OcellusError(code, message))
    }
}

/// A string argument from C, byte for byte: paths, names and addresses must be UTF-8
/// (Swift strings would otherwise replace bad bytes and the call would act on another name).
func stringArgument(_ text: UnsafePointer<CChar>, _ what: String) throws(OcellusError) -> String {
    guard let string = String(validatingCString: text) else {
        throw OcellusError(.invalidArgument, "\(what) is not valid UTF-8; Ocellus takes paths and names as UTF-8 bytes")
    }
    return string
}
