import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// A failed V4L2 call (`result` is -errno) in the words an app needs; `busyMeans`
/// says what EBUSY means for this call (streaming: in use; controls: locked).
func v4l2Error(_ result: Int32, _ action: String, busyMeans: String) -> OcellusError {
    let reason = String(cString: strerror(-result))
    switch -result {
    case EBUSY: return OcellusError(.busy, "cannot \(action): \(busyMeans)")
    case ENOSPC: return OcellusError(.noResources, "cannot \(action): not enough USB bandwidth for this format, size and rate")
    case ENODEV, ENOENT, ENXIO: return OcellusError(.disconnected, "cannot \(action): the device is gone (\(reason))")
    case EACCES, EPERM:
        return OcellusError(
            .permissionDenied,
            "cannot \(action): permission denied (\(reason)); add the user to the `video` group (then log in again), or use the camera through PipeWire")
    case EINVAL, ERANGE: return OcellusError(.invalidArgument, "cannot \(action): the driver refused it (\(reason))")
    default: return OcellusError(.other, "cannot \(action): \(reason)")
    }
}
