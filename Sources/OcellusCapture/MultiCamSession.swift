import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// behaviour §4 multi-camera session: several cameras streaming together, started and stopped as
/// one. Each camera has a branch, a `CaptureSession` whose input is that camera and to which the
/// app connects that camera's outputs (video, depth, photo, movie, metadata). The session plans its
/// cameras in one pass, in the order added, and hands each branch what the cameras before it on its
/// bus will reserve: a branch's formats are chosen beside those, so that the cameras fit their USB
/// buses together. It plans again when a camera joins or leaves, a branch's configuration changes,
/// before it starts and when asked its cost.
/// Automatic switching stays a single-camera feature.
public final class MultiCamSession: Sendable {
    public enum Event: Sendable {
        case started
        case stopped
        /// A camera's stream ended on its own (unplugged, stalled, a driver error): every camera stopped.
        case runtimeError(Device, OcellusError)
        /// Any other event of one camera's branch (interruptions, format fallbacks, recordings).
        case camera(Device, CaptureSession.Event)
    }

    /// The session's cost on the buses its cameras use, each camera counted beside those added
    /// before it and what the buses carry now (other processes' streams).
    public struct Cost: Sendable {
        public struct Bus: Sendable {
            public var bus: String
            /// The bus's periodic time taken with all of the session's cameras on it (1.0: all of it).
            public var load: Double
            /// The session's cameras' part of `load`.
            public var own: Double
            public var cameras: [Device]
            /// Other devices' interfaces that reserve time on the bus (other processes' streams, microphones).
            public var others: [BusReservation]
            public var fits: Bool
        }
        public var buses: [Bus]
        /// The most loaded bus's load (0 without cameras on USB).
        public var total: Double { buses.map(\.load).max() ?? 0 }
        public var fits: Bool { buses.allSatisfy(\.fits) }
    }

    /// Events, on a library thread of their own.
    public let events = EventThread<Event>()
    private let bus: (any USBBusReading)?
    private let makeBranch: @Sendable (MultiCamBranch) -> CaptureSession
    /// The cameras' branches, in the order added, and whether they run: only under the lock.
    private let state = Locked(State())

    private struct State {
        var branches: [Branch] = []
        var running = false
    }

    private struct Branch {
        let camera: Device
        let session: CaptureSession
        /// The buses as the plan hands them to this camera's branch.
        let bus: PlannedBus
        let observer: UInt64
    }

    /// `makeBranch` makes a camera's session (`CaptureSession(branch:…)`); `bus` reads what the
    /// buses carry now (nil: nothing but this session's cameras).
    public init(bus: (any USBBusReading)?, makeBranch: @escaping @Sendable (MultiCamBranch) -> CaptureSession) {
        self.bus = bus
        self.makeBranch = makeBranch
    }

    deinit {
        try? stopRunning()
        for branch in state.withLock({ $0.branches }) { _ = branch.session.events.removeObserver(branch.observer) }
    }

    public var isRunning: Bool { state.withLock { $0.running } }
    public var cameras: [Device] { state.withLock { $0.branches.map(\.camera) } }

    /// The branch of `camera`, if it is one of the session's.
    public func branch(for camera: Device) -> CaptureSession? {
        state.withLock { $0.branches.first { $0.camera === camera }?.session }
    }

    /// Whether `camera` could join: a connected camera with video formats, not in the session yet.
    public func canAddCamera(_ camera: Device) -> Bool {
        camera.type.isCamera && camera.isConnected && !camera.formats.isEmpty && branch(for: camera) == nil
    }

    /// Adds `camera` and returns its branch, for its outputs. Not while running.
    @discardableResult
    public func addCamera(_ camera: Device) throws(OcellusError) -> CaptureSession {
        guard canAddCamera(camera) else {
            throw OcellusError(
                .invalidArgument,
                branch(for: camera) != nil
                    ? "\(camera.uniqueID) is in the session already"
                    : "\(camera.uniqueID) cannot be a session input (\(!camera.type.isCamera ? "not a camera" : camera.isConnected ? "no video formats" : "disconnected"))"
            )
        }
        try refuseWhileRunning("add a camera")
        let planned = PlannedBus(system: bus)
        let session = makeBranch(MultiCamBranch(camera: camera, bus: planned) { [weak self] in self?.plan() })
        let observer = session.events.addObserver { [weak self] event in self?.branchEvent(event, from: camera) }
        state.withLock { $0.branches.append(Branch(camera: camera, session: session, bus: planned, observer: observer)) }
        plan()
        return session
    }

    /// Removes `camera` and its branch (whose outputs are then free). Not while running.
    public func removeCamera(_ camera: Device) throws(OcellusError) {
        try refuseWhileRunning("remove a camera")
        guard
            let removed = state.withLock({ state -> Branch? in
                guard let index = state.branches.firstIndex(where: { $0.camera === camera }) else { return nil }
                return state.branches.remove(at: index)
            })
        else { throw OcellusError(.notFound, "\(camera.uniqueID) is not in the session") }
        _ = removed.session.events.removeObserver(removed.observer)
        removed.session.events.stop()
        plan()
    }

    private func refuseWhileRunning(_ what: String) throws(OcellusError) {
        if isRunning { throw OcellusError(.wrongState, "cannot \(what) while the multi-camera session runs: stop it first") }
    }

    /// What the buses would carry with the session's configuration as it stands.
    public var hardwareCost: Cost {
        let planned = plan()
        let interfaces = Set(planned.compactMap { $0.camera.details.usbLink?.streamingInterface })
        var buses: [Cost.Bus] = []
        for (camera, share) in planned {
            guard let share else { continue }
            // Each camera's share counts the ones before it: the last on a bus sees the bus's load.
            let others = share.others.filter { !interfaces.contains($0.interface) }
            if let index = buses.firstIndex(where: { $0.bus == share.bus }) {
                buses[index].load = share.load
                buses[index].own += share.own
                buses[index].cameras.append(camera)
                buses[index].others = others
                buses[index].fits = buses[index].fits && share.fits
            } else {
                buses.append(Cost.Bus(bus: share.bus, load: share.load, own: share.own, cameras: [camera], others: others, fits: share.fits))
            }
        }
        return Cost(buses: buses)
    }

    /// Starts every camera, in the order they were added; returns once all stream. When one cannot
    /// start, the ones started are stopped and the error names the camera.
    public func startRunning() throws(OcellusError) {
        let branches = state.withLock { $0.branches }
        guard !branches.isEmpty else { throw OcellusError(.wrongState, "the multi-camera session has no camera") }
        guard !isRunning else { return }
        plan()
        var started: [CaptureSession] = []
        for branch in branches {
            do throws(OcellusError) { try branch.session.start() } catch {
                for session in [branch.session] + started.reversed() { try? session.stop() }
                throw Self.naming(branch.camera, error)
            }
            started.append(branch.session)
        }
        state.withLock { $0.running = true }
        events.post(.started)
    }

    /// Stops every camera; returns after their last frame handler calls. Not from a frame handler.
    public func stopRunning() throws(OcellusError) {
        let branches = state.withLock { $0.branches }
        var failure: OcellusError?
        for branch in branches.reversed() {
            do throws(OcellusError) { try branch.session.stop() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        let wasRunning = state.withLock { state in
            defer { state.running = false }; return state.running
        }
        if wasRunning { events.post(.stopped) }
    }

    /// A branch's event: a runtime error stops the other cameras (off the event thread: stopping
    /// waits for their handlers) and is the session's; starts and stops are the session's own.
    private func branchEvent(_ event: CaptureSession.Event, from camera: Device) {
        switch event {
        case .started, .stopped:
            return
        case .runtimeError(let error):
            let others: [CaptureSession]? = state.withLock { state in
                guard state.running else { return nil }
                state.running = false
                return state.branches.filter { $0.camera !== camera }.map(\.session)
            }
            guard let others else { return }
            pthread_detach(startThread { for session in others { try? session.stop() } })
            events.post(.runtimeError(camera, Self.naming(camera, error)))
        default:
            events.post(.camera(camera, event))
        }
    }

    /// The error with the camera's unique ID in front ("ID: …"), as every camera's error reads;
    /// one that starts with the ID already ("ID sent no frame …") is not named twice.
    static func naming(_ camera: Device, _ error: OcellusError) -> OcellusError {
        let named = [": ", " "].contains { error.message.hasPrefix(camera.uniqueID + $0) }
        return named ? error : OcellusError(error.code, "\(camera.uniqueID): \(error.message)")
    }

    /// Plans every camera in one pass, in the order added: each branch is handed what the cameras
    /// before it on its bus will reserve, then its own share is counted for the ones after it.
    /// Returns each camera's share (nil off USB or with nothing to stream).
    @discardableResult
    private func plan() -> [(camera: Device, share: HardwareCost.BusShare?)] {
        var planned: [String: [BusReservation]] = [:] // by bus
        return state.withLock({ $0.branches }).map { branch in
            guard let link = branch.camera.details.usbLink else { return (branch.camera, nil) }
            branch.bus.hand(planned[link.bus, default: []])
            let share = branch.session.hardwareCost
            if let interface = link.streamingInterface, let endpoint = share?.reservation {
                planned[link.bus, default: []].append(
                    BusReservation(
                        device: branch.camera.name, interface: interface, speedMbps: link.speedMbps,
                        translator: link.translator, endpoints: [endpoint]))
            }
            return (branch.camera, share)
        }
    }
}

/// One camera of a multi-camera session as its branch is made (`CaptureSession(branch:…)`): the
/// camera, the branch's input for good; its buses as the session plans them; and what the branch
/// calls after its configuration changed, so that the cameras after it are planned again.
public struct MultiCamBranch: Sendable {
    public let camera: Device
    let bus: PlannedBus
    let configurationChanged: @Sendable () -> Void
}

/// The buses as a branch counts them: what they carry now, read when asked, and what the cameras
/// added before its own will reserve, as the session last planned them (one streaming already is
/// in what the bus carries, and counted once).
final class PlannedBus: USBBusReading {
    private let system: (any USBBusReading)?
    private let earlier = Locked<[BusReservation]>([])

    init(system: (any USBBusReading)?) { self.system = system }

    func hand(_ reservations: [BusReservation]) { earlier.withLock { $0 = reservations } }

    func reservations(onBus bus: String) -> [BusReservation] {
        let now = system?.reservations(onBus: bus) ?? []
        return now + earlier.withLock { $0 }.filter { planned in !now.contains { $0.interface == planned.interface } }
    }
}
