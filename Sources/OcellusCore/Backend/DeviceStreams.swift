/// A hub opens a device's streams through the backend that reported it: sessions are made from
/// the context's hub, so a device is streamed by what found it (a V4L2 backend over a recorded
/// profile streams from that profile's system, a PipeWire backend through its own daemon).
extension DeviceHub: CameraStreamOpening, AudioStreamOpening {
    public func openStream(
        for device: Device, format: VideoFormat, frameRate: FrameRate,
        handler: @escaping (CameraStreamEvent) -> Void
    ) throws(OcellusError) -> any CameraStream {
        try backend(opening: device).openStream(for: device, format: format, frameRate: frameRate, handler: handler)
    }

    public func takeFormatInUse(of device: Device) -> (format: VideoFormat, rate: FrameRate)? {
        runningBackend(device.backend)?.takeFormatInUse(of: device)
    }

    public func openAudioStream(
        for device: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream {
        try backend(opening: device).openAudioStream(for: device, format: format, handler: handler)
    }

    public func openPlaybackReference(
        beside microphone: Device, format: AudioFormat,
        handler: @escaping (AudioStreamEvent) -> Void
    ) throws(OcellusError) -> any AudioStream {
        try backend(opening: microphone).openPlaybackReference(beside: microphone, format: format, handler: handler)
    }

    private func backend(opening device: Device) throws(OcellusError) -> any DeviceBackend {
        guard device.isConnected else { throw OcellusError(.disconnected, "\(device.uniqueID) is disconnected") }
        guard let backend = runningBackend(device.backend) else {
            throw OcellusError(.backendUnavailable, "\(device.uniqueID) came from the \(device.backend.name) backend, which this context does not run")
        }
        return backend
    }
}
