import CVisionPlugins
import OcellusCore
import OcellusPlugins

#if canImport(Glibc)
import Glibc
#endif

/// Faces found by OpenCV's objdetect, through Ocellus's plugin `libocellus-faces-opencv.so`
/// (plugins/faces-opencv), loaded on first use so that the library never links OpenCV. The model
/// is the one the app names, else the system's (`OCELLUS_FACE_MODEL`), else the frontal-face Haar
/// cascade (alt2) of Debian's opencv-data: the LBP one, cheaper, missed faces the size a webcam
/// frames them (docs/benchmarks.md). One detector is used by one thread at a time.
final class FaceDetector {
    struct Library: @unchecked Sendable {
        typealias New = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int) -> OpaquePointer?
        typealias Free = @convention(c) (OpaquePointer?) -> Void
        typealias Detect =
            @convention(c) (
                OpaquePointer?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32,
                UnsafeMutablePointer<ocellus_face>?, Int32
            ) -> Int32
        let new: New
        let free: Free
        let detect: Detect

        /// plugins/faces-opencv/ocellus_faces.h's OCELLUS_FACES_INTERFACE_VERSION.
        static let interfaceVersion: Int32 = 1

        static func load() throws(OcellusError) -> Library {
            try LoadedLibrary.plugin(
                "libocellus-faces-opencv.so", what: "face detector plugin", environmentVariable: "OCELLUS_FACES_LIB",
                versionSymbol: "ocellus_faces_interface_version", version: interfaceVersion,
                needs: "faces need Ocellus's plugin libocellus-faces-opencv.so and OpenCV's objdetect",
                install: "Debian: install libocellus0-metadata"
            ) { loaded in
                guard let new = loaded.symbol("ocellus_faces_new", as: New.self), let free = loaded.symbol("ocellus_faces_free", as: Free.self),
                    let detect = loaded.symbol("ocellus_faces_detect", as: Detect.self)
                else { return nil }
                return Library(new: new, free: free, detect: detect)
            }
        }
    }

    /// Where the default model is looked for: opencv-data's Haar frontal-face cascade (Debian,
    /// Ubuntu; Fedora's opencv-data).
    static let defaultModels = [
        "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml",
        "/usr/share/opencv/haarcascades/haarcascade_frontalface_alt2.xml"
    ]

    /// The model used when the app names none.
    static func defaultModel() throws(OcellusError) -> String {
        if let named = try environmentVariable("OCELLUS_FACE_MODEL"), !named.isEmpty { return named }
        guard let found = defaultModels.first(where: { access($0, R_OK) == 0 }) else {
            throw OcellusError(
                .libraryUnavailable,
                "faces need a model: install opencv-data (\(defaultModels[0])), "
                    + "or name a cascade (.xml) or YuNet model (.onnx)")
        }
        return found
    }

    static let capacity = 16
    private let library: Library
    private let state: OpaquePointer
    let model: String
    /// The plugin's answers, reused from call to call.
    private var found = [ocellus_face](repeating: ocellus_face(), count: FaceDetector.capacity)

    init(model: String?) throws(OcellusError) {
        let library = try Library.load()
        let model = if let model { model } else { try Self.defaultModel() }
        var error = [CChar](repeating: 0, count: 512)
        guard let state = library.new(model, &error, error.count) else {
            throw OcellusError(.invalidArgument, "face model: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        (self.library, self.state, self.model) = (library, state, model)
    }

    deinit { library.free(state) }

    /// The faces in a grey picture, largest first, in its pixels; nil when OpenCV failed.
    func detect(_ grey: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, minimumSize: Int) -> ArraySlice<ocellus_face>? {
        let count = found.withUnsafeMutableBufferPointer { found in
            library.detect(state, grey, Int32(width), Int32(height), Int32(stride), Int32(minimumSize), found.baseAddress, Int32(found.count))
        }
        return count < 0 ? nil : found[..<Int(count)]
    }
}
