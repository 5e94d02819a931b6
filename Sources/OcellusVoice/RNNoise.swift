import OcellusCapture
import OcellusCore
import OcellusPlugins

#if canImport(Glibc)
import Glibc
#endif

/// RNNoise (BSD; Xiph), the engine of voice isolation: a small recurrent network that removes
/// what is not speech — typing and clicks as well as steady noise — from 10 ms frames of 48 kHz
/// mono. Debian does not package it, so it is loaded by `dlopen` on first use: from
/// `OCELLUS_RNNOISE_LIB` when set, else the system's `librnnoise.so.0` or `librnnoise.so`.
final class RNNoise: VoiceEngine {
    /// The library's entry points, resolved once.
    struct Library: @unchecked Sendable {
        typealias Create = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
        typealias Destroy = @convention(c) (UnsafeMutableRawPointer?) -> Void
        typealias Process = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<Float>?, UnsafePointer<Float>?) -> Float
        typealias FrameSize = @convention(c) () -> Int32
        let create: Create
        let destroy: Destroy
        let process: Process

        /// Where the library is looked for, in order.
        static func candidates(_ environment: LoadedLibrary.Environment) -> [String] {
            if let path = environment("OCELLUS_RNNOISE_LIB"), !path.isEmpty { return [path] }
            return ["librnnoise.so.0", "librnnoise.so"]
        }

        static func load(environment: LoadedLibrary.Environment = LoadedLibrary.processEnvironment) throws(OcellusError) -> Library {
            let (library, failures) = LoadedLibrary.first(of: candidates(environment)) { (loaded) throws(LoadedLibrary.Refusal) in
                guard let create = loaded.symbol("rnnoise_create", as: Create.self),
                    let destroy = loaded.symbol("rnnoise_destroy", as: Destroy.self),
                    let process = loaded.symbol("rnnoise_process_frame", as: Process.self),
                    let frameSize = loaded.symbol("rnnoise_get_frame_size", as: FrameSize.self)
                else {
                    throw LoadedLibrary.Refusal("\(loaded.path) is not RNNoise (rnnoise_create or rnnoise_process_frame missing)")
                }
                guard Int(frameSize()) == VoiceFrame.length else {
                    throw LoadedLibrary.Refusal("\(loaded.path) takes frames of \(frameSize()) samples, not \(VoiceFrame.length)")
                }
                return Library(create: create, destroy: destroy, process: process)
            }
            if let library { return library }
            throw OcellusError(
                .libraryUnavailable,
                "voice isolation needs RNNoise (install librnnoise.so.0, or set OCELLUS_RNNOISE_LIB "
                    + "to its path): \(failures.joined(separator: "; "))")
        }
    }

    let name = "rnnoise"
    /// Measured: the output lags the input by two frames (its analysis window and overlap).
    let latency = 2 * VoiceFrame.length
    private let library: Library
    private let state: UnsafeMutableRawPointer
    // RNNoise works on 16-bit sample values: scaled copies, allocated once.
    private let scaledInput = UnsafeMutablePointer<Float>.allocate(capacity: VoiceFrame.length)
    private let scaledOutput = UnsafeMutablePointer<Float>.allocate(capacity: VoiceFrame.length)

    init(library: Library) throws(OcellusError) {
        guard let state = library.create(nil) else { throw OcellusError(.noResources, "rnnoise_create failed") }
        (self.library, self.state) = (library, state)
    }

    deinit {
        library.destroy(state)
        scaledInput.deallocate()
        scaledOutput.deallocate()
    }

    func process(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        for i in 0..<VoiceFrame.length { scaledInput[i] = input[i] * 32768 }
        _ = library.process(state, scaledOutput, scaledInput)
        for i in 0..<VoiceFrame.length { output[i] = scaledOutput[i] / 32768 }
    }
}
