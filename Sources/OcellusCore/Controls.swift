/// A camera control (behaviour §1): zoom, focus, exposure, white balance, brightness,
/// …, as the device describes it. `name` is the driver's name in the form
/// `v4l2-ctl` prints it (`brightness`, `white_balance_temperature`,
/// `auto_exposure`), so people can use the names they know.
public struct CameraControl: Equatable, Sendable {
    public enum Kind: Int32, Sendable {
        case integer = 1, boolean = 2, menu = 3, button = 4, integer64 = 5, string = 7, bitmask = 8, integerMenu = 9
        /// Compound types: arrays of unsigned integers, and a width x height pair.
        case u8 = 0x0100, u16 = 0x0101, u32 = 0x0102, area = 0x0106
        /// A rectangle: left, top (signed) and width, height (unsigned), 32 bits each (a UVC 1.5 region of interest).
        case rect = 0x0107
        public var name: String {
            switch self {
            case .rect: "rect"
            case .u8: "u8"
            case .u16: "u16"
            case .u32: "u32"
            case .area: "area"
            case .integer: "int"
            case .boolean: "bool"
            case .menu: "menu"
            case .button: "button"
            case .integer64: "int64"
            case .string: "string"
            case .bitmask: "bitmask"
            case .integerMenu: "intmenu"
            }
        }
    }

    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let disabled = Flags(rawValue: 0x0001)
        public static let grabbed = Flags(rawValue: 0x0002)
        public static let readOnly = Flags(rawValue: 0x0004)
        public static let update = Flags(rawValue: 0x0008)
        public static let inactive = Flags(rawValue: 0x0010)
        public static let slider = Flags(rawValue: 0x0020)
        public static let writeOnly = Flags(rawValue: 0x0040)
        public static let volatile = Flags(rawValue: 0x0080)
        public static let hasPayload = Flags(rawValue: 0x0100)
        public static let executeOnWrite = Flags(rawValue: 0x0200)
        public static let modifyLayout = Flags(rawValue: 0x0400)
        public static let dynamicArray = Flags(rawValue: 0x0800)

        /// Each flag with its name as `v4l2-ctl --list-ctrls` prints it (V4L2's bits).
        public static let names: [(flag: Flags, name: String)] = [
            (.disabled, "disabled"), (.grabbed, "grabbed"), (.readOnly, "read-only"), (.update, "update"),
            (.inactive, "inactive"), (.slider, "slider"), (.writeOnly, "write-only"), (.volatile, "volatile"),
            (.hasPayload, "has-payload"), (.executeOnWrite, "execute-on-write"), (.modifyLayout, "modify-layout"),
            (.dynamicArray, "dynamic-array")
        ]

        /// The names of the flags set, in bit order.
        public var names: [String] { Self.names.filter { contains($0.flag) }.map(\.name) }
    }

    public struct MenuItem: Equatable, Sendable {
        /// The value to set: the item's index for menus, its integer for integer menus.
        public let value: Int64
        public let name: String
        public init(value: Int64, name: String) {
            self.value = value
            self.name = name
        }
    }

    public let id: UInt32
    public let name: String
    public let kind: Kind
    public let minimum: Int64
    public let maximum: Int64
    public let step: Int64
    public let defaultValue: Int64
    public let flags: Flags
    public let menu: [MenuItem]
    /// The value when read; nil for write-only controls, buttons and payload controls.
    public let value: Int64?
    /// An array's dimensions (V4L2 `dims`), outermost first; empty for one value.
    public let dimensions: [UInt32]
    /// Bytes of one element (a string's: its maximum length plus the NUL).
    public let elementSize: Int
    /// Elements of the value (the product of `dimensions`; for a dynamic array, its current length).
    public let elementCount: Int
    /// The value's bytes as the driver keeps them, for payload controls (strings, arrays,
    /// compound values) when read.
    public let payload: [UInt8]?

    public init(
        id: UInt32, name: String, kind: Kind, minimum: Int64, maximum: Int64, step: Int64,
        defaultValue: Int64, flags: Flags, menu: [MenuItem], value: Int64?,
        dimensions: [UInt32] = [], elementSize: Int = 0, elementCount: Int = 1, payload: [UInt8]? = nil
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.flags = flags
        self.menu = menu
        self.value = value
        self.dimensions = dimensions
        self.elementSize = elementSize
        self.elementCount = elementCount
        self.payload = payload
    }

    /// The same control with a value read.
    public func with(value: Int64?, payload: [UInt8]?, elementCount: Int?) -> CameraControl {
        CameraControl(
            id: id, name: name, kind: kind, minimum: minimum, maximum: maximum, step: step, defaultValue: defaultValue,
            flags: flags, menu: menu, value: value, dimensions: dimensions, elementSize: elementSize,
            elementCount: elementCount ?? self.elementCount, payload: payload)
    }

    /// Whether the value lives in a payload (a string, an array, a compound value) rather than one integer.
    public var hasPayload: Bool { flags.contains(.hasPayload) || kind == .string || !dimensions.isEmpty || kind.rawValue >= 0x0100 }

    /// A string control's value (its payload up to the NUL).
    public var stringValue: String? {
        guard kind == .string, let payload else { return nil }
        return String(decoding: payload.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Refuses a payload the control cannot take, saying why; returns the bytes to hand the
    /// driver (a string gets its NUL).
    public func validatePayload(_ bytes: [UInt8]) throws(OcellusError) -> [UInt8] {
        if flags.contains(.readOnly) || flags.contains(.disabled) {
            throw OcellusError(.wrongState, "control \(name) is read-only")
        }
        guard hasPayload else { throw OcellusError(.invalidArgument, "control \(name) takes a number, not a payload") }
        if kind == .string {
            guard !bytes.contains(0) else { throw OcellusError(.invalidArgument, "a string for \(name) cannot hold a NUL byte") }
            let length = Int64(bytes.count)
            guard length >= minimum && length <= maximum else {
                throw OcellusError(.invalidArgument, "a string of \(length) bytes is out of range for \(name) (\(minimum)…\(maximum) bytes)")
            }
            if step > 1 && (length - minimum) % step != 0 {
                throw OcellusError(.invalidArgument, "a string of \(length) bytes is not a valid length for \(name) (\(minimum) + n × \(step))")
            }
            return bytes + [0]
        }
        let whole = elementSize * elementCount
        if flags.contains(.dynamicArray) {
            let limit = elementSize * max(1, dimensions.first.map(Int.init) ?? 1)
            guard !bytes.isEmpty, bytes.count % elementSize == 0, bytes.count <= limit else {
                throw OcellusError(
                    .invalidArgument, "\(name) takes 1 to \(limit / max(1, elementSize)) elements of \(elementSize) bytes, not \(bytes.count) bytes")
            }
        } else if bytes.count != whole {
            throw OcellusError(.invalidArgument, "\(name) takes \(elementCount) elements of \(elementSize) bytes (\(whole) bytes), not \(bytes.count)")
        }
        // Numeric elements keep to the control's range, as single values do (the driver would clamp them).
        for (index, element) in numericElements(bytes).enumerated() where element < minimum || element > maximum {
            throw OcellusError(.invalidArgument, "element \(index) (\(element)) is out of range for \(name) (\(minimum)…\(maximum))")
        }
        return bytes
    }

    /// The elements of an array payload of integers (unsigned for u8/u16/u32, signed otherwise);
    /// empty for compound layouts such as an area.
    func numericElements(_ bytes: [UInt8]) -> [Int64] {
        guard [.u8, .u16, .u32, .integer, .integer64, .boolean].contains(kind), [1, 2, 4, 8].contains(elementSize) else { return [] }
        return stride(from: 0, to: bytes.count - elementSize + 1, by: elementSize).map { offset in
            var value: UInt64 = 0
            for byte in (0..<elementSize).reversed() { value = value << 8 | UInt64(bytes[offset + byte]) } // little-endian
            switch (kind, elementSize) {
            case (.u8, _), (.u16, _), (.u32, _): return Int64(value)
            case (_, 4): return Int64(Int32(truncatingIfNeeded: value))
            case (_, 2): return Int64(Int16(truncatingIfNeeded: value))
            case (_, 1): return Int64(Int8(truncatingIfNeeded: value))
            default: return Int64(bitPattern: value)
            }
        }
    }

    /// Refuses a value the control cannot take, saying why.
    public func validate(_ newValue: Int64) throws(OcellusError) {
        if flags.contains(.readOnly) || flags.contains(.disabled) {
            throw OcellusError(.wrongState, "control \(name) is read-only")
        }
        if kind == .string { throw OcellusError(.invalidArgument, "control \(name) takes a string, not a number") }
        if hasPayload { throw OcellusError(.invalidArgument, "control \(name) takes an array or compound value, not one number") }
        if kind == .button { return } // any value presses it (v4l2-ctl takes =1 as well as =0)
        guard newValue >= minimum && newValue <= maximum else {
            throw OcellusError(.invalidArgument, "\(newValue) is out of range for \(name) (\(minimum)…\(maximum))")
        }
        if (kind == .integer || kind == .integer64) && step > 1 && (newValue - minimum) % step != 0 {
            throw OcellusError(.invalidArgument, "\(newValue) is not a valid step for \(name) (\(minimum) + n × \(step))")
        }
        if kind == .bitmask && newValue & ~maximum != 0 {
            throw OcellusError(.invalidArgument, "\(newValue) sets bits outside the mask of \(name) (0x\(String(maximum, radix: 16)))")
        }
        if (kind == .menu || kind == .integerMenu) && !menu.contains(where: { $0.value == newValue }) {
            throw OcellusError(
                .invalidArgument,
                "\(newValue) is not an item of \(name) (items: \(menu.map { "\($0.value)=\($0.name)" }.joined(separator: ", ")))")
        }
    }

    /// `Brightness`, `White Balance Temperature` → `brightness`, `white_balance_temperature`.
    public static func canonicalName(_ driverName: String) -> String {
        var result = ""
        var pendingSeparator = false
        for character in driverName.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingSeparator && !result.isEmpty { result.append("_") }
                result.append(character)
                pendingSeparator = false
            } else {
                pendingSeparator = true
            }
        }
        return result
    }
}

/// Reads and changes controls of devices; implemented where a backend can (V4L2 nodes).
public protocol CameraControlling: Sendable {
    func controls() throws(OcellusError) -> [CameraControl]
    func setControl(named name: String, to value: Int64) throws(OcellusError)
    /// Sets a payload control: a string's bytes (without the NUL), an array's elements or a
    /// compound value, as `CameraControl.payload` holds them.
    func setControl(named name: String, payload: [UInt8]) throws(OcellusError)
    /// Takes the device's exclusive configuration lock (other clients can no longer change controls).
    func lockForConfiguration() throws(OcellusError)
    func unlockForConfiguration() throws(OcellusError)
    /// Whether this process holds the device's configuration lock.
    var holdsConfigurationLock: Bool { get }
    /// Whether another process has the device open (and could change its controls): face-driven
    /// adjustments never fight one.
    var hasOtherClients: Bool { get }
}

extension CameraControlling {
    public var holdsConfigurationLock: Bool { false }
    public var hasOtherClients: Bool { false }
}
