/// Finding a device the way people name one: what `ocellus` commands and
/// `oc_context_copy_device_matching` accept.
extension DeviceHub {
    /// The connected device with exactly this unique ID.
    public func device(uniqueID: String) -> Device? {
        devices().first { $0.uniqueID == uniqueID }
    }

    /// The device `spec` names, tried in this order: its unique ID; its index in
    /// `devices()` (the order `ocellus list` prints); a V4L2 node path (`/dev/video2`, any of
    /// the device's nodes); or a part of its name, in any case, that only one device has.
    public func device(matching spec: String) throws(OcellusError) -> Device {
        let all = devices()
        if let exact = all.first(where: { $0.uniqueID == spec }) { return exact }
        if let index = Int(spec), !spec.hasPrefix("+") {
            guard all.indices.contains(index) else {
                throw OcellusError(.notFound, "there is no device \(index): \(all.count) connected (see ocellus list)\(missingBackendsSaid)")
            }
            return all[index]
        }
        if spec.hasPrefix("/dev/") {
            let nodes = all.filter { $0.details.isNamed(byPath: spec) }
            guard let node = nodes.first else { throw OcellusError(.notFound, "no connected device has the node \(spec)\(missingBackendsSaid)") }
            return node
        }
        let wanted = spec.lowercased()
        let named = all.filter { $0.name.lowercased().contains(wanted) }
        switch named.count {
        case 1: return named[0]
        case 0:
            throw OcellusError(
                .notFound, "no connected device has the unique ID, index, node or name \(spec) (see ocellus list)\(missingBackendsSaid)")
        default:
            throw OcellusError(
                .invalidArgument, "\(spec) could mean \(named.map { "\($0.uniqueID) (\($0.name))" }.joined(separator: ", ")); give the unique ID")
        }
    }
}
