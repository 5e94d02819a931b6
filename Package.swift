// swift-tools-version:6.0
// Ocellus: camera capture for Linux. One target per layer; dependencies point
// toward OcellusCore, which has no system dependencies.
import PackageDescription

/// Flags that make a shipped binary self-contained: the Swift runtime is linked
/// statically, so nothing from the toolchain is needed at run time.
let staticSwiftRuntime: [LinkerSetting] = [.unsafeFlags(["-static-stdlib"])]

/// Targets on the per-frame path: Swift 5 mode, and in release builds no dynamic
/// exclusivity checks (a thread-local access set per property access, measured at
/// about 4% of a passthrough frame); debug builds and tests keep them.
let framePathSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v5),
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

/// The C shims in release builds: fortified as dpkg-buildflags' C is. Given to the C targets
/// only: `-Xcc -D_FORTIFY_SOURCE` would reach Swift's Glibc import as well, where glibc 2.40's
/// fortify wrappers for clang make `read` and `poll` ambiguous (Debian 13, Fedora 41).
let hardenedC: [CSetting] = [
    .define("_FORTIFY_SOURCE", to: "2", .when(configuration: .release)),
    .unsafeFlags(["-O2"], .when(configuration: .release))
]

let package = Package(
    name: "Ocellus",
    products: [
        // libocellus.so: the C ABI and nothing else (see Makefile for the SONAME link).
        .library(name: "ocellus", type: .dynamic, targets: ["OcellusCABI"]),
        // The test-pattern camera `ocellus virtual-camera` runs (installed in libexec/ocellus/).
        .executable(name: "ocellus-virtual-camera", targets: ["OcellusVirtualCameraTool"]),
        .executable(name: "ocellus-bench", targets: ["OcellusBench"]),
        // libFuzzer targets (`make fuzz` builds them with -sanitize=fuzzer,address -D FUZZING).
        .executable(name: "ocellus-fuzz", targets: ["OcellusFuzz"])
    ],
    targets: [
        // The public C header, imported so `@c @implementation` checks each Swift body against it.
        .systemLibrary(name: "COcellus", path: "include"),
        .systemLibrary(
            name: "CLibPipeWire", path: "Sources/CLibPipeWire", pkgConfig: "libpipewire-0.3",
            providers: [.apt(["libpipewire-0.3-dev"])]),
        .systemLibrary(name: "CLibYUV", path: "Sources/CLibYUV", providers: [.apt(["libyuv-dev"])]),
        // FFmpeg, loaded on first use (Sources/CLibAV/loader.c): only its headers at build time.
        .target(name: "CLibAV", cSettings: hardenedC),
        .systemLibrary(name: "CLibExif", path: "Sources/CLibExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CLibUSB", path: "Sources/CLibUSB", pkgConfig: "libusb-1.0", providers: [.apt(["libusb-1.0-0-dev"])]),

        // Devices (discovery, identity, selection, rotation, controls), the backend contract and the
        // streams backends deliver: pure Swift.
        .target(name: "OcellusCore", swiftSettings: framePathSettings),
        // Capture sessions and their outputs, over the devices and streams of the core; a backend
        // never sees them.
        .target(name: "OcellusCapture", dependencies: ["OcellusCore"], swiftSettings: framePathSettings),

        // USB identity of video devices from sysfs and their descriptors (libusb), shared by both backends.
        .target(name: "OcellusUSB", dependencies: ["OcellusCore", "CLibUSB"], swiftSettings: [.swiftLanguageMode(.v5)]),

        // Thin C shim for what Swift cannot import from PipeWire (macros, SPA pod parsing/building).
        .target(name: "CPipeWire", dependencies: ["CLibPipeWire"], cSettings: hardenedC),
        .target(
            name: "OcellusPipeWire", dependencies: ["OcellusCore", "OcellusUSB", "CPipeWire", "CLibPipeWire"],
            swiftSettings: framePathSettings),

        // Raw V4L2 backend: discovery, formats, kernel hotplug. CV4L2 shims the ioctl macros.
        .target(name: "CV4L2", cSettings: hardenedC),
        .target(
            name: "OcellusV4L2", dependencies: ["OcellusCore", "OcellusUSB", "CV4L2"],
            swiftSettings: framePathSettings),

        // Pixel conversion and scaling (libyuv) and JPEG decoding (libjpeg-turbo) for outputs.
        .target(
            name: "OcellusMedia", dependencies: ["OcellusCore", "OcellusCapture", "CLibYUV", "CTurboJPEG", "CLibExif", "CLibAV"],
            swiftSettings: framePathSettings),

        // Microphone modes' engines (RNNoise for voice isolation, Ocellus's webrtc-audio-processing
        // plugin for echo cancellation), loaded on first use; CLoadedObject finds the plugin's directory.
        .target(name: "CLoadedObject", cSettings: hardenedC),
        .target(name: "OcellusPlugins", dependencies: ["OcellusCore", "CLoadedObject"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "OcellusVoice", dependencies: ["OcellusCore", "OcellusCapture", "OcellusPlugins"], swiftSettings: [.swiftLanguageMode(.v5)]),

        // Metadata outputs (faces, codes): Ocellus's OpenCV and zxing-cpp plugins, loaded on first use.
        .systemLibrary(name: "CVisionPlugins", path: "Sources/CVisionPlugins"),
        .target(
            name: "OcellusVision", dependencies: ["OcellusCore", "OcellusCapture", "OcellusMedia", "OcellusPlugins", "CVisionPlugins"],
            swiftSettings: [.swiftLanguageMode(.v5)]),

        // The host's orientation from iio-sensor-proxy over D-Bus (sd-bus from libsystemd).
        .systemLibrary(name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(name: "CSDBus", dependencies: ["CSystemd"], cSettings: hardenedC),
        .target(name: "OcellusSensors", dependencies: ["OcellusCore", "CSDBus"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "OcellusPortal", dependencies: ["OcellusCore", "CSDBus"], swiftSettings: [.swiftLanguageMode(.v5)]),

        // The system's backends assembled into a hub: what the C ABI and the CLI open.
        .target(
            name: "OcellusSystem",
            dependencies: [
                "OcellusCore", "OcellusCapture", "OcellusUSB", "OcellusPipeWire", "OcellusV4L2", "OcellusMedia", "OcellusPortal", "OcellusVoice",
                "OcellusVision"
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]),

        // A PipeWire producer that behaves like a UVC camera: for test beds, demos and app developers.
        .target(
            name: "OcellusVirtualCamera", dependencies: ["OcellusCore", "CPipeWire", "CLibPipeWire", "CTurboJPEG", "CLibAV"],
            swiftSettings: [.swiftLanguageMode(.v5)]),

        // The frame a C ABI callback is delivering on this thread (Swift has no thread-locals).
        .target(name: "CThreadFrame", cSettings: hardenedC),

        // The C ABI: the only member of libocellus.so.
        .target(
            name: "OcellusCABI",
            dependencies: ["COcellus", "CThreadFrame", "OcellusCore", "OcellusCapture", "OcellusMedia", "OcellusSystem", "OcellusSensors", "OcellusVision"],
            exclude: ["exports.map", "startup.order"],
            swiftSettings: framePathSettings,
            linkerSettings: staticSwiftRuntime + [
                // RELR (pack-relative-relocs, glibc ≥ 2.36) packs the Swift metadata's relative
                // relocations: a smaller file and fewer pages written at load.
                .unsafeFlags([
                    "-use-ld=lld", "-Xlinker", "-soname=libocellus.so.0", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    "-Xlinker", "--version-script=Sources/OcellusCABI/exports.map",
                    // The code that runs from load to a listed context, laid out together
                    // (scripts/symbol-order.sh): the kernel maps code 64 KB around each page
                    // first run, so spread-out startup code made most of the library resident.
                    "-Xlinker", "--symbol-ordering-file=Sources/OcellusCABI/startup.order",
                    "-Xlinker", "--no-warn-symbol-ordering"
                ])
            ]),

        // The `ocellus` command itself is C, in cli/: a client of the public header and
        // libocellus.so.0 alone (a Swift client would carry a second copy of the Swift runtime).
        // lld, as the library: Debian 13's gold leaves out the RELRO segment `-z relro` asks for.
        .executableTarget(
            name: "OcellusVirtualCameraTool", dependencies: ["OcellusVirtualCamera"],
            swiftSettings: [.swiftLanguageMode(.v5)],
            linkerSettings: staticSwiftRuntime + [.unsafeFlags(["-use-ld=lld"])]),

        // Discovery and hotplug latency against a baseline client, on the real daemon (`make bench`).
        .executableTarget(
            name: "OcellusBench", dependencies: ["OcellusCore", "OcellusPipeWire", "CPipeWire", "CLibPipeWire"],
            swiftSettings: [.swiftLanguageMode(.v5)]),

        // lld: GNU gold fails on the sanitizer-instrumented objects.
        .executableTarget(
            name: "OcellusFuzz", dependencies: ["OcellusCore", "OcellusCapture", "OcellusMedia", "OcellusUSB", "OcellusV4L2", "CPipeWire", "CLibPipeWire"],
            swiftSettings: [.swiftLanguageMode(.v5)], linkerSettings: [.unsafeFlags(["-use-ld=lld"])]),

        .testTarget(
            name: "OcellusMediaTests", dependencies: ["OcellusCore", "OcellusMedia", "CTurboJPEG", "CLibExif"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // The Swift tests' one stand-in backend and its scripted streams.
        .target(
            name: "OcellusTestSupport", dependencies: ["OcellusCore"], path: "Tests/OcellusTestSupport",
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "OcellusVisionTests", dependencies: ["OcellusCore", "OcellusCapture", "OcellusVision", "OcellusTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "OcellusVoiceTests", dependencies: ["OcellusCore", "OcellusCapture", "OcellusVoice", "OcellusTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "OcellusCoreTests", dependencies: ["OcellusCore", "OcellusCapture", "OcellusTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "OcellusPipeWireTests", dependencies: ["OcellusCore", "OcellusCapture", "OcellusPipeWire", "OcellusSystem"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "OcellusV4L2Tests",
            dependencies: ["OcellusCore", "OcellusCapture", "OcellusV4L2", "OcellusUSB", "CV4L2", "OcellusVision", "OcellusTestSupport"],
            exclude: ["Profiles", "Dumps"], // read at run time from the source tree
            swiftSettings: [.swiftLanguageMode(.v5)])
    ]
)
