/// behaviour §2: which camera is the user preferred one and which the system
/// preferred one, from the persisted state and the cameras connected now.
public enum CameraSelector {
    public struct Candidate {
        public let device: Device
        /// When the camera was plugged in (current-boot monotonic µs): the system's
        /// time, else this app's first sight of it.
        public let pluggedAt: UInt64
        public init(device: Device, pluggedAt: UInt64) {
            self.device = device
            self.pluggedAt = pluggedAt
        }
    }

    public static func userPreferred(state: SelectionState, cameras: [Candidate]) -> Device? {
        let connected = cameras.map(\.device).filter { $0.isConnected && $0.type.isCamera }
        func connectedDevice(_ uniqueID: String) -> Device? { connected.first { $0.uniqueID == uniqueID } }
        if let chosen = state.choices.lazy.compactMap({ connectedDevice($0.uniqueID) }).first { return chosen }
        if let streamed = state.streamed.lazy.compactMap({ connectedDevice($0.uniqueID) }).first { return streamed }
        return connected.sorted(by: DeviceHub.defaultOrder).first
    }

    /// The user preferred camera, unless an external camera was plugged in after
    /// the last choice (or the first run): then the most recently plugged one.
    public static func systemPreferred(state: SelectionState, cameras: [Candidate]) -> Device? {
        let reference = state.referenceTime
        let plugged = cameras.filter {
            $0.device.isConnected && $0.device.type == .externalCamera && $0.pluggedAt > reference
        }
        if let newest = plugged.max(by: { ($0.pluggedAt, $1.device.uniqueID) < ($1.pluggedAt, $0.device.uniqueID) }) {
            return newest.device
        }
        return userPreferred(state: state, cameras: cameras)
    }
}

/// behaviour §4 automatic switching: a session following the system preferred camera
/// never switches while recording; it re-checks when the recording ends.
public enum AutomaticSwitching {
    public enum Decision: Equatable {
        case keep
        case switchTo(String)
        /// A switch is due but waits for the recording to end.
        case deferUntilRecordingEnds(String)
    }

    public static func decide(currentInput: String?, systemPreferred: String?, isRecording: Bool) -> Decision {
        guard let target = systemPreferred, target != currentInput else { return .keep }
        return isRecording ? .deferUntilRecordingEnds(target) : .switchTo(target)
    }
}
