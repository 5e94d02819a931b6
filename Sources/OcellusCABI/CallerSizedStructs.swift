import COcellus
import OcellusCore

/// A struct the caller sizes with `struct_size` (docs/ABI.md lists every one). The smallest
/// `struct_size` a call accepts is what the struct held in its first release — the end of its
/// last field then, never its size now — so that a program built against that release keeps
/// working as the struct grows at its end; a call reads and fills only what the caller's size
/// covers.
protocol CallerSizedStruct {
    /// Where the struct ended in its first release.
    static var firstReleaseSize: Int { get }
    /// What a caller whose `struct_size` is too small should do.
    static var sizingAdvice: String { get }
    var struct_size: UInt32 { get set }
}

extension CallerSizedStruct {
    static var sizingAdvice: String { "set it to sizeof(\(Self.self))" }

    /// Where `field` ends: a first release's last field gives `firstReleaseSize`.
    static func end<Value>(of field: KeyPath<Self, Value>) -> Int {
        MemoryLayout<Self>.offset(of: field)! + MemoryLayout<Value>.size
    }

    /// The caller's struct, when it is there and holds at least the first release's fields; else
    /// the error every call taking one gives.
    static func checked<Pointer: CallerSizedPointer>(
        _ pointer: Pointer?, _ argument: String,
        in function: String
    ) throws(OcellusError) -> Pointer where Pointer.Pointee == Self {
        guard let pointer else { throw OcellusError(.invalidArgument, "\(function): \(argument) is NULL") }
        let size = pointer.callerStructSize
        guard Int(size) >= firstReleaseSize else {
            throw OcellusError(.invalidArgument, "\(function): \(argument)->struct_size is \(size); \(sizingAdvice)")
        }
        return pointer
    }

    /// Writes `value` into the caller's struct as far as its `struct_size` reaches (that stays).
    static func fill(_ pointer: UnsafeMutablePointer<Self>, with value: Self) {
        var value = value
        value.struct_size = pointer.pointee.struct_size
        let count = min(Int(value.struct_size), MemoryLayout<Self>.size)
        withUnsafeBytes(of: &value) { UnsafeMutableRawPointer(pointer).copyMemory(from: $0.baseAddress!, byteCount: count) }
    }
}

/// The caller's pointers to such structs, const or not.
protocol CallerSizedPointer {
    associatedtype Pointee
    var callerStructSize: UInt32 { get }
}

extension UnsafePointer: CallerSizedPointer where Pointee: CallerSizedStruct {
    var callerStructSize: UInt32 { pointee.struct_size }
}

extension UnsafeMutablePointer: CallerSizedPointer where Pointee: CallerSizedStruct {
    var callerStructSize: UInt32 { pointee.struct_size }
}

// Every caller-sized struct of the header, with the end of its first release's last field.
extension oc_context_options: CallerSizedStruct { // 0.1
    static var firstReleaseSize: Int { end(of: \.timeout_ms) }
    static var sizingAdvice: String { "initialise the options with oc_context_options_init()" }
}
extension oc_format_info: CallerSizedStruct { static var firstReleaseSize: Int { end(of: \.frame_rates_are_range) } } // 0.1
extension oc_control_info: CallerSizedStruct { static var firstReleaseSize: Int { end(of: \.menu_count) } } // 0.1
extension oc_photo_settings: CallerSizedStruct { static var firstReleaseSize: Int { end(of: \.path) } } // 0.1
extension oc_face_driven_state: CallerSizedStruct { static var firstReleaseSize: Int { end(of: \.active) } } // 0.3
extension oc_center_stage_state: CallerSizedStruct { static var firstReleaseSize: Int { end(of: \.window) } } // 0.3
extension oc_hardware_cost: CallerSizedStruct { static var firstReleaseSize: Int { end(of: \.bus) } } // 0.3
extension oc_configuration_check: CallerSizedStruct { static var firstReleaseSize: Int { end(of: \.reason) } } // 0.3
extension oc_metadata_statistics: CallerSizedStruct { static var firstReleaseSize: Int { end(of: \.corrupt_frames) } } // 0.3

/// Copies `text` into a fixed `char[N]` field of a C struct, NUL-terminated and cut where a
/// character starts (never inside a UTF-8 sequence) when it is longer.
func copyText<Field>(_ text: String, into field: inout Field) {
    withUnsafeMutableBytes(of: &field) { bytes in
        let utf8 = Array(text.utf8)
        var count = min(utf8.count, bytes.count - 1)
        while count > 0, count < utf8.count, utf8[count] & 0xC0 == 0x80 { count -= 1 } // a continuation byte starts the rest
        for index in 0..<count { bytes[index] = utf8[index] }
        bytes[count] = 0
    }
}
