/// The persisted part of behaviour §2 camera selection for one app, and its file format.
///
/// Times are CLOCK_MONOTONIC microseconds of the current boot. A time stored
/// during another boot is read as 0 — "before this boot" — since monotonic
/// clocks restart at boot: every camera plugged in this boot counts as later.
public struct SelectionState: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var uniqueID: String
        public var microseconds: UInt64
        public init(_ uniqueID: String, at microseconds: UInt64) {
            self.uniqueID = uniqueID
            self.microseconds = microseconds
        }
    }

    public static let historyLimit = 16
    public static let knownLimit = 256
    /// Version 2 always ends with the checksum line; version 1 (0.1, no end line) is still read.
    static let header = "ocellus-selection 2"
    static let unsealedHeader = "ocellus-selection 1"

    /// When the app first ran (the reference for plug times until the user chooses).
    public var firstRun: UInt64
    /// User choices, most recent first, one entry per camera.
    public private(set) var choices: [Entry] = []
    /// Cameras a capture session ran with, most recent first.
    public private(set) var streamed: [Entry] = []
    /// When this app first saw cameras whose plug time the system does not give.
    public private(set) var firstSeen: [Entry] = []

    public init(firstRun: UInt64) { self.firstRun = firstRun }

    public mutating func recordChoice(_ uniqueID: String, at time: UInt64) {
        Self.push(&choices, Entry(uniqueID, at: time), limit: Self.historyLimit)
    }

    public mutating func recordStreaming(_ uniqueID: String, at time: UInt64) {
        Self.push(&streamed, Entry(uniqueID, at: time), limit: Self.historyLimit)
    }

    /// Records the first sight of a camera; later sights keep the first time.
    public mutating func recordFirstSight(_ uniqueID: String, at time: UInt64) {
        guard !firstSeen.contains(where: { $0.uniqueID == uniqueID }) else { return }
        Self.push(&firstSeen, Entry(uniqueID, at: time), limit: Self.knownLimit)
    }

    public func firstSight(of uniqueID: String) -> UInt64? {
        firstSeen.first { $0.uniqueID == uniqueID }?.microseconds
    }

    /// The time plug events are compared with: the last choice, else the first run.
    public var referenceTime: UInt64 { choices.first?.microseconds ?? firstRun }

    private static func push(_ list: inout [Entry], _ entry: Entry, limit: Int) {
        list.removeAll { $0.uniqueID == entry.uniqueID }
        list.insert(entry, at: 0)
        if list.count > limit { list.removeLast(list.count - limit) }
    }

    // MARK: File format
    //
    //   ocellus-selection 2                       (1: the same lines, from 0.1/0.2)
    //   first-run <boot-id> <usec>
    //   choice <boot-id> <usec> <unique id>      (most recent first)
    //   streamed <boot-id> <usec> <unique id>
    //   seen <boot-id> <usec> <unique id>
    //
    // The unique ID is the rest of the line, so it may hold spaces.

    public func serialized(bootID: String) -> String {
        var lines = [Self.header, "first-run \(bootID) \(firstRun)"]
        for (keyword, entries) in [("choice", choices), ("streamed", streamed), ("seen", firstSeen)] {
            lines += entries.map { "\(keyword) \(bootID) \($0.microseconds) \($0.uniqueID)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public static func parse(_ text: String, currentBootID: String) throws(ParseError) -> SelectionState {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first, first == header || first == unsealedHeader else {
            throw ParseError(line: 1, reason: "not an Ocellus selection file of version 1 or 2")
        }
        var state: SelectionState?
        var choices: [Entry] = [], streamed: [Entry] = [], seen: [Entry] = []
        for (index, line) in lines.enumerated().dropFirst() {
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 3, fields[1].count == 36 || fields[1].count == 32, let stamp = UInt64(fields[2]) else {
                throw ParseError(line: index + 1, reason: "malformed entry")
            }
            let time = fields[1] == currentBootID ? stamp : 0
            switch fields[0] {
            case "first-run" where fields.count == 3 && state == nil:
                state = SelectionState(firstRun: time)
            case "choice", "streamed", "seen":
                guard fields.count == 4, !fields[3].isEmpty else { throw ParseError(line: index + 1, reason: "missing unique ID") }
                let entry = Entry(String(fields[3]), at: time)
                switch fields[0] {
                case "choice": choices.append(entry)
                case "streamed": streamed.append(entry)
                default: seen.append(entry)
                }
            default:
                throw ParseError(line: index + 1, reason: "unknown entry '\(fields[0])'")
            }
        }
        guard var result = state else { throw ParseError(line: lines.count, reason: "no first-run entry") }
        // Stored most recent first; pushing oldest first rebuilds the same order and the limits.
        for entry in choices.reversed() { result.recordChoice(entry.uniqueID, at: entry.microseconds) }
        for entry in streamed.reversed() { result.recordStreaming(entry.uniqueID, at: entry.microseconds) }
        for entry in seen.reversed() { result.recordFirstSight(entry.uniqueID, at: entry.microseconds) }
        return result
    }
}
