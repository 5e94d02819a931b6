import OcellusCore

/// Just enough JSON for the CLI's output (the library stays Foundation-free).
indirect enum JSON {
    case string(String)
    case number(Double)
    case int(Int64)
    case bool(Bool)
    case null
    case array([JSON])
    /// Keys keep their order, so the output reads the same every time.
    case object([(String, JSON)])

    var text: String {
        switch self {
        case .string(let value): return JSON.quote(value)
        case .number(let value):
            let rounded = (value * 1000).rounded() / 1000
            return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
        case .int(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.text).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { "\(JSON.quote($0.0)): \($0.1.text)" }.joined(separator: ", ") + "}"
        }
    }

    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension Device {
    /// The `list --json` device shape (a public contract: extend, never reshape).
    var json: JSON {
        .object([
            ("unique_id", .string(uniqueID)),
            ("name", .string(name)),
            ("type", .string(type.name)),
            ("position", .string(position.name)),
            ("backend", .string(backend.name)),
            ("connected", .bool(isConnected)),
            ("formats", .array(formats.map { format in
                .object([
                    ("pixel_format", .string(format.pixelFormat.name)),
                    ("width", .int(Int64(format.width))),
                    ("height", .int(Int64(format.height))),
                    ("frame_rates", .array(format.frameRates.map { .number($0.framesPerSecond) })),
                ])
            })),
            // Added in 0.2: what other tools call the device by.
            ("vendor_id", vendorID.map { .string(hex4($0)) } ?? .null),
            ("product_id", productID.map { .string(hex4($0)) } ?? .null),
            ("serial", serialNumber.map { .string($0) } ?? .null),
            ("v4l2_nodes", .array(v4l2Nodes.map { .string($0) })),
            ("pipewire_serial", properties["object.serial"].flatMap { Int64($0) }.map { .int($0) } ?? .null),
        ])
    }

    /// The device's V4L2 nodes (`/dev/videoN`), as the raw V4L2 backend or PipeWire's V4L2 plugin report them.
    var v4l2Nodes: [String] {
        if let nodes = properties["api.v4l2.nodes"] { return nodes.split(separator: " ").map(String.init) }
        return properties["api.v4l2.path"].map { [$0] } ?? []
    }
}

/// Four lower-case hex digits, as lsusb writes USB IDs.
func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
}

extension CameraControl {
    var flagNames: [String] {
        [(Flags.disabled, "disabled"), (.grabbed, "grabbed"), (.readOnly, "read-only"), (.inactive, "inactive"),
         (.writeOnly, "write-only"), (.volatile, "volatile")].filter { flags.contains($0.0) }.map(\.1)
    }

    /// `controls --json` shape.
    var json: JSON {
        .object([
            ("name", .string(name)), ("id", .int(Int64(id))), ("type", .string(kind.name)),
            ("minimum", .int(minimum)), ("maximum", .int(maximum)), ("step", .int(step)),
            ("default", .int(defaultValue)), ("value", value.map { .int($0) } ?? .null),
            ("flags", .array(flagNames.map { .string($0) })),
            ("menu", .array(menu.map { .object([("value", .int($0.value)), ("name", .string($0.name))]) })),
        ])
    }
}
