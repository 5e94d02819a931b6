/// Where a backend reports what it sees. Backends only report up; the core owns
/// the device list, identity rules and callback threads.
public protocol DeviceBackendDelegate: AnyObject, Sendable {
    func backend(_ backend: any DeviceBackend, didAdd facts: DeviceFacts)
    func backend(_ backend: any DeviceBackend, didRemoveDeviceWithKey key: String)
    /// The backend lost its connection (e.g. the PipeWire daemon exited); all its devices are gone.
    func backend(_ backend: any DeviceBackend, didFail error: OcellusError)
    /// The system's default input changed (PipeWire `default.audio.source`): the node
    /// name of the new default, nil when none is set.
    func backend(_ backend: any DeviceBackend, didChangeDefaultMicrophone nodeName: String?)
    /// The context's file watcher, shared by its backends (one inotify descriptor).
    var fileWatcher: FileWatcher? { get }
    /// The backend runs but cannot use a device the machine has (nil: no longer so): kept as its problem.
    func backend(_ backend: any DeviceBackend, didReportProblem problem: OcellusError?)
}

extension DeviceBackendDelegate {
    public func backend(_ backend: any DeviceBackend, didChangeDefaultMicrophone nodeName: String?) {}
    public var fileWatcher: FileWatcher? { nil }
    public func backend(_ backend: any DeviceBackend, didReportProblem problem: OcellusError?) {}
}

/// One source of devices (PipeWire, V4L2), and of their streams: the backend that reported a
/// device opens it (the hub routes by `Device.backend`). Implementations live in their own targets.
public protocol DeviceBackend: AnyObject, Sendable {
    var kind: BackendKind { get }
    /// What it can do, for the backend-neutral code's decisions.
    var capabilities: BackendCapabilities { get }
    /// Connects and reports every present device to `delegate` before returning.
    func start(delegate: any DeviceBackendDelegate, timeoutMilliseconds: UInt32) throws(OcellusError)
    /// Disconnects; no delegate call happens after this returns. Streams already open go on.
    func stop()
    /// Opens a stream of a camera this backend reported, in exactly `format` at `frameRate`.
    func openStream(
        for device: Device, format: VideoFormat, frameRate: FrameRate,
        handler: @escaping (CameraStreamEvent) -> Void
    ) throws(OcellusError) -> any CameraStream
    /// After `openStream` failed `busy` because another app streams the camera in another
    /// format: that format and rate, once (`CameraStreamOpening.takeFormatInUse`).
    func takeFormatInUse(of device: Device) -> (format: VideoFormat, rate: FrameRate)?
    /// Opens a microphone this backend reported.
    func openAudioStream(
        for device: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream
    /// Opens what the machine plays, as heard beside a microphone this backend reported.
    func openPlaybackReference(
        beside microphone: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream
    /// The controls of a camera, reached through this backend (`DeviceHub.controller(for:)` says
    /// which backend is asked); `notFound` when it cannot reach them.
    func controller(for device: Device) throws(OcellusError) -> any CameraControlling
}

extension DeviceBackend {
    public func takeFormatInUse(of device: Device) -> (format: VideoFormat, rate: FrameRate)? { nil }
    public func openAudioStream(
        for device: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream {
        throw OcellusError(.invalidArgument, "\(device.uniqueID) is not a microphone Ocellus can open (the \(kind.name) backend has no sound)")
    }
    public func openPlaybackReference(
        beside microphone: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream {
        throw OcellusError(.invalidArgument, "the \(kind.name) backend has no playback to cancel the echo of")
    }
    public func controller(for device: Device) throws(OcellusError) -> any CameraControlling {
        throw OcellusError(.notFound, "\(device.uniqueID) has no controls through the \(kind.name) backend")
    }
}
