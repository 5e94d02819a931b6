/// behaviour §1: whether a USB serial number can tell units of one model apart.
///
/// Judged by what the string is, not by a list of known strings: a serial identifies a
/// unit when it carries enough that varies from unit to unit. What a model ships
/// identically on every unit fails one of these: a word (`NONE`, `USB Camera`), a version
/// (`1.00`, `V2.1.3`, `01.00.00`), a date or build stamp whose date is a field of its own
/// (`20150130`, `2019-07-15`, `V1.2.0.20210604`, `YG_U700_D.2021.0104.1403`), a counter
/// (`000001`, `SN0002`), too short (`S`, `12AB`), too little variety (`00000000`,
/// `ABAB1212`), or a run (`123456`, `0123456789ABCDEF`; as a field beside a word,
/// `nomac?123456`, it is filler). A serial that passes and still
/// repeats is caught when two units are seen together (SharedSerials). Works on the bytes
/// with a few small arrays: it runs for every camera on every listing, where compiling
/// patterns cost 2.4 M instructions a camera.
enum SerialNumber {
    static func identifiesUnit(_ serial: String) -> Bool {
        let bytes = serial.utf8.map { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) ? $0 - 32 : $0 } // upper case
        let parts = fields(bytes)
        guard !isVersion(parts), !hasDateField(parts) else { return false }
        // A run as a field of its own is filler beside a word (`nomac?123456`, Apple's placeholder).
        let characters = Array(parts.filter { $0.count < 5 || !isRun(Array($0)) }.joined())
        guard characters.count >= 6, characters.contains(where: isDigit) else { return false } // short, or a word
        guard !isCounter(characters), Set(characters).count >= 5 else { return false }
        return !isRun(characters)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) }

    /// The fields between separators (anything not a letter or digit).
    private static func fields(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: { !isAlphanumeric($0) })
    }

    /// Two to four numeric fields of up to three digits, the first perhaps after a `V`.
    private static func isVersion(_ fields: [ArraySlice<UInt8>]) -> Bool {
        var parts = fields
        guard (2...4).contains(parts.count) else { return false }
        if parts[0].first == UInt8(ascii: "V") { parts[0] = parts[0].dropFirst() }
        return parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(isDigit) }
    }

    /// A date (1990–2039) made of whole numeric fields: `20150130`, `2019-07-15`,
    /// `2021.0104` (perhaps followed by a time). A date inside a longer code (`SN20210104X9Z7`)
    /// is a manufacturing date beside a unit code, and does not count.
    private static func hasDateField(_ parts: [ArraySlice<UInt8>]) -> Bool {
        for start in parts.indices where parts[start].count == 4 && parts[start].allSatisfy(isDigit) || parts[start].count >= 8 {
            var digits: [UInt8] = []
            for part in parts[start...] {
                guard part.allSatisfy(isDigit), digits.count < 8 else { break }
                digits += part
            }
            guard digits.count >= 8 else { continue }
            let number = { (range: Range<Int>) in digits[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } }
            if (1990...2039).contains(number(0..<4)) && (1...12).contains(number(4..<6)) && (1...31).contains(number(6..<8)) {
                return true
            }
        }
        return false
    }

    /// Zero padding around a small number, perhaps after a two-letter prefix: `000001`,
    /// `SN0002`, `00001234` — what is left once the padding goes is too short to be a serial.
    private static func isCounter(_ characters: [UInt8]) -> Bool {
        let letters = characters.prefix(while: isLetter)
        let number = characters.dropFirst(letters.count)
        guard letters.count <= 2, number.allSatisfy(isDigit) else { return false }
        return number.drop(while: { $0 == UInt8(ascii: "0") }).count <= 4
    }

    /// Every character the next (or previous) in 0–9, A–Z: `123456`, `0123456789ABCDEF`, `987654`.
    private static func isRun(_ characters: [UInt8]) -> Bool {
        func rank(_ byte: UInt8) -> Int { isDigit(byte) ? Int(byte - UInt8(ascii: "0")) : Int(byte - UInt8(ascii: "A")) + 10 }
        let steps = zip(characters, characters.dropFirst()).map { rank($1) - rank($0) }
        return steps.allSatisfy { $0 == 1 } || steps.allSatisfy { $0 == -1 }
    }
}
