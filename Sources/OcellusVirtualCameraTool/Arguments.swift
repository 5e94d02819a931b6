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

    mutating func flag(_ name: String) -> Bool {
        let before = remaining.count
        remaining.removeAll { $0 == name }
        return remaining.count != before
    }

    func finish() throws {
        if let extra = remaining.first { throw UsageError(message: "unexpected argument '\(extra)'") }
    }
}
