// Photo outputs in the C ABI (behaviour §4).
import COcellus
import OcellusCore
import OcellusMedia

#if canImport(Glibc)
import Glibc
#endif

final class PhotoBox: SessionMember {
    let photo = PhotoOutput()
    weak var session: SessionBox?
    var handle: OpaquePointer!

    static let what = "photo output"
}

@c @implementation public func oc_photo_output_create(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> oc_status {
    PhotoBox.create(out, function: "oc_photo_output_create")
}

@c @implementation public func oc_photo_output_destroy(_ output: OpaquePointer?) {
    guard let box = PhotoBox.lookup(output) else { return }
    HandleTable.unregister(box.handle)
    box.photo.close()
}

@c @implementation public func oc_capture_session_add_photo_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    addMember(PhotoBox.lookup(output), to: session, what: "photo output") { (session, box) throws(OcellusError) in
        try box.photo.attach(to: session)
    }
}

@c @implementation public func oc_capture_session_remove_photo_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    removeMember(PhotoBox.lookup(output), from: session, what: "photo output") { (_, box) throws(OcellusError) in try box.photo.detach() }
}

@c @implementation public func oc_photo_output_set_rotation_angle(_ output: OpaquePointer?, _ degrees: Int32) -> oc_status {
    abiCall(PhotoBox.lookup(output)) { (box: PhotoBox) throws(OcellusError) in try box.photo.setVideoRotationAngle(Int(degrees)) }
}

@c @implementation public func oc_photo_output_set_mirrored(_ output: OpaquePointer?, _ mirrored: Bool) -> oc_status {
    abiCall(PhotoBox.lookup(output)) { (box: PhotoBox) throws(OcellusError) in box.photo.isVideoMirrored = mirrored }
}

@c @implementation public func oc_photo_output_set_size(_ output: OpaquePointer?, _ width: UInt32, _ height: UInt32) -> oc_status {
    abiCall(PhotoBox.lookup(output)) { (box: PhotoBox) throws(OcellusError) in try box.photo.videoOutput.pinSize(width, height) }
}

@c @implementation public func oc_photo_output_capture(
    _ output: OpaquePointer?, _ settings: UnsafePointer<oc_photo_settings>?,
    _ callback: oc_photo_callback?, _ userData: UnsafeMutableRawPointer?
) -> oc_status {
    abiCall(PhotoBox.lookup(output)) { (box: PhotoBox) throws(OcellusError) in
        guard let callback else { throw OcellusError(.invalidArgument, "oc_photo_output_capture: callback is NULL") }
        var chosen = PhotoSettings()
        var path: String?
        if settings != nil {
            let settings = try oc_photo_settings.checked(settings, "settings", in: "oc_photo_output_capture")
            chosen.appliesRotationToPixels = settings.pointee.apply_rotation_to_pixels
            if settings.pointee.quality != 0 { chosen.quality = settings.pointee.quality }
            if let given = settings.pointee.path { path = try stringArgument(given, "oc_photo_output_capture: settings.path") }
        }
        let (handle, userDataBits) = (box.handle, UInt(bitPattern: userData))
        try box.photo.capturePhoto(chosen) { result in
            let user = UnsafeMutableRawPointer(bitPattern: userDataBits)
            do throws(OcellusError) {
                let photo = try result.get()
                if let path { try photo.write(toFile: path) }
                photo.jpeg.withUnsafeBufferPointer { bytes in
                    (path ?? "").withCString { cPath in
                        var view = oc_photo(
                            data: bytes.baseAddress, size: bytes.count, width: photo.width, height: photo.height,
                            orientation: photo.orientation, sequence: photo.sequence,
                            timestamp_ns: photo.timestampNanoseconds, path: path == nil ? nil : cPath)
                        callback(handle, oc_status(OC_OK), &view, "", user)
                    }
                }
            } catch {
                error.message.withCString { callback(handle, error.code.rawValue, nil, $0, user) }
            }
        }
    }
}
