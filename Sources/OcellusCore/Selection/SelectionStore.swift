#if canImport(Glibc)
import Glibc
#endif

/// The per-app selection file: `<state dir>/<app id>.selection`, kept with
/// `StateFile`'s guarantees (0600, atomic replacement, a lock shared by the app's
/// processes). Every update re-reads the file under the lock, so concurrent
/// processes merge instead of overwriting each other.
public final class SelectionStore: @unchecked Sendable {
    public var directory: String { file.directory }
    public var path: String { file.path }
    private let file: StateFile

    public enum LoadResult {
        case missing
        case loaded(SelectionState)
        /// The file was unreadable as a selection file; it was moved to `movedTo` (kept).
        case corrupt(reason: String, movedTo: String?)
    }

    public init(directory: String, appID: String) {
        file = StateFile(
            directory: directory, name: appID + ".selection", lockName: appID + ".lock",
            unsealedHeader: SelectionState.unsealedHeader)
    }

    public func prepareDirectory() throws(OcellusError) { try file.prepareDirectory() }

    /// Reads the file; a corrupt one is moved aside so that nothing readable is ever overwritten.
    public func load(bootID: String) -> LoadResult {
        file.withLock { locked in
            let reason: String
            switch file.read() {
            case .missing: return .missing
            case .damaged(let why): reason = why
            case .intact(let text):
                do { return .loaded(try SelectionState.parse(text, currentBootID: bootID)) } catch { reason = "\(error)" }
            }
            return .corrupt(reason: reason, movedTo: locked ? file.moveAside() : nil)
        }
    }

    /// Re-reads the file under the lock, applies `change`, writes the result
    /// atomically, and returns it. A corrupt file met here is moved aside first.
    public func update(
        bootID: String, fallback: SelectionState,
        _ change: (inout SelectionState) -> Void
    ) throws(OcellusError) -> SelectionState {
        try prepareDirectory()
        let outcome: Result<SelectionState, OcellusError> = file.withLock { locked in
            guard locked else {
                return .failure(OcellusError(.other, "cannot lock \(file.lockPath): \(String(cString: strerror(errno)))"))
            }
            var state = fallback
            var stored: String?
            switch file.read() {
            case .missing: break
            case .intact(let text):
                if let parsed = try? SelectionState.parse(text, currentBootID: bootID) {
                    state = parsed
                    stored = text
                } else {
                    _ = file.moveAside()
                }
            case .damaged: _ = file.moveAside()
            }
            change(&state)
            // Every session start comes here: a file that would not change is not rewritten (nor synced).
            let text = state.serialized(bootID: bootID)
            if text == stored { return .success(state) }
            return file.writeAtomically(text).map { state }
        }
        return try outcome.get()
    }
}
