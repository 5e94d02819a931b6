/// behaviour §1 discovery session: a live view of the hub's devices filtered by
/// type, media and position.
public struct DeviceFilter: Sendable, Equatable {
    public enum Media: Sendable { case video, audio }

    /// Empty: every type.
    public var types: Set<DeviceType>
    /// nil: any media.
    public var media: Media?
    /// `.unspecified`: any position (as in AVFoundation).
    public var position: DevicePosition

    public init(types: Set<DeviceType> = [], media: Media? = nil, position: DevicePosition = .unspecified) {
        self.types = types
        self.media = media
        self.position = position
    }

    public func matches(_ device: Device) -> Bool {
        if !types.isEmpty && !types.contains(device.type) { return false }
        switch media {
        case .video where !device.type.isCamera: return false
        case .audio where device.type.isCamera: return false
        default: break
        }
        return position == .unspecified || device.position == position
    }
}

public final class DiscoverySession: @unchecked Sendable {
    public let hub: DeviceHub
    public let filter: DeviceFilter

    public init(hub: DeviceHub, filter: DeviceFilter) {
        self.hub = hub
        self.filter = filter
    }

    /// Connected devices that pass the filter, in the default order.
    public var devices: [Device] { hub.devices().filter(filter.matches) }

    /// Calls `body` on the hub's event thread each time a matching device is added or removed.
    public func observe(_ body: @escaping (HotplugEvent, Device) -> Void) -> UInt64 {
        let filter = self.filter
        return hub.events.addObserver { event in
            if case .device(let change, let device) = event, filter.matches(device) { body(change, device) }
        }
    }
}
