import Testing

@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// State files that cannot be half-read: cut, altered and unsafe files are told from good ones.
@Suite struct StateFileTests {
    func scratch() -> String {
        var template = Array("/tmp/ocellus-statefile-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    func write(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
    }

    @Test func roundTripsWithItsEndLine() {
        let directory = scratch()
        let file = StateFile(directory: directory, name: "f", lockName: "f.lock")
        #expect(file.read() == .missing)
        #expect((try? file.writeAtomically("ocellus-selection 1\nchoice a b c\n").get()) != nil)
        #expect(file.read() == .intact("ocellus-selection 1\nchoice a b c\n"))
    }

    @Test func everyCutOfAWrittenFileIsDamaged() {
        let text = StateFile.serialize(SelectionState.header + "\nfirst-run \(boot) 10\nchoice \(boot) 20 usb-1234:5678-SERIAL\n")
        let bytes = Array(text.utf8)
        for cut in 1..<bytes.count {
            // Cuts at a line boundary too: only the 0.1 header may lack the end line.
            let contents = StateFile.verify(Array(bytes[..<cut]), unsealedHeader: SelectionState.unsealedHeader)
            guard case .damaged = contents else {
                Issue.record("a file cut to \(cut) of \(bytes.count) bytes was read as \(contents)")
                continue
            }
        }
    }

    @Test func aCurrentFileCutAtALineBoundaryIsMovedAsideNotReadWithoutItsLastChoices() {
        let directory = scratch()
        let store = SelectionStore(directory: directory, appID: "org.test.linecut")
        var state = SelectionState(firstRun: 10)
        state.recordChoice("usb-1234:5678-OLDER1", at: 20)
        state.recordChoice("usb-1234:5678-NEWER1", at: 30)
        let lines = state.serialized(bootID: boot).split(separator: "\n")
        write(lines.dropLast().joined(separator: "\n") + "\n", to: store.path) // the oldest choice and the end line gone
        guard case .corrupt(let reason, _) = store.load(bootID: boot) else {
            Issue.record("a file cut at a line boundary was read")
            return
        }
        #expect(reason.contains("end line"))
    }

    @Test func damagedFilesSetAsideInOneSecondAllStay() {
        let directory = scratch()
        let file = StateFile(directory: directory, name: "f", lockName: "f.lock")
        var asides: Set<String> = []
        for round in 0..<3 {
            write("damaged \(round)\n", to: file.path)
            if let aside = file.moveAside() { asides.insert(aside) }
        }
        #expect(asides.count == 3 && asides.allSatisfy { access($0, F_OK) == 0 })
    }

    @Test func aFileCutMidLineIsReportedAndMovedAsideNotMisread() {
        let directory = scratch()
        let store = SelectionStore(directory: directory, appID: "org.test.cut")
        var state = SelectionState(firstRun: 10)
        state.recordChoice("usb-1234:5678-SERIAL", at: 20)
        let full = StateFile.serialize(state.serialized(bootID: boot))
        write(String(full.prefix(full.count - 30)), to: store.path) // ends inside the choice's unique ID
        guard case .corrupt(let reason, let aside) = store.load(bootID: boot) else {
            Issue.record("a cut selection file was read")
            return
        }
        #expect(reason.contains("cut short") || reason.contains("checksum"))
        #expect(aside != nil && access(aside!, F_OK) == 0)
    }

    @Test func anAlteredFileFailsItsChecksum() {
        let text = StateFile.serialize("ocellus-mounting 1\n90 usb-a\n").withNinesTurnedToTwos()
        guard case .damaged(let reason) = StateFile.verify(Array(text.utf8), unsealedHeader: MountingCorrections.unsealedHeader) else {
            Issue.record("an altered file was read")
            return
        }
        #expect(reason.contains("checksum"))
    }

    @Test func filesFromOcellus01WithoutAnEndLineAreRead() {
        let legacy = "ocellus-mounting 1\n90 usb-a\n"
        #expect(StateFile.verify(Array(legacy.utf8), unsealedHeader: MountingCorrections.unsealedHeader) == .intact(legacy))
        #expect((try? MountingCorrections.parse(.intact(legacy)).get())?["usb-a"] == 90)
    }

    @Test func symbolicLinksAreNotFollowed() {
        let directory = scratch()
        let outside = scratch() + "/planted"
        let file = StateFile(directory: directory, name: "f", lockName: "f.lock")
        symlink(outside, directory + "/f.lock") // dangling: following it would create `outside`
        symlink(outside, directory + "/f")
        #expect(file.withLock { $0 } == false)
        #expect(access(outside, F_OK) != 0)
        guard case .damaged = file.read() else {
            Issue.record("a symbolic link was read through")
            return
        }
    }

    @Test func aDirectoryOthersCanWriteIsRefused() {
        let directory = scratch()
        chmod(directory, 0o777)
        let file = StateFile(directory: directory, name: "f", lockName: "f.lock")
        #expect(throws: OcellusError.self) { try file.prepareDirectory() }
        guard case .failure(let error) = file.writeAtomically("x\n") else {
            Issue.record("wrote into a directory others can write")
            return
        }
        #expect(error.message.contains("written by others"))
        guard case .damaged = file.read() else {
            Issue.record("read from a directory others can write")
            return
        }
    }

    @Test func aCorruptMountingFileIsReportedAndKeptUntilRewritten() throws {
        let directory = scratch()
        let corrections = MountingCorrections(directory: directory)
        write("ocellus-mounting 1\nninety usb-a\n", to: directory + "/camera-mounting")
        #expect(corrections.correction(for: "usb-a") == 0)
        #expect(corrections.problem?.contains("line 2") == true)
        try corrections.setCorrection(180, for: "usb-b")
        #expect(corrections.problem == nil && corrections.correction(for: "usb-b") == 180)
    }
}

private extension String {
    /// The same file with one digit changed, as a stray edit or a torn sector would.
    func withNinesTurnedToTwos() -> String {
        String(self.map { $0 == "9" ? "2" : $0 })
    }
}
