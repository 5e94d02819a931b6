import COcellus
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// Every live C handle, so that a NULL, destroyed or foreign pointer is answered
/// with OC_ERROR_INVALID_HANDLE instead of a crash. Handles are the addresses
/// of retained Swift objects; an address leaves the table before the object is freed.
/// Looked up on every call (frame accessors included), so the table is a small
/// open-addressing hash of pointer bits rather than a SipHash dictionary, and the
/// type check compares class identities instead of a dynamic cast.
enum HandleTable {
    private static let live = Locked(PointerTable())

    static func register(_ object: AnyObject) -> OpaquePointer {
        let pointer = Unmanaged.passUnretained(object).toOpaque()
        live.withLock { $0.insert(UInt(bitPattern: pointer), object) }
        return OpaquePointer(pointer)
    }

    static func unregister(_ handle: OpaquePointer) {
        live.withLock { $0.remove(UInt(bitPattern: UnsafeMutableRawPointer(handle))) }
    }

    /// The object behind `handle` if it is live and of type `T`; otherwise records an error.
    static func lookup<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type, what: String) -> T? {
        guard let handle else {
            LastError.set("\(what) is NULL")
            return nil
        }
        let object = live.withLock { $0.find(UInt(bitPattern: UnsafeMutableRawPointer(handle))) }
        guard let object, ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self) else {
            LastError.set("\(what) is not a valid handle (destroyed, released, or not an Ocellus \(what))")
            return nil
        }
        return unsafeDowncast(object, to: T.self)
    }
}

/// Linear-probing table from pointer bits to objects. 0 marks a free slot, 1 a
/// removed one (object addresses are never 0 or 1).
struct PointerTable {
    private var keys = [UInt](repeating: 0, count: 64)
    private var values = [AnyObject?](repeating: nil, count: 64)
    private var used = 0 // live and removed slots

    private func slot(_ key: UInt) -> Int {
        // Fibonacci hashing of the address (its low 4 bits are alignment).
        Int(truncatingIfNeeded: (key >> 4) &* 0x9E37_79B9_7F4A_7C15) & (keys.count - 1)
    }

    func find(_ key: UInt) -> AnyObject? {
        var index = slot(key)
        while keys[index] != 0 {
            if keys[index] == key { return values[index] }
            index = (index + 1) & (keys.count - 1)
        }
        return nil
    }

    mutating func insert(_ key: UInt, _ value: AnyObject) {
        if (used + 1) * 2 > keys.count { rehash() }
        var index = slot(key)
        while keys[index] > 1 && keys[index] != key { index = (index + 1) & (keys.count - 1) }
        if keys[index] == 0 { used += 1 }
        (keys[index], values[index]) = (key, value)
    }

    mutating func remove(_ key: UInt) {
        var index = slot(key)
        while keys[index] != 0 {
            if keys[index] == key {
                (keys[index], values[index]) = (1, nil)
                return
            }
            index = (index + 1) & (keys.count - 1)
        }
    }

    /// Drops removed slots; sized for a quarter load, so it grows only with live handles.
    private mutating func rehash() {
        let old = zip(keys, values).filter { $0.0 > 1 }
        let size = max(64, old.count * 4)
        var bits = 1
        while bits < size { bits <<= 1 }
        keys = [UInt](repeating: 0, count: bits)
        values = [AnyObject?](repeating: nil, count: bits)
        used = 0
        for (key, value) in old { insert(key, value!) }
    }
}

/// The shape of most C entry points: a looked-up handle (nil has already set the
/// last error) and a body whose error becomes the status and message.
/// What every `*_add_*callback` shares: checks the handle and the callback, registers the
/// observer `register` makes (given the callback, and the user data back as a pointer, which
/// Swift closures cannot hold as such) and hands out its ID.
func registerCallback<Box, Callback>(
    _ box: Box?, _ callback: Callback?, _ function: String,
    _ userData: UnsafeMutableRawPointer?, _ outID: UnsafeMutablePointer<oc_callback_id>?,
    _ register: (Box, Callback, @escaping @Sendable () -> UnsafeMutableRawPointer?) -> oc_callback_id
) -> oc_status {
    outID?.pointee = 0
    guard let box else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    guard let callback else { return LastError.fail(.invalidArgument, "\(function): callback is NULL") }
    let bits = UInt(bitPattern: userData)
    // Not `outID?.pointee = register(…)`: optional chaining would skip registering for a NULL out_id.
    let id = register(box, callback) { UnsafeMutableRawPointer(bitPattern: bits) }
    outID?.pointee = id
    return oc_status(OC_OK)
}

func abiCall<Box>(_ box: Box?, _ body: (Box) throws(OcellusError) -> Void) -> oc_status {
    guard let box else { return oc_status(OC_ERROR_INVALID_HANDLE) }
    do {
        try body(box)
        return oc_status(OC_OK)
    } catch {
        return LastError.fail(error)
    }
}

/// A C string owned by Swift for as long as its owner lives.
final class CString {
    let pointer: UnsafeMutablePointer<CChar>
    init(_ text: String) { pointer = strdup(text)! }
    deinit { free(pointer) }
}
