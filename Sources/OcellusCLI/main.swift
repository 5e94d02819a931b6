// `ocellus`: list and watch cameras and microphones, publish a virtual camera.
import OcellusCore
import OcellusSensors
import OcellusSystem
import OcellusV4L2
import OcellusVirtualCamera
#if canImport(Glibc)
import Glibc
#endif

let usage = """
usage: ocellus [--app-id ID] [--pipewire-remote PATH] [--state-dir DIR] COMMAND [options]

commands:
  list [--json]             cameras and microphones present now
  watch [--json]            print devices added and removed and preferred-camera changes, until interrupted
  preferred [--json]        the app's user preferred and system preferred cameras
  prefer CAMERA             make a connected camera the app's user preferred camera
  microphones [--json]      the inputs and the one the `microphone` device routes to now
  controls [CAMERA] [--json] [--set name=value]...
                            a camera's controls, or change them
  rotation [CAMERA] [--host-orientation normal|left-up|bottom-up|right-up]
           [--interface-orientation 0|90|180|270|follow] [--mirrored|--unmirrored] [--json]
           [--watch] [--sensor-bus ADDRESS]
                            the camera's preview and capture angles (SPEC §3); without
                            --host-orientation, from iio-sensor-proxy (system bus, or ADDRESS)
  mount-rotation CAMERA 0|90|180|270
                            set and keep an external camera's mounting correction
  stream [CAMERA] [--format NAME] [--size WxH] [--fps N] [--frames N | --seconds S] [--json | --frame-events]
         [--output FILE|-]
                            capture from a camera: live stats, or one JSON summary (--json), or a
                            JSON line per frame then the summary (--frame-events); --output writes
                            the frames (raw rows, or the camera's JPEGs) to FILE or stdout (-), e.g.
                            `stream --format I420 --size 640x480 --output - | ffplay -f rawvideo
                            -pixel_format yuv420p -video_size 640x480 -`; messages go to stderr then
  snap [CAMERA] -o FILE [--size WxH] [--rotate-pixels] [--host-orientation H] [--sensor-bus ADDRESS] [--json]
                            a JPEG photo with EXIF orientation from the camera's capture angle
                            (the host's orientation H from iio-sensor-proxy unless given)
  record [CAMERA] -o FILE.mp4|FILE.mov [--seconds S] [--size WxH] [--audio [MIC_UNIQUE_ID]]
         [--host-orientation H] [--sensor-bus ADDRESS] [--json]
                            a movie (fragmented: playable up to a crash), the capture angle in
                            the track's display matrix; until S seconds or Ctrl-C; --audio adds
                            an AAC track (default: the camera's own microphone, else the
                            `microphone` device, which follows the default input)
  version                   library version
  virtual-camera [options]  publish a test-pattern camera into PipeWire until interrupted
      --name N --desc D --formats YUY2,NV12,MJPG,H264 --sizes 640x480,1280x720 --fps 30,15
      --prop key=value ... --device-prop key=value ... --frames N

CAMERA is a unique ID, the # that `list` shows, a /dev/videoN node, or a part of the
name only one device has; where it is optional, none means the system preferred camera.
"""

/// One command's part of `usage` (its lines up to the next command), with the global
/// options and the CAMERA note: `ocellus COMMAND --help`. The usage text is the one table.
func commandUsage(_ command: String) -> String? {
    let lines = usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let isCommandLine = { (line: String) in line.hasPrefix("  ") && !line.hasPrefix("   ") }
    guard let start = lines.firstIndex(where: { isCommandLine($0) && $0.dropFirst(2).split(separator: " ").first.map(String.init) == command })
    else { return nil }
    var end = start + 1
    while end < lines.count, !isCommandLine(lines[end]), !lines[end].isEmpty { end += 1 }
    var help = ["usage: ocellus [--app-id ID] [--pipewire-remote PATH] [--state-dir DIR] \(lines[start].dropFirst(2))"]
    help += lines[(start + 1)..<end]
    if lines[start].contains("CAMERA"), let note = lines.firstIndex(where: { $0.hasPrefix("CAMERA is") }) {
        help += [""] + lines[note...].prefix { !$0.isEmpty }
    }
    return help.joined(separator: "\n")
}

struct GlobalOptions {
    var appID = "org.ocellus.cli"
    var remote: String?
    var stateDirectory: String?
}

func openHub(_ options: GlobalOptions) -> DeviceHub {
    do {
        let hub = try DeviceHub.system(appID: options.appID, pipewireRemote: options.remote,
                                       stateDirectory: options.stateDirectory, timeoutMilliseconds: 3000)
        if let problem = hub.backendProblem(.pipewire) {
            fputs("ocellus: note: \(problem.message); showing V4L2 devices only\n", stderr)
        }
        return hub
    } catch {
        fail(error.message)
    }
}

func formatSummary(_ device: Device) -> String {
    var byFormat: [(FourCC, [VideoFormat])] = []
    for format in device.formats {
        if let index = byFormat.firstIndex(where: { $0.0 == format.pixelFormat }) {
            byFormat[index].1.append(format)
        } else {
            byFormat.append((format.pixelFormat, [format]))
        }
    }
    return byFormat.map { pixelFormat, formats in
        let largest = formats.max { $0.width * $0.height < $1.width * $1.height }!
        let fps = formats.compactMap(\.maxFrameRate).max().map { " @\(JSON.number($0.framesPerSecond).text)" } ?? ""
        return "\(pixelFormat) \(formats.count) sizes ≤\(largest.width)x\(largest.height)\(fps)"
    }.joined(separator: ", ")
}

func list(_ options: GlobalOptions, json: Bool) {
    let hub = openHub(options)
    defer { hub.close() }
    let devices = hub.devices()
    if json {
        emit(JSON.array(devices.map(\.json)).text)
        return
    }
    if devices.isEmpty {
        emit("no cameras or microphones found")
        return
    }
    // The index is what commands accept as CAMERA (`ocellus stream 0`).
    let rows = devices.enumerated().map { index, device in
        [String(index), device.type.name, device.position.name, device.backend.name, device.uniqueID, device.name, formatSummary(device)]
    }
    let header = ["#", "TYPE", "POSITION", "BACKEND", "UNIQUE ID", "NAME", "FORMATS"]
    var widths = header.map(\.count)
    for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
    for row in [header] + rows {
        emit(row.enumerated().map { index, cell in
            index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
        }.joined(separator: "  "))
    }
}

/// Blocks SIGINT/SIGTERM/SIGUSR1 in this thread and every thread started later, then waits for one.
func blockTerminationSignals() -> sigset_t {
    var signals = sigset_t()
    sigemptyset(&signals)
    for signalNumber in [SIGINT, SIGTERM, SIGUSR1] { sigaddset(&signals, signalNumber) }
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    return signals
}

func watch(_ options: GlobalOptions, json: Bool) -> Never {
    var signals = blockTerminationSignals()
    let hub = openHub(options)
    let failure = Pinned<String?>(nil)
    _ = hub.events.addObserver { event in
        switch event {
        case .device(let change, let device):
            let name = change == .added ? "added" : "removed"
            if json {
                emit(JSON.object([("event", .string(name)), ("device", device.json)]).text)
            } else {
                emit("\(name): \(device.type.name) \(device.uniqueID) \"\(device.name)\"")
            }
        case .userPreferredChanged(let device), .systemPreferredChanged(let device):
            let name = if case .userPreferredChanged = event { "user_preferred_changed" } else { "system_preferred_changed" }
            if json {
                emit(JSON.object([("event", .string(name)), ("device", device?.json ?? .null)]).text)
            } else {
                emit("\(name): \(device.map { "\($0.uniqueID) \"\($0.name)\"" } ?? "none")")
            }
        case .microphoneRouteChanged(let input):
            if json {
                emit(JSON.object([("event", .string("microphone_route_changed")), ("device", input?.json ?? .null)]).text)
            } else {
                emit("microphone_route_changed: \(input.map { "\($0.uniqueID) \"\($0.name)\"" } ?? "none")")
            }
        case .backendFailed(_, let error):
            failure.pointer.pointee = error.message
            kill(getpid(), SIGUSR1)
        }
    }
    var received: Int32 = 0
    sigwait(&signals, &received)
    hub.close()
    if let message = failure.pointer.pointee { fail(message) }
    exit(0)
}

/// The device a command's CAMERA argument names (a unique ID, an index from `list`, a
/// /dev/video node or a part of the name: `DeviceHub.device(matching:)`); none given: the
/// system preferred camera.
func connectedDevice(_ hub: DeviceHub, _ spec: String?) -> Device {
    do throws(OcellusError) {
        guard let spec else {
            guard let preferred = hub.systemPreferredCamera else { throw OcellusError(.notFound, "no camera is connected") }
            return preferred
        }
        return try hub.device(matching: spec)
    } catch {
        hub.close()
        fail(error.message)
    }
}

func preferred(_ options: GlobalOptions, json: Bool) {
    let hub = openHub(options)
    defer { hub.close() }
    if let problem = hub.selectionStateProblem { fputs("ocellus: warning: \(problem)\n", stderr) }
    let (user, system) = (hub.userPreferredCamera, hub.systemPreferredCamera)
    if json {
        emit(JSON.object([("user_preferred", user?.json ?? .null), ("system_preferred", system?.json ?? .null)]).text)
    } else {
        emit("user preferred:   \(user.map { "\($0.uniqueID) \"\($0.name)\"" } ?? "none")")
        emit("system preferred: \(system.map { "\($0.uniqueID) \"\($0.name)\"" } ?? "none")")
    }
}

func microphones(_ options: GlobalOptions, json: Bool) {
    let hub = openHub(options)
    defer { hub.close() }
    let inputs = hub.devices().filter { $0.type == .microphone }
    let route = hub.microphoneRoute.current
    if json {
        emit(JSON.object([("route", route?.json ?? .null), ("inputs", JSON.array(inputs.map(\.json)))]).text)
        return
    }
    emit("microphone -> \(route.map { "\($0.uniqueID) \"\($0.name)\"" } ?? "none")")
    for input in inputs { emit("\(input === route ? "*" : " ") \(input.uniqueID) \"\(input.name)\"") }
}

func prefer(_ options: GlobalOptions, uniqueID: String) {
    let hub = openHub(options)
    defer { hub.close() }
    let device = connectedDevice(hub, uniqueID)
    do {
        try hub.setUserPreferredCamera(device)
    } catch {
        hub.close()
        fail(error.message)
    }
    // A choice that could not be saved is lost when the process exits: for `prefer` that is failure.
    if hub.selectionIsUnsaved {
        let problem = hub.selectionStateProblem ?? "the choice could not be saved"
        hub.close()
        fail(problem)
    }
    if let problem = hub.selectionStateProblem { fputs("ocellus: warning: \(problem)\n", stderr) }
}

/// A control value as v4l2-ctl takes it: decimal, negative, or hex (`0x10`, `-0x10`), up to 64 bits
/// (a bitmask's high bit included: `0x80000010`).
func parseControlValue(_ text: Substring) -> Int64? {
    let negative = text.hasPrefix("-")
    let digits = negative ? text.dropFirst() : text
    let magnitude: UInt64?
    if digits.lowercased().hasPrefix("0x") { magnitude = UInt64(digits.dropFirst(2), radix: 16) } else { magnitude = UInt64(digits) }
    guard let magnitude else { return nil }
    if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
    return Int64(exactly: magnitude) ?? Int64(bitPattern: magnitude)
}

func controls(_ options: GlobalOptions, uniqueID: String?, json: Bool, settings: [String]) {
    let hub = openHub(options)
    defer { hub.close() }
    let device = connectedDevice(hub, uniqueID)
    do {
        let controller = try DeviceControls.controller(for: device)
        for setting in settings {
            guard let equals = setting.firstIndex(of: "="), let value = parseControlValue(setting[setting.index(after: equals)...]) else {
                hub.close()
                fail("bad setting '\(setting)' (expected name=integer)", status: 2)
            }
            try controller.setControl(named: String(setting[..<equals]), to: value)
        }
        guard settings.isEmpty else { return }
        let all = try controller.controls()
        if json {
            emit(JSON.array(all.map(\.json)).text)
        } else {
            for control in all {
                let value = control.value.map { "value=\($0)" } ?? ""
                let menu = control.menu.isEmpty ? "" : " [" + control.menu.map { "\($0.value)=\($0.name)" }.joined(separator: ", ") + "]"
                emit("\(control.name) (\(control.kind.name)): min=\(control.minimum) max=\(control.maximum) step=\(control.step) default=\(control.defaultValue) \(value)\(control.flagNames.isEmpty ? "" : " flags=" + control.flagNames.joined(separator: ","))\(menu)")
            }
        }
    } catch {
        hub.close()
        fail(error.message)
    }
}

/// Streams through a capture session (either backend) and reports each frame.
func rotation(_ options: GlobalOptions, uniqueID: String?, host: Int?, interface: String?, mirrored: Bool?, json: Bool,
              sensorBus: String?, watch: Bool) {
    let hub = openHub(options)
    defer { hub.close() }
    let device = connectedDevice(hub, uniqueID)
    var sensor: SensorProxyOrientation?
    do throws(OcellusError) {
        let coordinator = try RotationCoordinator(
            device: device, mountingCorrection: MountingCorrections(directory: hub.stateDirectory).correction(for: device.uniqueID),
            previewMirrored: mirrored ?? RotationCoordinator.mirrorsByDefault(device))
        if let host {
            try coordinator.setHostOrientation(host)
        } else {
            do {
                sensor = try SensorProxyOrientation(busAddress: sensorBus) { degrees in try? coordinator.setHostOrientation(degrees) }
                try coordinator.setHostOrientation(sensor!.orientation)
            } catch {
                // SPEC §3: with neither a sensor nor an app-given orientation, H = 0.
                fputs("ocellus: note: \(error.message); assuming the natural orientation\n", stderr)
            }
        }
        switch interface {
        case nil, "follow": try coordinator.setInterfaceOrientation(.followsDevice)
        case let text?:
            guard let degrees = Int(text) else { throw OcellusError(.invalidArgument, "bad interface orientation '\(text)' (0, 90, 180, 270 or follow)") }
            try coordinator.setInterfaceOrientation(.fixed(degrees))
        }
        func show(_ angles: RotationCoordinator.Angles) {
            if json {
                emit(JSON.object([("preview_angle", .int(Int64(angles.preview))), ("capture_angle", .int(Int64(angles.capture))),
                                  ("mirrored", .bool(coordinator.previewMirrored))]).text)
            } else {
                emit("preview \(angles.preview)°, capture \(angles.capture)°, \(coordinator.previewMirrored ? "mirrored" : "not mirrored")")
            }
        }
        show(coordinator.angles)
        if watch {
            var signals = blockTerminationSignals()
            _ = coordinator.changes.addObserver(show)
            var received: Int32 = 0
            sigwait(&signals, &received)
            sensor?.stop()
            hub.close()
            exit(0)
        }
        sensor?.stop()
    } catch {
        hub.close()
        fail(error.message)
    }
}

func mountRotation(_ options: GlobalOptions, uniqueID: String, degrees: String) {
    let hub = openHub(options)
    defer { hub.close() }
    let device = connectedDevice(hub, uniqueID)
    do throws(OcellusError) {
        guard let value = Int(degrees) else { throw OcellusError(.invalidArgument, "bad angle '\(degrees)' (0, 90, 180 or 270)") }
        try RotationCoordinator.checkTakesMountingCorrection(device)
        try MountingCorrections(directory: hub.stateDirectory).setCorrection(value, for: device.uniqueID)
    } catch {
        hub.close()
        fail(error.message)
    }
}

func parseSize(_ text: String) throws -> (width: UInt32, height: UInt32) {
    let parts = text.split(separator: "x")
    guard parts.count == 2, let width = UInt32(parts[0]), let height = UInt32(parts[1]), width > 0, height > 0 else {
        throw UsageError(message: "bad size '\(text)' (expected WIDTHxHEIGHT)")
    }
    return (width, height)
}

/// `--sensor-bus ADDRESS` (else $OCELLUS_SENSOR_BUS): where iio-sensor-proxy is, nil for the system bus.
func sensorBusOption(_ arguments: inout Arguments) throws -> String? {
    try arguments.value("--sensor-bus") ?? environmentVariable("OCELLUS_SENSOR_BUS")
}

/// `--host-orientation NAME` or, without it, the sensor proxy of `--sensor-bus`.
func hostOrientationSource(_ arguments: inout Arguments) throws -> HostOrientationSource {
    HostOrientationSource(degrees: try arguments.value("--host-orientation").map(parseHostOrientation),
                          sensorBus: try sensorBusOption(&arguments))
}

/// iio-sensor-proxy's names for the host orientation H, as clockwise degrees.
func parseHostOrientation(_ text: String) throws -> Int {
    let degrees = ["normal": 0, "left-up": 90, "bottom-up": 180, "right-up": 270]
    guard let value = degrees[text] else {
        // A bad value, not bad usage: exit 1 like other refused values (the rotation command always did).
        throw OcellusError(.invalidArgument, "unknown host orientation '\(text)' (normal, left-up, bottom-up, right-up)")
    }
    return value
}

func parseSeconds(_ text: String) throws -> Double {
    guard let seconds = Double(text), seconds > 0, seconds.isFinite else { throw UsageError(message: "bad duration '\(text)' (seconds)") }
    return seconds
}

func parseRate(_ text: String) throws -> (numerator: UInt32, denominator: UInt32) {
    let parts = text.split(separator: "/")
    guard let numerator = UInt32(parts[0]), numerator > 0 else { throw UsageError(message: "bad frame rate '\(text)'") }
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

func virtualCamera(_ options: GlobalOptions, _ arguments: inout Arguments) throws {
    var configuration = VirtualCamera.Configuration()
    configuration.remote = options.remote
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
    try arguments.finish()
    guard !configuration.formats.isEmpty, !configuration.sizes.isEmpty, !configuration.frameRates.isEmpty else {
        throw UsageError(message: "--formats, --sizes and --fps must not be empty")
    }
    let name = configuration.name
    let camera = VirtualCamera(configuration) { event in
        switch event {
        case .ready(let nodeID, let serial):
            emit("READY node.id=\(nodeID) object.serial=\(serial) node.name=\(name) pid=\(getpid())")
        case .deviceExported(let deviceID):
            emit("DEVICE device.id=\(deviceID)")
        case .formatNegotiated(let format, let width, let height, let rate):
            emit("FORMAT node.name=\(name) format=\(format.rawValue) size=\(width)x\(height) framerate=\(rate.0)/\(rate.1)")
        }
    }
    do {
        try camera.run()
    } catch let error as VirtualCamera.Failure {
        fail(error.description)
    }
}

func main() {
    var arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
    do {
        var options = GlobalOptions()
        if let appID = try arguments.value("--app-id") { options.appID = appID }
        options.remote = try arguments.value("--pipewire-remote")
        options.stateDirectory = try arguments.value("--state-dir")
        if arguments.flag("--version") { emit("ocellus \(OcellusVersion.string)"); return }
        let wantsHelp = arguments.flag("--help") || arguments.flag("-h")
        guard let command = arguments.positional() else {
            if wantsHelp { emit(usage); return }
            throw UsageError(message: "no command given")
        }
        if wantsHelp {
            guard let help = commandUsage(command) else { throw UsageError(message: "unknown command '\(command)'") }
            emit(help)
            return
        }
        switch command {
        case "list":
            let json = arguments.flag("--json")
            try arguments.finish()
            list(options, json: json)
        case "watch":
            let json = arguments.flag("--json")
            try arguments.finish()
            watch(options, json: json)
        case "preferred":
            let json = arguments.flag("--json")
            try arguments.finish()
            preferred(options, json: json)
        case "microphones":
            let json = arguments.flag("--json")
            try arguments.finish()
            microphones(options, json: json)
        case "prefer":
            guard let uniqueID = arguments.leadingPositional() else { throw UsageError(message: "prefer needs a camera") }
            try arguments.finish()
            prefer(options, uniqueID: uniqueID)
        case "controls":
            let uniqueID = arguments.leadingPositional()   // none: the system preferred camera
            let json = arguments.flag("--json")
            let settings = try arguments.values("--set")
            try arguments.finish()
            controls(options, uniqueID: uniqueID, json: json, settings: settings)
        case "rotation":
            let uniqueID = arguments.leadingPositional()   // none: the system preferred camera
            let json = arguments.flag("--json")
            let host = try arguments.value("--host-orientation").map(parseHostOrientation)
            let interface = try arguments.value("--interface-orientation")
            let mirrored: Bool? = arguments.flag("--mirrored") ? true : arguments.flag("--unmirrored") ? false : nil
            let watch = arguments.flag("--watch")
            let sensorBus = try sensorBusOption(&arguments)
            try arguments.finish()
            rotation(options, uniqueID: uniqueID, host: host, interface: interface, mirrored: mirrored, json: json,
                     sensorBus: sensorBus, watch: watch)
        case "mount-rotation":
            guard let uniqueID = arguments.leadingPositional(), let degrees = arguments.positional() else {
                throw UsageError(message: "mount-rotation needs a camera and an angle")
            }
            try arguments.finish()
            mountRotation(options, uniqueID: uniqueID, degrees: degrees)
        case "stream":
            let uniqueID = arguments.leadingPositional()   // none: the system preferred camera
            var settings = StreamOptions()
            settings.json = arguments.flag("--json")
            settings.frameEvents = arguments.flag("--frame-events")
            settings.format = try arguments.value("--format").map { name -> String in
                guard PixelFormatNames.code(name) != nil else {
                    throw UsageError(message: "unknown pixel format \(name); known: \(PixelFormatNames.everyday.joined(separator: ", "))")
                }
                return name
            }
            settings.size = try arguments.value("--size").map(parseSize)
            settings.rate = try arguments.value("--fps").map(parseRate)
            settings.frames = try arguments.value("--frames").map { text -> Int in
                guard let count = Int(text), count > 0 else { throw UsageError(message: "bad frame count '\(text)'") }
                return count
            } ?? 0
            settings.seconds = try arguments.value("--seconds").map(parseSeconds)
            settings.output = try arguments.value("--output") ?? arguments.value("-o")
            try arguments.finish()
            stream(options, uniqueID: uniqueID, settings)
        case "snap":
            let uniqueID = arguments.leadingPositional()   // none: the system preferred camera
            guard let path = try arguments.value("-o") ?? arguments.value("--output") else { throw UsageError(message: "snap needs -o FILE") }
            let size = try arguments.value("--size").map(parseSize)
            let rotatePixels = arguments.flag("--rotate-pixels")
            let host = try hostOrientationSource(&arguments)
            let json = arguments.flag("--json")
            try arguments.finish()
            snap(options, uniqueID: uniqueID, path: path, size: size, rotatePixels: rotatePixels, host: host, json: json)
        case "record":
            let uniqueID = arguments.leadingPositional()   // none: the system preferred camera
            guard let path = try arguments.value("-o") ?? arguments.value("--output") else { throw UsageError(message: "record needs -o FILE") }
            let seconds = try arguments.value("--seconds").map(parseSeconds)
            let size = try arguments.value("--size").map(parseSize)
            let audio = arguments.optionalValue("--audio")
            let host = try hostOrientationSource(&arguments)
            let json = arguments.flag("--json")
            try arguments.finish()
            record(options, uniqueID: uniqueID, path: path, seconds: seconds, size: size, audio: audio, host: host, json: json)
        case "version":
            try arguments.finish()
            emit("ocellus \(OcellusVersion.string)")
        case "virtual-camera":
            try virtualCamera(options, &arguments)
        case "help":
            emit(usage)
        default:
            throw UsageError(message: "unknown command '\(command)'")
        }
    } catch let error as UsageError {
        fail("\(error.message) (see ocellus --help)", status: 2)
    } catch {
        fail("\(error)")
    }
}

main()
