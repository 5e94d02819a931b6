/// behaviour §4 face-driven exposure and focus: what each camera offers for it and what the app
/// asked (AVFoundation's `isFaceDrivenAutoExposureEnabled` and
/// `automaticallyAdjustsFaceDrivenAutoExposureEnabled`, and their focus twins). The loops that
/// act on faces live above the core (OcellusVision); this is the typed part every layer reads.
public enum FaceDrivenTier: Int32, Sendable, CaseIterable {
    /// The camera cannot be steered: no region of interest, no manual exposure (or focus).
    case none = 0
    /// The camera's own UVC 1.5 region of interest, pointed at the face.
    case cameraRegion = 1
    /// Ocellus meters the face and drives the camera's manual controls itself.
    case host = 2

    /// The name the CLI's JSON uses.
    public var name: String {
        switch self {
        case .none: "none"
        case .cameraRegion: "roi"
        case .host: "host"
        }
    }
}

/// One adjustment (exposure or focus) of one camera, as the app set it.
public struct FaceDrivenSetting: Equatable, Sendable {
    /// Ocellus decides (on while a session streams the camera, off while the app holds the
    /// camera's configuration lock); `isEnabled` is then what it decided.
    public var automaticallyAdjusts = true
    /// The app's choice when `automaticallyAdjusts` is false.
    public var isEnabled = true

    public init(automaticallyAdjusts: Bool = true, isEnabled: Bool = true) {
        self.automaticallyAdjusts = automaticallyAdjusts
        self.isEnabled = isEnabled
    }

    /// Whether the adjustment may run now: an app that locked the camera for configuration
    /// adjusts it itself, unless it turned the adjustment on explicitly.
    public func allows(appHoldsConfigurationLock: Bool) -> Bool {
        automaticallyAdjusts ? !appHoldsConfigurationLock : isEnabled
    }
}

/// The V4L2 controls face-driven adjustments use, by ID (policies read IDs, never names).
public enum FaceDrivenControlID {
    public static let autoExposure: UInt32 = 0x009a_0901 // V4L2_CID_EXPOSURE_AUTO (menu: 1 manual)
    public static let exposureAbsolute: UInt32 = 0x009a_0902 // 100 µs units
    public static let focusAbsolute: UInt32 = 0x009a_090a
    public static let focusAuto: UInt32 = 0x009a_090c
    public static let gain: UInt32 = 0x0098_0913
    /// Linux 6.15's UVC 1.5 region of interest: a rectangle and the bits of what follows it.
    public static let regionOfInterestRect: UInt32 = 0x0098_1ae1
    public static let regionOfInterestAuto: UInt32 = 0x0098_1ae2
    /// Bits of `regionOfInterestAuto` (V4L2_UVC_REGION_OF_INTEREST_AUTO_*).
    public static let regionAutoExposure: Int64 = 1 << 0
    public static let regionAutoFocus: Int64 = 1 << 3
    /// `autoExposure`'s manual mode (V4L2_EXPOSURE_MANUAL).
    public static let manualExposure: Int64 = 1
}

/// Which tier a camera's controls allow, for exposure and for focus.
public struct FaceDrivenTiers: Equatable, Sendable {
    public var exposure: FaceDrivenTier
    public var focus: FaceDrivenTier

    public init(exposure: FaceDrivenTier, focus: FaceDrivenTier) {
        (self.exposure, self.focus) = (exposure, focus)
    }

    /// The camera's own region of interest where it has one and says it steers that adjustment;
    /// else the host loop where the manual control is settable (exposure time, with a manual
    /// mode to switch to; an absolute focus); else none.
    public init(controls: [CameraControl]) {
        func settable(_ id: UInt32) -> CameraControl? {
            controls.first { $0.id == id && !$0.flags.contains(.readOnly) && !$0.flags.contains(.disabled) }
        }
        let region = settable(FaceDrivenControlID.regionOfInterestRect) != nil ? settable(FaceDrivenControlID.regionOfInterestAuto) : nil
        let regionBits = region?.maximum ?? 0
        let manualMode =
            settable(FaceDrivenControlID.autoExposure).map { mode in
                mode.menu.isEmpty
                    ? (mode.minimum...mode.maximum).contains(FaceDrivenControlID.manualExposure)
                    : mode.menu.contains { $0.value == FaceDrivenControlID.manualExposure }
            } ?? true // no mode control: the exposure time is always manual
        let exposureTime = settable(FaceDrivenControlID.exposureAbsolute).map { $0.maximum > $0.minimum } ?? false
        exposure =
            regionBits & FaceDrivenControlID.regionAutoExposure != 0
            ? .cameraRegion
            : exposureTime && manualMode ? .host : .none
        let focusRange = settable(FaceDrivenControlID.focusAbsolute).map { $0.maximum > $0.minimum } ?? false
        focus = regionBits & FaceDrivenControlID.regionAutoFocus != 0 ? .cameraRegion : focusRange ? .host : .none
    }
}

/// The face-driven settings of a context's cameras, by unique ID, and what the adjustments of
/// streaming cameras report (the tier in use, whether they act now).
public final class FaceDrivenSettings: @unchecked Sendable {
    public struct State: Equatable, Sendable {
        public var exposure = FaceDrivenSetting()
        public var focus = FaceDrivenSetting()
        /// Whether each adjustment is acting on the camera now (a session streams it, a face is in view).
        public var exposureActive = false
        public var focusActive = false
        public init() {}
    }

    private let lock = ConditionLock()
    private var states: [String: State] = [:]

    public init() {}

    public func state(of uniqueID: String) -> State { lock.withLock { states[uniqueID] ?? State() } }

    public func update(_ uniqueID: String, _ change: (inout State) -> Void) {
        lock.withLock { change(&states[uniqueID, default: State()]) }
    }
}
