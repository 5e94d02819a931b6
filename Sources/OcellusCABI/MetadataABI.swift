// Metadata outputs in the C ABI (behaviour §4): faces and codes.
import COcellus
import OcellusCore
import OcellusVision

final class MetadataBox: SessionMember {
    /// Set by `oc_metadata_output_create` before the handle is published.
    var output: MetadataOutput!
    weak var session: SessionBox?
    var handle: OpaquePointer!

    static let what = "metadata output"
}

@c @implementation public func oc_metadata_output_create(
    _ objectTypes: UInt32, _ faceModel: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> oc_status {
    guard let out else { return LastError.fail(.invalidArgument, "oc_metadata_output_create: out is NULL") }
    do throws(OcellusError) {
        let model = try faceModel.map { (model) throws(OcellusError) in try stringArgument(model, "oc_metadata_output_create: face_model") }
        let box = MetadataBox()
        box.output = try MetadataOutput(objectTypes: MetadataObjectTypes(rawValue: objectTypes), faceModel: model)
        box.handle = HandleTable.register(box)
        out.pointee = box.handle
        return oc_status(OC_OK)
    } catch {
        return LastError.fail(error.code, "oc_metadata_output_create: \(error.message)")
    }
}

@c @implementation public func oc_metadata_output_destroy(_ output: OpaquePointer?) {
    guard let box = MetadataBox.lookup(output),
        leaveSessionToDestroy(
            box, function: "oc_metadata_output_destroy", inOwnCallback: box.output.isDeliveringThread,
            { (_, box) throws(OcellusError) in try box.output.detach() })
    else { return }
    box.output.close()
    HandleTable.unregister(box.handle)
}

@c @implementation public func oc_capture_session_add_metadata_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    addMember(MetadataBox.lookup(output), to: session, what: "metadata output") { (session, box) throws(OcellusError) in
        try box.output.attach(to: session)
    }
}

@c @implementation public func oc_capture_session_remove_metadata_output(_ session: OpaquePointer?, _ output: OpaquePointer?) -> oc_status {
    removeMember(MetadataBox.lookup(output), from: session, what: "metadata output") { (_, box) throws(OcellusError) in try box.output.detach() }
}

@c @implementation public func oc_metadata_output_set_callback(
    _ output: OpaquePointer?, _ callback: oc_metadata_callback?,
    _ userData: UnsafeMutableRawPointer?
) -> oc_status {
    abiCall(MetadataBox.lookup(output)) { (box: MetadataBox) throws(OcellusError) in
        guard let callback else {
            box.output.handler = nil
            return
        }
        let (handle, userDataBits) = (box.handle, UInt(bitPattern: userData))
        // The views handed to C, reused from delivery to delivery (no allocation once grown).
        var views: [oc_metadata_object] = []
        box.output.handler = { delivery in
            views.removeAll(keepingCapacity: true)
            withMetadataViews(delivery.objects, into: &views) { objects in
                callback(handle, delivery.timestampNanoseconds, objects.baseAddress, objects.count, UnsafeMutableRawPointer(bitPattern: userDataBits))
            }
        }
    }
}

/// Calls `body` with C views of `objects`, whose strings and bytes live for the call.
private func withMetadataViews(
    _ objects: [MetadataObject], into views: inout [oc_metadata_object],
    _ body: (UnsafeBufferPointer<oc_metadata_object>) -> Void
) {
    func add(_ index: Int) {
        guard index < objects.count else {
            views.withUnsafeBufferPointer(body)
            return
        }
        let object = objects[index]
        let bounds = object.bounds
        switch object.kind {
        case .face(let id):
            views.append(
                oc_metadata_object(
                    type: UInt32(OC_METADATA_OBJECT_FACE.rawValue), x: bounds.x, y: bounds.y, width: bounds.width,
                    height: bounds.height, confidence: object.confidence, face_id: id,
                    symbology: nil, text: nil, bytes: nil, byte_count: 0))
            add(index + 1)
        case .code(let symbology, let text, let bytes):
            symbology.name.withCString { name in
                text.withCString { text in
                    bytes.withUnsafeBufferPointer { bytes in
                        views.append(
                            oc_metadata_object(
                                type: UInt32(OC_METADATA_OBJECT_CODE.rawValue), x: bounds.x, y: bounds.y,
                                width: bounds.width, height: bounds.height, confidence: object.confidence,
                                face_id: 0, symbology: name, text: text, bytes: bytes.baseAddress,
                                byte_count: bytes.count))
                        add(index + 1)
                    }
                }
            }
        }
    }
    add(0)
}

@c @implementation public func oc_metadata_output_set_rotation_angle(_ output: OpaquePointer?, _ degrees: Int32) -> oc_status {
    abiCall(MetadataBox.lookup(output)) { (box: MetadataBox) throws(OcellusError) in try box.output.setVideoRotationAngle(Int(degrees)) }
}

@c @implementation public func oc_metadata_output_set_mirrored(_ output: OpaquePointer?, _ mirrored: Bool) -> oc_status {
    abiCall(MetadataBox.lookup(output)) { (box: MetadataBox) throws(OcellusError) in box.output.isVideoMirrored = mirrored }
}

@c @implementation public func oc_metadata_output_set_max_rate(_ output: OpaquePointer?, _ perSecond: Double) -> oc_status {
    abiCall(MetadataBox.lookup(output)) { (box: MetadataBox) throws(OcellusError) in try box.output.setMaximumAnalysisRate(perSecond) }
}

@c @implementation public func oc_metadata_output_get_statistics(
    _ output: OpaquePointer?,
    _ out: UnsafeMutablePointer<oc_metadata_statistics>?
) -> oc_status {
    abiCall(MetadataBox.lookup(output)) { (box: MetadataBox) throws(OcellusError) in
        let out = try oc_metadata_statistics.checked(out, "out", in: "oc_metadata_output_get_statistics")
        let counts = box.output.statistics
        oc_metadata_statistics.fill(
            out,
            with: oc_metadata_statistics(
                struct_size: 0, deliveries: counts.deliveries, objects: counts.objects, analysed_frames: counts.analysedFrames,
                dropped_frames: counts.droppedFrames, corrupt_frames: counts.corruptFrames))
    }
}
