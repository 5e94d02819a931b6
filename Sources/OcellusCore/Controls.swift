/// A camera control (SPEC §1): zoom, focus, exposure, white balance, brightness,
/// …, as the device describes it. `name` is the driver's name in the form
/// `v4l2-ctl` prints it (`brightness`, `white_balance_temperature`,
/// `auto_exposure`), so people can use the names they know.
public struct CameraControl: Equatable, Sendable {
    public enum Kind: Int32, Sendable {
        case integer = 1, boolean = 2, menu = 3, button = 4, integer64 = 5, string = 7, bitmask = 8, integerMenu = 9
        public var name: String {
            switch self {
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
            (.dynamicArray, "dynamic-array"),
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
    /// The value when read; nil for write-only controls and buttons.
    public let value: Int64?

    public init(id: UInt32, name: String, kind: Kind, minimum: Int64, maximum: Int64, step: Int64,
                defaultValue: Int64, flags: Flags, menu: [MenuItem], value: Int64?) {
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
    }

    /// Refuses a value the control cannot take, saying why.
    public func validate(_ newValue: Int64) throws(OcellusError) {
        if flags.contains(.readOnly) || flags.contains(.disabled) {
            throw OcellusError(.wrongState, "control \(name) is read-only")
        }
        if kind == .string { throw OcellusError(.invalidArgument, "control \(name) takes a string, not a number") }
        if kind == .button { return }   // any value presses it (v4l2-ctl takes =1 as well as =0)
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
            throw OcellusError(.invalidArgument,
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
    /// Takes the device's exclusive configuration lock (other clients can no longer change controls).
    func lockForConfiguration() throws(OcellusError)
    func unlockForConfiguration() throws(OcellusError)
}
