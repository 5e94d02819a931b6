/// Kernel device numbers (`dev_t`, in glibc's encoding): what names a camera's node whichever
/// backend reaches it — udev's devnum (PipeWire's V4L2 monitor: `device.devids`), libcamera's
/// `SystemDevices`, sysfs's `dev` — when names, IDs and paths differ between them.
public enum DeviceNumbers {
    /// glibc's `makedev`.
    public static func make(major: UInt64, minor: UInt64) -> UInt64 {
        (major & 0x0000_0fff) << 8 | (major & 0xffff_f000) << 32 | (minor & 0x0000_00ff) | (minor & 0xffff_ff00) << 12
    }

    /// "81:3", as sysfs's `dev` attribute gives it.
    public static func parse(majorMinor text: String) -> UInt64? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let major = UInt64(String(parts[0]).trimmingSpaces), let minor = UInt64(String(parts[1]).trimmingSpaces),
            major <= 0xffff_ffff, minor <= 0xffff_ffff
        else { return nil }
        return make(major: major, minor: minor)
    }

    /// Every number of a property that lists device numbers in decimal ("20736", "20736 20737",
    /// "[ 20736, 20737 ]"); nothing from one that holds anything else.
    public static func parse(list text: String) -> [UInt64] {
        let separators: Set<Character> = [" ", ",", "[", "]", "\t", "\n"]
        let words = text.split(whereSeparator: separators.contains)
        let numbers = words.compactMap { UInt64($0) }
        return numbers.count == words.count ? numbers : []
    }
}
