#if canImport(Glibc)
import Glibc
#endif

/// One app's live camera selection (behaviour §2): keeps the persisted state in step
/// with the file (other processes of the same app write it too), knows when each
/// connected camera was plugged in, and reports every change of the user and
/// system preferred cameras through `notify`.
final class CameraSelection: @unchecked Sendable {
    private let lock = ConditionLock()
    private let store: SelectionStore
    private let bootID: String
    private let notify: (HubEvent) -> Void
    private var state: SelectionState
    private var cameras: [ObjectIdentifier: CameraSelector.Candidate] = [:]
    private var userPreferred: Device?
    private var systemPreferred: Device?
    private var problem: String?
    private var unsaved: String?
    private let watcher: FileWatcher?
    private var watch: FileWatcher.Watch?

    /// Loads the state (a first run records every present camera as known) and starts watching the file.
    /// `watcher`: the context's file watcher (nil: changes by other processes go unnoticed).
    init(appID: String, directory: String, cameras present: [Device], watcher: FileWatcher?, notify: @escaping (HubEvent) -> Void) {
        self.watcher = watcher
        store = SelectionStore(directory: directory, appID: appID)
        bootID = currentBootID()
        self.notify = notify
        let now = monotonicMicroseconds()
        var firstRun = false
        switch store.load(bootID: bootID) {
        case .loaded(let stored):
            state = stored
        case .missing:
            state = SelectionState(firstRun: now)
            firstRun = true
        case .corrupt(let reason, let movedTo):
            // Like a first run: an empty history, the present cameras recorded, a fresh file written.
            state = SelectionState(firstRun: now)
            firstRun = true
            problem =
                "the selection file \(store.path) was corrupt (\(reason)); "
                + (movedTo.map { "it was moved to \($0) and " } ?? "")
                + "selection starts with an empty history"
        }
        let known = state.firstSeen.count
        for device in present where device.type.isCamera {
            cameras[ObjectIdentifier(device)] = candidate(for: device, firstSightAt: firstRun ? state.firstRun : now)
        }
        // Write only what is new: the first run, or cameras seen for the first time.
        if firstRun || state.firstSeen.count != known { persist() }
        (userPreferred, systemPreferred) = compute()
        let started = watcher?.watch(
            directory: directory, fileName: store.path.split(separator: "/").last.map(String.init) ?? "",
            for: [.appeared, .removed, .rewritten]
        ) {
            [weak self] in self?.reload()
        }
        lock.withLock { watch = started }
    }

    func stop() {
        if let watch = lock.withLock({ () -> FileWatcher.Watch? in
            defer { watch = nil }; return watch
        }) {
            watcher?.remove(watch)
        }
    }

    var preferred: (user: Device?, system: Device?) { lock.withLock { (userPreferred, systemPreferred) } }

    /// What went wrong reading the state, and why the last write failed (nil once a write succeeds).
    var stateProblem: String? {
        lock.withLock {
            let parts = [problem, unsaved].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        }
    }

    /// Whether the last change could not be written (it applies in memory only).
    var isUnsaved: Bool { lock.withLock { unsaved != nil } }

    func deviceAdded(_ device: Device) {
        guard device.type.isCamera else { return }
        lock.withLock {
            let known = state.firstSeen.count
            cameras[ObjectIdentifier(device)] = candidate(for: device, firstSightAt: monotonicMicroseconds())
            if state.firstSeen.count != known { persist() }
            publishChanges()
        }
    }

    func deviceRemoved(_ device: Device) {
        guard device.type.isCamera else { return }
        lock.withLock {
            cameras.removeValue(forKey: ObjectIdentifier(device))
            publishChanges()
        }
    }

    func choose(_ device: Device) {
        lock.withLock {
            state.recordChoice(device.uniqueID, at: monotonicMicroseconds())
            persist { $0.recordChoice(device.uniqueID, at: monotonicMicroseconds()) }
            publishChanges()
        }
    }

    /// Records that a capture session started running with `device` (the fallback after the history).
    func noteStreaming(_ device: Device) {
        lock.withLock {
            state.recordStreaming(device.uniqueID, at: monotonicMicroseconds())
            persist { $0.recordStreaming(device.uniqueID, at: monotonicMicroseconds()) }
            publishChanges()
        }
    }

    // MARK: Internals (lock held)

    /// The system's plug time, else this app's first sight (recorded in the state).
    private func candidate(for device: Device, firstSightAt time: UInt64) -> CameraSelector.Candidate {
        if let plugged = device.pluggedMicroseconds { return .init(device: device, pluggedAt: plugged) }
        if let seen = state.firstSight(of: device.uniqueID) { return .init(device: device, pluggedAt: seen) }
        state.recordFirstSight(device.uniqueID, at: time)
        return .init(device: device, pluggedAt: time)
    }

    /// Writes the state: merged with the file under its lock by replaying `change`
    /// (default: adopt our first sights). On failure selection goes on in memory.
    private func persist(_ change: ((inout SelectionState) -> Void)? = nil) {
        let mine = state
        do {
            state = try store.update(bootID: bootID, fallback: mine) { stored in
                if let change { change(&stored) }
                for entry in mine.firstSeen.reversed() { stored.recordFirstSight(entry.uniqueID, at: entry.microseconds) }
            }
            unsaved = nil
        } catch {
            unsaved = "\(error.message); camera choices are kept in memory only"
        }
    }

    private func compute() -> (Device?, Device?) {
        let candidates = Array(cameras.values)
        return (
            CameraSelector.userPreferred(state: state, cameras: candidates),
            CameraSelector.systemPreferred(state: state, cameras: candidates)
        )
    }

    private func publishChanges() {
        let (user, system) = compute()
        if user !== userPreferred {
            userPreferred = user
            notify(.userPreferredChanged(user))
        }
        if system !== systemPreferred {
            systemPreferred = system
            notify(.systemPreferredChanged(system))
        }
    }

    /// Another process (or we) replaced the file.
    private func reload() {
        lock.withLock {
            switch store.load(bootID: bootID) {
            case .loaded(let stored):
                state = stored
            case .missing:
                return
            case .corrupt(let reason, let movedTo):
                state = SelectionState(firstRun: state.firstRun)
                problem =
                    "the selection file \(store.path) was corrupt (\(reason))"
                    + (movedTo.map { "; it was moved to \($0)" } ?? "")
            }
            publishChanges()
        }
    }
}
