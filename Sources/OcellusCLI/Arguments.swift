/// A small argument reader: options may appear anywhere after the command.
struct Arguments {
    private(set) var remaining: [String]

    init(_ arguments: [String]) { remaining = arguments }

    /// Removes `--name value` or `--name=value`; the last one wins.
    mutating func value(_ name: String) throws -> String? {
        var found: String?
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == name {
                guard index + 1 < remaining.count else { throw UsageError(message: "\(name) needs a value") }
                found = remaining[index + 1]
                remaining.removeSubrange(index...index + 1)
            } else if argument.hasPrefix(name + "=") {
                found = String(argument.dropFirst(name.count + 1))
                remaining.remove(at: index)
            } else {
                index += 1
            }
        }
        return found
    }

    /// Removes every `--name value`, in order.
    mutating func values(_ name: String) throws -> [String] {
        var found: [String] = []
        while let next = try firstValue(name) { found.append(next) }
        return found
    }

    private mutating func firstValue(_ name: String) throws -> String? {
        guard let index = remaining.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) else { return nil }
        let argument = remaining[index]
        if argument == name {
            guard index + 1 < remaining.count else { throw UsageError(message: "\(name) needs a value") }
            let value = remaining[index + 1]
            remaining.removeSubrange(index...index + 1)
            return value
        }
        remaining.remove(at: index)
        return String(argument.dropFirst(name.count + 1))
    }

    /// `--name` alone (.some(nil)), `--name value` when the next argument is not an option, or absent (nil).
    mutating func optionalValue(_ name: String) -> String?? {
        guard let index = remaining.firstIndex(of: name) else { return nil }
        remaining.remove(at: index)
        guard index < remaining.count, !remaining[index].hasPrefix("-") else { return .some(nil) }
        return .some(remaining.remove(at: index))
    }

    mutating func flag(_ name: String) -> Bool {
        let before = remaining.count
        remaining.removeAll { $0 == name }
        return remaining.count != before
    }

    mutating func positional() -> String? {
        guard let index = remaining.firstIndex(where: { !$0.hasPrefix("--") }) else { return nil }
        return remaining.remove(at: index)
    }

    /// The next argument when it is not a flag (an optional positional that leads its command's
    /// arguments: `stream 0 --frames 5`, or `stream --frames 5` without one).
    mutating func leadingPositional() -> String? {
        guard let first = remaining.first, !first.hasPrefix("-") else { return nil }
        return remaining.removeFirst()
    }

    func finish() throws {
        if let extra = remaining.first { throw UsageError(message: "unexpected argument '\(extra)'") }
    }
}
