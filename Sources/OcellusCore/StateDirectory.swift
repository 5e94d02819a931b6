/// Where per-app state (preferences, mounting corrections) lives, behaviour §2:
/// the context option, else `$OCELLUS_STATE_DIR`, else `$XDG_STATE_HOME/ocellus`,
/// else `~/.local/state/ocellus`. Resolved once per context; created on first write.
public enum StateDirectory {
    public static func resolve(explicit: String?, environment: (String) -> String?) throws(OcellusError) -> String {
        if let explicit {
            guard !explicit.isEmpty else { throw OcellusError(.invalidArgument, "state directory is empty") }
            return explicit
        }
        if let override = environment("OCELLUS_STATE_DIR"), !override.isEmpty { return override }
        // XDG: a relative XDG_STATE_HOME is invalid and must be ignored.
        if let xdg = environment("XDG_STATE_HOME"), xdg.hasPrefix("/") { return xdg + "/ocellus" }
        guard let home = environment("HOME"), !home.isEmpty else {
            throw OcellusError(.invalidArgument,
                "cannot place the state directory: none given and neither OCELLUS_STATE_DIR, XDG_STATE_HOME nor HOME is set")
        }
        return home + "/.local/state/ocellus"
    }
}
