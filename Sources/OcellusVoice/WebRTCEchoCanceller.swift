import OcellusCapture
import OcellusCore
import OcellusPlugins

#if canImport(Glibc)
import Glibc
#endif

/// Echo cancellation by webrtc-audio-processing (BSD; Debian's libwebrtc-audio-processing1, the
/// engine of PipeWire's echo-cancel), which is C++: Ocellus's plugin `libocellus-echo-webrtc.so`
/// (plugins/echo-webrtc) wraps it in C and is loaded on first use, so the library itself never
/// links it. Looked for in `OCELLUS_ECHO_CANCELLER_LIB`, else `ocellus/` beside the library
/// holding this code (LIBDIR/ocellus/ once installed), else the loader's path.
final class WebRTCEchoCanceller: EchoCanceller {
    struct Library: @unchecked Sendable {
        typealias Latency = @convention(c) () -> Int32
        typealias New = @convention(c) () -> OpaquePointer?
        typealias Free = @convention(c) (OpaquePointer?) -> Void
        typealias Play = @convention(c) (OpaquePointer?, UnsafePointer<Float>?) -> Void
        typealias Capture = @convention(c) (OpaquePointer?, UnsafePointer<Float>?, UnsafeMutablePointer<Float>?) -> Void
        let latency: Int
        let new: New
        let free: Free
        let play: Play
        let capture: Capture

        /// plugins/echo-webrtc/ocellus_echo.h's OCELLUS_ECHO_INTERFACE_VERSION.
        static let interfaceVersion: Int32 = 1

        static func load(environment: LoadedLibrary.Environment = LoadedLibrary.processEnvironment) throws(OcellusError) -> Library {
            try LoadedLibrary.plugin(
                "libocellus-echo-webrtc.so", what: "echo canceller plugin", environmentVariable: "OCELLUS_ECHO_CANCELLER_LIB",
                versionSymbol: "ocellus_echo_interface_version", version: interfaceVersion,
                needs: "echo cancellation needs Ocellus's plugin libocellus-echo-webrtc.so and webrtc-audio-processing",
                install: "install libwebrtc-audio-processing1", environment: environment
            ) { loaded in
                guard let latency = loaded.symbol("ocellus_echo_latency", as: Latency.self),
                    let new = loaded.symbol("ocellus_echo_new", as: New.self), let free = loaded.symbol("ocellus_echo_free", as: Free.self),
                    let play = loaded.symbol("ocellus_echo_play", as: Play.self),
                    let capture = loaded.symbol("ocellus_echo_capture", as: Capture.self)
                else { return nil }
                return Library(latency: Int(latency()), new: new, free: free, play: play, capture: capture)
            }
        }
    }

    let name = "webrtc"
    var latency: Int { library.latency }
    private let library: Library
    private let state: OpaquePointer

    init(library: Library) throws(OcellusError) {
        guard let state = library.new() else { throw OcellusError(.noResources, "webrtc-audio-processing refused to make an echo canceller") }
        (self.library, self.state) = (library, state)
    }

    deinit { library.free(state) }

    func play(_ frame: UnsafePointer<Float>) { library.play(state, frame) }

    func capture(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) { library.capture(state, input, output) }
}
