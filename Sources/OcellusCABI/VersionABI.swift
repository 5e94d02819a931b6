// The header's "Version" section. Each file of this target implements one section of
// include/ocellus.h (docs/contributing.md); `@c @implementation` makes the compiler check
// every signature against the header.
import COcellus
import OcellusCore
import OcellusSystem

#if canImport(Glibc)
import Glibc
#endif

private let versionString = CString(OcellusVersion.string)

@c @implementation public func oc_version() -> UnsafePointer<CChar>? {
    UnsafePointer(versionString.pointer)
}
