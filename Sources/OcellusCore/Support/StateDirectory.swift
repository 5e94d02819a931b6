#if canImport(Glibc)
import Glibc
#endif

/// Where per-app state (preferences, mounting corrections) lives, behaviour §2:
/// the context option, else `$OCELLUS_STATE_DIR`, else `$XDG_STATE_HOME/ocellus`,
/// else `~/.local/state/ocellus` (the home from `HOME`, or from the password database when
/// `HOME` is unset, as in services and `env -i`). Resolved once per context; created on first write.
/// A variable that is not UTF-8 is an error, not another directory.
public enum StateDirectory {
    public static func resolve(
        explicit: String?, environment: (String) throws(OcellusError) -> String?,
        accountHome: () -> String? = StateDirectory.accountHome
    ) throws(OcellusError) -> String {
        if let explicit {
            guard !explicit.isEmpty else { throw OcellusError(.invalidArgument, "state directory is empty") }
            return explicit
        }
        if let override = try environment("OCELLUS_STATE_DIR"), !override.isEmpty { return override }
        // XDG: a relative XDG_STATE_HOME is invalid and must be ignored.
        if let xdg = try environment("XDG_STATE_HOME"), xdg.hasPrefix("/") { return xdg + "/ocellus" }
        guard let home = try environment("HOME").flatMap({ $0.isEmpty ? nil : $0 }) ?? accountHome() else {
            throw OcellusError(
                .invalidArgument,
                "cannot place the state directory: none given, neither OCELLUS_STATE_DIR, XDG_STATE_HOME nor HOME is set, and the user has no home directory")
        }
        return home + "/.local/state/ocellus"
    }

    /// The effective user's home directory from the password database, if it names an absolute one.
    public static func accountHome() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let directory = entry.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.hasPrefix("/") ? home : nil
    }
}
