// ocellus-bench: discovery and hotplug latency on a real PipeWire daemon, each
// reported beside a baseline measured in the same run: a bare libpipewire
// client that only connects and reads the registry. Run it inside
// scripts/testbed.sh with two cameras (`make bench`). Prints medians and p90s.
import OcellusCore
import OcellusPipeWire

#if canImport(Glibc)
import Glibc
#endif

let runs = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 30

/// Signed: two PipeWire clients learn of the same registry event in no set order, so our
/// callback can come before the probe's own listener hears it.
func milliseconds(from start: UInt64, to end: UInt64) -> Double { (Double(end) - Double(start)) / 1e6 }

func summary(_ samples: [Double]) -> (median: Double, p90: Double) {
    let sorted = samples.sorted()
    return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 9 / 10)])
}

func report(_ label: String, _ samples: [Double], baseline: [Double]? = nil) {
    let (median, p90) = summary(samples)
    var line = "\(label): median \(format(median)) ms, p90 \(format(p90)) ms"
    if let baseline {
        let base = summary(baseline).median
        line += "; baseline median \(format(base)) ms, ratio \(format(median / base))"
    }
    print(line)
}

func format(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return String(rounded)
}

/// Starts `ocellus virtual-camera` (OCELLUS_CLI) in its own process; returns its pid.
func spawnCamera(_ name: String) -> pid_t {
    guard let cli = getenv("OCELLUS_CLI").map({ String(cString: $0) }) else {
        fputs("ocellus-bench: set OCELLUS_CLI (run through `make bench`)\n", stderr)
        exit(2)
    }
    let arguments = [
        cli, "virtual-camera", "--name", name, "--sizes", "640x480", "--fps", "30",
        "--device-prop", "device.bus=usb", "--device-prop", "device.vendor.id=0x1d6b",
        "--device-prop", "device.product.id=0x0199", "--device-prop", "device.serial=BENCH"
    ]
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    let result = posix_spawn(&pid, cli, &actions, nil, argv, environ)
    for argument in argv { free(argument) }
    posix_spawn_file_actions_destroy(&actions)
    guard result == 0 else { fputs("ocellus-bench: cannot start \(cli)\n", stderr); exit(1) }
    return pid
}

func stopCamera(_ pid: pid_t) {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
}

// 1. Context creation to a complete device list (every camera with its formats).
var discovery: [Double] = []
var baselineDiscovery: [Double] = []
var cameraCount = 0
for _ in 0..<runs {
    let probeStart = monotonicNanoseconds()
    let probe = RegistryProbe()
    guard probe.connect() else { fputs("ocellus-bench: no PipeWire daemon\n", stderr); exit(1) }
    baselineDiscovery.append(milliseconds(from: probeStart, to: monotonicNanoseconds()))
    probe.close()

    let start = monotonicNanoseconds()
    do {
        let hub = try DeviceHub(appID: "org.ocellus.bench", backends: [PipeWireBackend()], timeoutMilliseconds: 3000)
        cameraCount = hub.devices().filter { $0.type.isCamera && !$0.formats.isEmpty }.count
        discovery.append(milliseconds(from: start, to: monotonicNanoseconds()))
        hub.close()
    } catch {
        fputs("ocellus-bench: \(error)\n", stderr)
        exit(1)
    }
}
print("ocellus-bench: \(runs) runs, \(cameraCount) cameras with formats present")
report("context creation -> complete device list", discovery, baseline: baselineDiscovery)

// 2. Hotplug: producer process start -> callback, and registry event -> callback.
let hub = try DeviceHub(appID: "org.ocellus.bench", backends: [PipeWireBackend()], timeoutMilliseconds: 3000)
let probe = RegistryProbe()
_ = probe.connect()
let lock = ConditionLock()
var addedAt: UInt64?
var removedAt: UInt64?
_ = hub.events.addObserver { event in
    guard case .device(let change, let device) = event, device.name.hasPrefix("benchcam") else { return }
    let now = monotonicNanoseconds()
    lock.withLock {
        if change == .added { addedAt = now } else { removedAt = now }
        lock.broadcast()
    }
}
func waitFor(_ value: () -> UInt64?) -> UInt64 {
    let deadline = monotonicNanoseconds() + 10_000_000_000
    return lock.withLock {
        while value() == nil && lock.wait(untilMonotonicNanoseconds: deadline) {}
        guard let result = value() else { fputs("ocellus-bench: no hotplug event within 10 s\n", stderr); exit(1) }
        return result
    }
}
var spawnToCallback: [Double] = [], spawnToRegistry: [Double] = [], registryToCallback: [Double] = []
var killToCallback: [Double] = [], killToRegistry: [Double] = []
for index in 0..<runs {
    let name = "benchcam\(index)"
    lock.withLock {
        addedAt = nil; removedAt = nil
    }
    let spawned = monotonicNanoseconds()
    let pid = spawnCamera(name)
    let added = waitFor { addedAt }
    guard let announced = probe.appearance(of: name) else { fputs("ocellus-bench: probe missed \(name)\n", stderr); exit(1) }
    spawnToCallback.append(milliseconds(from: spawned, to: added))
    spawnToRegistry.append(milliseconds(from: spawned, to: announced))
    registryToCallback.append(milliseconds(from: announced, to: added))
    let killed = monotonicNanoseconds()
    stopCamera(pid)
    let removed = waitFor { removedAt }
    guard let gone = probe.removal(of: name) else { fputs("ocellus-bench: probe missed removal\n", stderr); exit(1) }
    killToCallback.append(milliseconds(from: killed, to: removed))
    killToRegistry.append(milliseconds(from: killed, to: gone))
    probe.forget(name)
}
report("hotplug: producer start -> added callback", spawnToCallback, baseline: spawnToRegistry)
report("hotplug: registry event -> added callback", registryToCallback)
report("unplug: producer killed -> removed callback", killToCallback, baseline: killToRegistry)
probe.close()
hub.close()
