import Testing

@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

let boot = "6497519e-e543-416e-998c-a14728216940"
let otherBoot = "11111111-2222-3333-4444-555555555555"

func camera(_ id: String, _ type: DeviceType, _ position: DevicePosition = .unspecified, name: String? = nil) -> Device {
    Device(
        uniqueID: id, name: name ?? id, type: type, position: position, backend: .pipewire, backendKey: id,
        formats: [], vendorID: nil, productID: nil, serialNumber: nil, pluggedMicroseconds: nil, properties: [:])
}

@Suite struct SelectionStateTests {
    @Test func roundTripsThroughTheFile() throws {
        var state = SelectionState(firstRun: 10)
        state.recordChoice("usb-a", at: 20)
        state.recordChoice("pipewire-name with spaces", at: 30)
        state.recordStreaming("usb-b", at: 25)
        state.recordFirstSight("pipewire-x", at: 12)
        let text = state.serialized(bootID: boot)
        #expect(try SelectionState.parse(text, currentBootID: boot) == state)
    }

    @Test func historyIsMostRecentFirstUniqueAndBounded() {
        var state = SelectionState(firstRun: 0)
        for index in 0..<40 { state.recordChoice("cam\(index % 20)", at: UInt64(index)) }
        state.recordChoice("cam5", at: 100)
        #expect(state.choices.count == SelectionState.historyLimit)
        #expect(state.choices.first == .init("cam5", at: 100))
        #expect(Set(state.choices.map(\.uniqueID)).count == state.choices.count)
        #expect(state.referenceTime == 100)
    }

    @Test func timesFromAnotherBootAreBeforeThisBoot() throws {
        var state = SelectionState(firstRun: 500)
        state.recordChoice("usb-a", at: 900)
        let parsed = try SelectionState.parse(state.serialized(bootID: otherBoot), currentBootID: boot)
        #expect(parsed.firstRun == 0 && parsed.choices.first?.microseconds == 0)
    }

    @Test(arguments: [
        "", "ocellus-selection 3\nfirst-run \(boot) 1\n", "ocellus-selection 1\n", "ocellus-selection 2\n",
        "ocellus-selection 1\nfirst-run \(boot) x\n", "ocellus-selection 1\nfirst-run \(boot) 1\nchoice \(boot) 2\n",
        "ocellus-selection 1\nfirst-run \(boot) 1\nfavourite \(boot) 2 usb-a\n"
    ])
    func malformedFilesAreRejected(text: String) {
        #expect(throws: SelectionState.ParseError.self) { try SelectionState.parse(text, currentBootID: boot) }
    }
}

@Suite struct CameraSelectorTests {
    let front = camera("front", .builtInCamera, .front)
    let back = camera("back", .builtInCamera, .back)
    let usb1 = camera("usb1", .externalCamera)
    let usb2 = camera("usb2", .externalCamera)
    let virtual = camera("virtual", .virtualCamera)

    func candidates(_ plugged: [(Device, UInt64)]) -> [CameraSelector.Candidate] {
        plugged.map { CameraSelector.Candidate(device: $0.0, pluggedAt: $0.1) }
    }

    @Test func defaultOrderWithoutHistory() {
        let state = SelectionState(firstRun: 100)
        #expect(CameraSelector.userPreferred(state: state, cameras: candidates([(virtual, 1), (back, 1), (usb1, 1), (front, 1)])) === front)
        #expect(CameraSelector.userPreferred(state: state, cameras: candidates([(virtual, 1), (back, 1), (usb1, 1)])) === usb1)
        #expect(CameraSelector.userPreferred(state: state, cameras: candidates([(virtual, 1), (back, 1)])) === back)
        #expect(CameraSelector.userPreferred(state: state, cameras: candidates([(virtual, 1)])) === virtual)
        #expect(CameraSelector.userPreferred(state: state, cameras: []) == nil)
    }

    @Test func historyThenStreamingThenDefault() {
        var state = SelectionState(firstRun: 0)
        state.recordStreaming("back", at: 5)
        #expect(CameraSelector.userPreferred(state: state, cameras: candidates([(front, 1), (back, 1)])) === back)
        state.recordChoice("usb1", at: 10)
        state.recordChoice("usb2", at: 20)
        #expect(CameraSelector.userPreferred(state: state, cameras: candidates([(front, 1), (back, 1), (usb1, 1)])) === usb1)
        #expect(CameraSelector.userPreferred(state: state, cameras: candidates([(front, 1), (back, 1), (usb1, 1), (usb2, 1)])) === usb2)
    }

    @Test func externalCameraPluggedAfterTheChoiceWins() {
        var state = SelectionState(firstRun: 0)
        state.recordChoice("front", at: 50)
        #expect(CameraSelector.systemPreferred(state: state, cameras: candidates([(front, 1), (usb1, 40)])) === front)
        #expect(CameraSelector.systemPreferred(state: state, cameras: candidates([(front, 1), (usb1, 60), (usb2, 70)])) === usb2)
        // Only external cameras signal intent by being plugged.
        #expect(CameraSelector.systemPreferred(state: state, cameras: candidates([(front, 1), (virtual, 90), (back, 90)])) === front)
    }

    @Test func withoutAChoiceTheFirstRunIsTheReference() {
        let state = SelectionState(firstRun: 100)
        #expect(CameraSelector.systemPreferred(state: state, cameras: candidates([(front, 1), (usb1, 100)])) === front)
        #expect(CameraSelector.systemPreferred(state: state, cameras: candidates([(front, 1), (usb1, 101)])) === usb1)
    }

    @Test func disconnectedDevicesNeverCount() {
        var state = SelectionState(firstRun: 0)
        state.recordChoice("usb1", at: 10)
        let gone = camera("usb1", .externalCamera)
        gone.markDisconnected()
        #expect(CameraSelector.userPreferred(state: state, cameras: candidates([(gone, 99), (front, 1)])) === front)
        #expect(CameraSelector.systemPreferred(state: state, cameras: candidates([(gone, 99), (front, 1)])) === front)
    }
}

@Suite struct AutomaticSwitchingTests {
    @Test func switchesWhenThePreferredCameraChanges() {
        #expect(AutomaticSwitching.decide(currentInput: "a", systemPreferred: "b", isRecording: false) == .switchTo("b"))
        #expect(AutomaticSwitching.decide(currentInput: "a", systemPreferred: "a", isRecording: false) == .keep)
        #expect(AutomaticSwitching.decide(currentInput: "a", systemPreferred: nil, isRecording: false) == .keep)
    }

    @Test func neverSwitchesWhileRecording() {
        #expect(
            AutomaticSwitching.decide(currentInput: "a", systemPreferred: "b", isRecording: true)
                == .deferUntilRecordingEnds("b"))
    }
}

@Suite struct SelectionStoreTests {
    func scratchDirectory() -> String {
        var template = Array("/tmp/ocellus-store-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    @Test func updatesMergeWithWhatIsOnDisk() throws {
        let directory = scratchDirectory()
        let first = SelectionStore(directory: directory, appID: "org.test.app")
        let second = SelectionStore(directory: directory, appID: "org.test.app")
        _ = try first.update(bootID: boot, fallback: SelectionState(firstRun: 1)) { $0.recordChoice("a", at: 2) }
        let merged = try second.update(bootID: boot, fallback: SelectionState(firstRun: 9)) { $0.recordChoice("b", at: 3) }
        #expect(merged.choices.map(\.uniqueID) == ["b", "a"])
        #expect(merged.firstRun == 1)
        guard case .loaded(let loaded) = first.load(bootID: boot) else { Issue.record("not loaded"); return }
        #expect(loaded == merged)
    }

    @Test func corruptFileIsMovedAsideAndKept() throws {
        let directory = scratchDirectory()
        let store = SelectionStore(directory: directory, appID: "org.test.app")
        let fd = open(store.path, O_WRONLY | O_CREAT, 0o600)
        _ = write(fd, "junk", 4)
        close(fd)
        guard case .corrupt(_, let movedTo?) = store.load(bootID: boot) else { Issue.record("not reported"); return }
        #expect(readFile(movedTo) == "junk")
        guard case .missing = store.load(bootID: boot) else { Issue.record("corrupt file left in place"); return }
    }

    @Test func inotifyEventNamesAreDecoded() {
        // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; } twice.
        func record(_ name: String, length: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 16)
            bytes[12] = UInt8(length)
            var nameBytes = Array(name.utf8)
            nameBytes += [UInt8](repeating: 0, count: length - nameBytes.count)
            return bytes + nameBytes
        }
        let buffer = record("a.selection", length: 16) + record("b", length: 16)
        #expect(FileWatcher.names(in: buffer[...]) == ["a.selection", "b"])
    }
}
