// `ocellus-virtual-camera` (run as `ocellus virtual-camera`): publishes a test-pattern camera, or
// with --microphone a microphone playing a tone, into PipeWire until interrupted, for test beds,
// demos and app developers' own tests.
import OcellusVirtualCamera

#if canImport(Glibc)
import Glibc
#endif

let usage = """
    usage: ocellus virtual-camera [--pipewire-remote PATH] [--name N] [--desc D] [--formats YUY2,NV12,MJPG,H264]
                                  [--sizes 640x480,1280x720] [--fps 30,15] [--prop key=value]...
                                  [--device-prop key=value]... [--frames N] [--mjpeg-file JPEG] [--short-frames]
           ocellus virtual-camera --microphone [--pipewire-remote PATH] [--name N] [--desc D] [--prop key=value]...
                                  [--volume 0-1] [--tone HZ]
    """

struct UsageError: Error { let message: String }

func emit(_ line: String) {
    fputs(line + "\n", stdout)
    fflush(stdout)
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    fputs("ocellus: \(message)\n", stderr)
    exit(status)
}

func parseSize(_ text: String) throws -> (width: UInt32, height: UInt32) {
    let parts = text.split(separator: "x")
    guard parts.count == 2, let width = UInt32(parts[0]), let height = UInt32(parts[1]), width > 0, height > 0 else {
        throw UsageError(message: "bad size '\(text)' (expected WIDTHxHEIGHT)")
    }
    return (width, height)
}

func parseRate(_ text: String) throws -> (numerator: UInt32, denominator: UInt32) {
    let parts = text.split(separator: "/")
    guard let first = parts.first, let numerator = UInt32(first), numerator > 0 else { throw UsageError(message: "bad frame rate '\(text)'") }
    let denominator = parts.count > 1 ? UInt32(parts[1]) ?? 0 : 1
    guard denominator > 0 else { throw UsageError(message: "bad frame rate '\(text)'") }
    return (numerator, denominator)
}

func parseProperties(_ pairs: [String]) throws -> [String: String] {
    var result: [String: String] = [:]
    for pair in pairs {
        guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
            throw UsageError(message: "bad property '\(pair)' (expected key=value)")
        }
        result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
    }
    return result
}

func microphoneConfiguration(_ arguments: inout Arguments) throws -> VirtualMicrophone.Configuration {
    var configuration = VirtualMicrophone.Configuration()
    configuration.remote = try arguments.value("--pipewire-remote")
    if let name = try arguments.value("--name") { configuration.name = name }
    configuration.description = try arguments.value("--desc")
    configuration.nodeProperties = try parseProperties(arguments.values("--prop"))
    if let text = try arguments.value("--volume") {
        guard let volume = Float(text), (0...1).contains(volume) else { throw UsageError(message: "bad volume '\(text)' (0 to 1)") }
        configuration.volume = volume
    }
    if let text = try arguments.value("--tone") {
        guard let frequency = Double(text), frequency > 0, frequency < Double(configuration.sampleRate) / 2 else {
            throw UsageError(message: "bad tone '\(text)' (hertz, under half the sample rate)")
        }
        configuration.frequency = frequency
    }
    try arguments.finish()
    return configuration
}

func configuration(_ arguments: inout Arguments) throws -> VirtualCamera.Configuration {
    var configuration = VirtualCamera.Configuration()
    configuration.remote = try arguments.value("--pipewire-remote")
    if let name = try arguments.value("--name") { configuration.name = name }
    configuration.description = try arguments.value("--desc")
    if let formats = try arguments.value("--formats") {
        configuration.formats = try formats.split(separator: ",").map { name in
            guard let format = VirtualPixelFormat(name: String(name)) else {
                throw UsageError(message: "unknown format '\(name)' (known: \(VirtualPixelFormat.allCases.map(\.rawValue).joined(separator: ",")))")
            }
            return format
        }
    }
    if let sizes = try arguments.value("--sizes") {
        configuration.sizes = try sizes.split(separator: ",").map { try parseSize(String($0)) }
    }
    if let rates = try arguments.value("--fps") {
        configuration.frameRates = try rates.split(separator: ",").map { try parseRate(String($0)) }
    }
    configuration.nodeProperties = try parseProperties(arguments.values("--prop"))
    configuration.deviceProperties = try parseProperties(arguments.values("--device-prop"))
    if let frames = try arguments.value("--frames") {
        guard let count = UInt64(frames) else { throw UsageError(message: "bad frame count '\(frames)'") }
        configuration.maxFrames = count
    }
    if let path = try arguments.value("--mjpeg-file") {
        guard let file = fopen(path, "rb") else { throw UsageError(message: "cannot read \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { bytes += chunk[..<count] }
        configuration.mjpegFile = bytes
    }
    configuration.shortFrames = arguments.flag("--short-frames")
    try arguments.finish()
    guard !configuration.formats.isEmpty, !configuration.sizes.isEmpty, !configuration.frameRates.isEmpty else {
        throw UsageError(message: "--formats, --sizes and --fps must not be empty")
    }
    return configuration
}

var arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
if arguments.flag("--help") || arguments.flag("-h") {
    emit(usage)
    exit(0)
}
if arguments.flag("--microphone") {
    let chosen: VirtualMicrophone.Configuration
    do {
        chosen = try microphoneConfiguration(&arguments)
    } catch let error as UsageError {
        fail("\(error.message) (see ocellus virtual-camera --help)", status: 2)
    }
    let microphone = VirtualMicrophone(chosen) { nodeID, serial in
        emit("READY node.id=\(nodeID) object.serial=\(serial) node.name=\(chosen.name) pid=\(getpid())")
    }
    do { try microphone.run() } catch { fail(error.description) }
    exit(0)
}
let chosen: VirtualCamera.Configuration
do {
    chosen = try configuration(&arguments)
} catch let error as UsageError {
    fail("\(error.message) (see ocellus virtual-camera --help)", status: 2)
}
let name = chosen.name
let camera = VirtualCamera(chosen) { event in
    switch event {
    case .ready(let nodeID, let serial):
        emit("READY node.id=\(nodeID) object.serial=\(serial) node.name=\(name) pid=\(getpid())")
    case .deviceExported(let deviceID):
        emit("DEVICE device.id=\(deviceID)")
    case .formatNegotiated(let format, let width, let height, let rate):
        emit("FORMAT node.name=\(name) format=\(format.rawValue) size=\(width)x\(height) framerate=\(rate.0)/\(rate.1)")
    }
}
do { try camera.run() } catch { fail(error.description) }
