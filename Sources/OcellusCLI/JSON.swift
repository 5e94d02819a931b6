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
        ])
    }
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
