import COcellus
import OcellusCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every live C handle, so that a NULL, destroyed or foreign pointer is answered
/// with OC_ERROR_INVALID_HANDLE instead of a crash. Handles are the addresses
/// of retained Swift objects; an address leaves the table before the object is freed.
enum HandleTable {
    private static let live = Mutex<[UnsafeMutableRawPointer: AnyObject]>([:])

    static func register(_ object: AnyObject) -> OpaquePointer {
        let pointer = Unmanaged.passUnretained(object).toOpaque()
        live.withLock { $0[pointer] = object }
        return OpaquePointer(pointer)
    }

    static func unregister(_ handle: OpaquePointer) {
        _ = live.withLock { $0.removeValue(forKey: UnsafeMutableRawPointer(handle)) }
    }

    /// The object behind `handle` if it is live and of type `T`; otherwise records an error.
    static func lookup<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type, what: String) -> T? {
        guard let handle else {
            LastError.set("\(what) is NULL")
            return nil
        }
        let object = live.withLock { $0[UnsafeMutableRawPointer(handle)] }
        guard let typed = object as? T else {
            LastError.set("\(what) is not a valid handle (destroyed, released, or not an Ocellus \(what))")
            return nil
        }
        return typed
    }
}

/// A C string owned by Swift for as long as its owner lives.
final class CString {
    let pointer: UnsafeMutablePointer<CChar>
    init(_ text: String) { pointer = strdup(text)! }
    deinit { free(pointer) }
}
