/// The library version; include/ocellus.h carries the same numbers (a test checks they agree).
public enum OcellusVersion {
    public static let major = 0
    public static let minor = 3
    public static let patch = 0
    public static var string: String { "\(major).\(minor).\(patch)" }
}
