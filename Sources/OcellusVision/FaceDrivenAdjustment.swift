import OcellusCapture
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// behaviour §4 face-driven exposure and focus for the camera a session streams: a session
/// companion that finds faces in the stream (its own faces-only analysis, as a metadata output
/// does: 10 frames a second while it adjusts, 2 while it looks for a face or holds) and points the camera at the largest one — through the camera's
/// own region of interest (tier `cameraRegion`), or by metering the face and driving exposure
/// time, gain and absolute focus itself (tier `host`, `ExposureLoop` and `FocusSweep`).
///
/// It never fights: it acts only while no other process has the camera open (or while the app
/// holds the camera's configuration lock, which keeps others out), and it stops touching a
/// control someone else changed. Every control it changed is given back as it was when the
/// stream stops, when no face has been seen for `faceLossTimeout`, or when the app turns the
/// adjustment off (or takes the configuration lock while Ocellus decides).
public final class FaceDrivenAdjustment: SessionCompanion, @unchecked Sendable {
    /// No face for this long gives the camera's own automatic back.
    static let faceLossTimeout: UInt64 = 2_000_000_000
    /// How often (in analyses) other processes holding the camera are looked for.
    static let clientCheckInterval = 10
    /// Analyses a second while adjusting, and while looking for a face or holding (a fifth of
    /// the cost: face-driven adjustments run for every session of a camera that can be steered).
    static let adjustingRate = 10.0
    static let watchingRate = 2.0

    private let settings: FaceDrivenSettings
    private let controller: (Device) throws(OcellusError) -> any CameraControlling
    private var faces: CompanionFaces!
    private let lock = ConditionLock()
    private var stream: SteeredCamera? // under `lock`

    /// `controller` gives a camera's controls (the hub's); `settings` holds what the app set per
    /// camera. The face detector is loaded the first time a camera that can be steered streams.
    public init(settings: FaceDrivenSettings, controller: @escaping (Device) throws(OcellusError) -> any CameraControlling) {
        self.settings = settings
        self.controller = controller
        faces = CompanionFaces { [unowned(unsafe) self] picture, objects in self.observe(picture, objects) }
    }

    deinit { cameraStreamStopped() }

    public func cameraStreamWillStart(_ started: CompanionStream) -> VideoDataOutput? {
        let (camera, format) = (started.camera, started.format)
        cameraStreamStopped()
        guard let controls = try? controller(camera), let list = try? controls.controls() else { return nil }
        let tiers = FaceDrivenTiers(controls: list)
        guard tiers.exposure != .none || tiers.focus != .none else { return nil }
        lock.withLock {
            stream = SteeredCamera(
                camera: camera, controls: controls, tiers: tiers, width: Int(format.width), height: Int(format.height),
                controlList: list, frameInterval: format.maxFrameRate?.interval)
        }
        guard let output = faces.start(rate: Self.watchingRate) else { // no detector here: nothing to steer by
            lock.withLock { stream = nil }
            return nil
        }
        return output
    }

    public func cameraStreamStopped() {
        faces.stop()
        lock.withLock {
            guard var stream else { return }
            stream.restore(.exposure)
            stream.restore(.focus)
            settings.update(stream.camera.uniqueID) {
                $0.exposureActive = false; $0.focusActive = false
            }
            self.stream = nil
        }
    }

    // MARK: The analysis thread

    private func observe(_ picture: GreyPicture, _ objects: [MetadataObject]) {
        lock.withLock {
            guard var stream else { return }
            let adjusting = stream.step(picture, largestFace(objects), setting: settings.state(of: stream.camera.uniqueID))
            faces.setRate(adjusting ? Self.adjustingRate : Self.watchingRate)
            settings.update(stream.camera.uniqueID) {
                $0.exposureActive = stream.isActing(.exposure)
                $0.focusActive = stream.isActing(.focus)
            }
            self.stream = stream
        }
    }

    private func largestFace(_ objects: [MetadataObject]) -> NormalizedRect? {
        var best: NormalizedRect?
        for object in objects {
            guard case .face = object.kind else { continue }
            if best == nil || object.bounds.area > best!.area { best = object.bounds }
        }
        return best
    }
}

/// What the adjustment knows of the camera streaming: its controls, what it changed and what it
/// set last (to notice another hand on them), and the loops' state.
struct SteeredCamera {
    enum Adjustment { case exposure, focus }

    let camera: Device
    let controls: any CameraControlling
    let tiers: FaceDrivenTiers
    let width: Int
    let height: Int
    private let exposureLoop: ExposureLoop?
    private var focusSweep: FocusSweep?
    /// The values found before the first change, by control ID, per adjustment; and the names.
    private var original: [Adjustment: [(id: UInt32, name: String, value: Int64?, payload: [UInt8]?)]] = [:]
    /// What this adjustment set last, by control ID (a different value read back: someone else's hand).
    private var lastSet: [UInt32: Int64] = [:]
    /// Adjustments given up for this stream (another hand, a control that failed).
    private var yielded: Set<Adjustment> = []
    private var analyses = 0
    private var othersPresent = false
    private var lastFace: NormalizedRect?
    private var lastFaceTime: UInt64 = 0
    private var lastRegion: NormalizedRect?
    /// Controls set in the current step.
    private var changes = 0
    /// Frames captured before this (CLOCK_MONOTONIC ns) may not show the last change yet: the
    /// camera applies a setting a frame or two later, and frames already captured wait in its
    /// queue. Deciding on them would overshoot.
    private var settledAfter: UInt64 = 0
    private let settleTime: UInt64

    init(
        camera: Device, controls: any CameraControlling, tiers: FaceDrivenTiers, width: Int, height: Int, controlList: [CameraControl],
        frameInterval: UInt64?
    ) {
        (self.camera, self.controls, self.tiers, self.width, self.height) = (camera, controls, tiers, width, height)
        // Five frame intervals (a buffer queue's depth), at least 100 ms.
        settleTime = max(100_000_000, 5 * (frameInterval ?? 33_333_333))
        func range(_ id: UInt32) -> ExposureLoop.Range? {
            controlList.first { $0.id == id }.map { .init(minimum: $0.minimum, maximum: $0.maximum, step: max(1, $0.step)) }
        }
        if tiers.exposure == .host, var exposure = range(FaceDrivenControlID.exposureAbsolute) {
            // No longer than a frame at 30 frames a second (in 100 µs units): longer would slow the stream.
            exposure.maximum = max(exposure.minimum, min(exposure.maximum, 333))
            exposureLoop = ExposureLoop(exposure: exposure, gain: range(FaceDrivenControlID.gain))
        } else {
            exposureLoop = nil
        }
        focusSweep = tiers.focus == .host ? range(FaceDrivenControlID.focusAbsolute).map { FocusSweep(range: $0) } : nil
    }

    func isActing(_ adjustment: Adjustment) -> Bool { original[adjustment] != nil }

    /// One analysis; returns whether an adjustment is under way (a control changed, a focus sweep
    /// runs), so that the next analyses come sooner.
    mutating func step(_ picture: GreyPicture, _ face: NormalizedRect?, setting: FaceDrivenSettings.State) -> Bool {
        analyses += 1
        let appLock = controls.holdsConfigurationLock
        if !appLock && (analyses == 1 || analyses % FaceDrivenAdjustment.clientCheckInterval == 0) {
            othersPresent = controls.hasOtherClients
        }
        let free = appLock || !othersPresent
        let exposureAllowed =
            free && tiers.exposure != .none && !yielded.contains(.exposure)
            && setting.exposure.allows(appHoldsConfigurationLock: appLock)
        let focusAllowed =
            free && tiers.focus != .none && !yielded.contains(.focus)
            && setting.focus.allows(appHoldsConfigurationLock: appLock)
        if !exposureAllowed { restore(.exposure) }
        if !focusAllowed { restore(.focus) }
        guard exposureAllowed || focusAllowed else { return false }
        changes = 0

        let timestamp = picture.timestampNanoseconds
        guard let face else {
            // A face a focus sweep blurred is not lost: the sweep ends on the sharpest position.
            let sweeping = focusAllowed && focusSweep.map { !$0.isHolding } ?? false
            if lastFace != nil, !sweeping, timestamp > lastFaceTime + FaceDrivenAdjustment.faceLossTimeout {
                restore(.exposure)
                restore(.focus)
                lastFace = nil
                lastRegion = nil
                focusSweep?.reset()
            } else if focusAllowed, timestamp >= settledAfter, let lastFace, let sweep = focusSweep, !sweep.isHolding {
                // A defocused face is often missed: the sweep goes on measuring where it was.
                focus(picture, lastFace)
            }
            return changes > 0
        }
        (lastFace, lastFaceTime) = (face, timestamp)
        guard timestamp >= settledAfter else { return true } // the last change may not show yet
        guard let list = try? controls.controls() else { return false }
        noticeOtherHands(list)
        if tiers.exposure == .cameraRegion || tiers.focus == .cameraRegion {
            pointRegion(
                at: face, exposure: exposureAllowed && tiers.exposure == .cameraRegion,
                focus: focusAllowed && tiers.focus == .cameraRegion, list)
        }
        if exposureAllowed && tiers.exposure == .host && !yielded.contains(.exposure) { expose(picture, face, list) }
        // Focus is judged on a settled picture: a sweep measured while exposure moves would be skewed.
        let exposureMoved = changes > 0
        if focusAllowed && tiers.focus == .host && !yielded.contains(.focus) && !exposureMoved { focus(picture, face, list) }
        return changes > 0 || (focusAllowed && focusSweep.map { !$0.isHolding } ?? false)
    }

    /// A control this adjustment set that now reads otherwise was changed by someone else: that
    /// adjustment stops for this stream, and what they set stays.
    private mutating func noticeOtherHands(_ list: [CameraControl]) {
        for (adjustment, saved) in original {
            let changed = saved.contains { entry in
                guard let mine = lastSet[entry.id], let now = list.first(where: { $0.id == entry.id })?.value else { return false }
                return now != mine
            }
            guard changed else { continue }
            original[adjustment] = nil
            yielded.insert(adjustment)
        }
    }

    /// The face's middle, where skin is (its box's corners hold background).
    private func core(of face: NormalizedRect) -> NormalizedRect {
        NormalizedRect(x: face.x + face.width * 0.2, y: face.y + face.height * 0.15, width: face.width * 0.6, height: face.height * 0.7)
    }

    private mutating func expose(_ picture: GreyPicture, _ face: NormalizedRect, _ list: [CameraControl]) {
        guard let loop = exposureLoop, let level = picture.meanLevel(in: core(of: face)),
            let exposure = list.first(where: { $0.id == FaceDrivenControlID.exposureAbsolute })?.value
        else { return }
        let gain = list.first { $0.id == FaceDrivenControlID.gain }?.value
        guard let next = loop.next(level: level, exposure: exposure, gain: loop.gain == nil ? nil : gain) else { return }
        remember(.exposure, [FaceDrivenControlID.autoExposure, FaceDrivenControlID.exposureAbsolute, FaceDrivenControlID.gain], list)
        // Taking over from the camera's automatic exposure: the manual mode, with the exposure
        // time (and gain) read written back, first. What uvcvideo reads under the automatic mode
        // may be stale (it keeps a value until it is set), so the loop starts from values the
        // camera really uses, and steps from the next settled picture.
        if let mode = list.first(where: { $0.id == FaceDrivenControlID.autoExposure }), mode.value != FaceDrivenControlID.manualExposure {
            var takeOver = [(mode.id, FaceDrivenControlID.manualExposure), (FaceDrivenControlID.exposureAbsolute, exposure)]
            if let gain, loop.gain != nil { takeOver.append((FaceDrivenControlID.gain, gain)) }
            set(takeOver, for: .exposure, list)
            return
        }
        var changes: [(UInt32, Int64)] = []
        changes.append((FaceDrivenControlID.exposureAbsolute, next.exposure))
        if let newGain = next.gain, newGain != gain { changes.append((FaceDrivenControlID.gain, newGain)) }
        set(changes, for: .exposure, list)
    }

    private mutating func focus(_ picture: GreyPicture, _ face: NormalizedRect, _ list: [CameraControl]? = nil) {
        guard let sweep = focusSweep, let sharpness = picture.sharpness(in: core(of: sweep.measuringRegion(for: face))) else { return }
        guard let position = focusSweep!.next(face: face, sharpness: sharpness) else { return }
        guard let list = list ?? (try? controls.controls()) else { return }
        remember(.focus, [FaceDrivenControlID.focusAuto, FaceDrivenControlID.focusAbsolute], list)
        var changes: [(UInt32, Int64)] = []
        if let auto = list.first(where: { $0.id == FaceDrivenControlID.focusAuto }), auto.value != 0 { changes.append((auto.id, 0)) }
        changes.append((FaceDrivenControlID.focusAbsolute, position))
        set(changes, for: .focus, list)
    }

    /// Tier `cameraRegion`: the region of interest on the face (in the stream's pixels), and the
    /// bits saying what follows it. Set again only when the face moved noticeably.
    private mutating func pointRegion(at face: NormalizedRect, exposure: Bool, focus: Bool, _ list: [CameraControl]) {
        guard exposure || focus else { return }
        if let lastRegion, !FocusSweep.isNewSubject(face, after: lastRegion),
            abs(face.x - lastRegion.x) < face.width * 0.1, abs(face.y - lastRegion.y) < face.height * 0.1
        {
            return
        }
        let bits = (exposure ? FaceDrivenControlID.regionAutoExposure : 0) | (focus ? FaceDrivenControlID.regionAutoFocus : 0)
        let left = Int32(max(0, min(Double(width - 1), (face.x * Double(width)).rounded())))
        let top = Int32(max(0, min(Double(height - 1), (face.y * Double(height)).rounded())))
        let right = Int32(max(Double(left + 1), min(Double(width), ((face.x + face.width) * Double(width)).rounded())))
        let bottom = Int32(max(Double(top + 1), min(Double(height), ((face.y + face.height) * Double(height)).rounded())))
        var payload: [UInt8] = []
        for field in [UInt32(bitPattern: left), UInt32(bitPattern: top), UInt32(right - left), UInt32(bottom - top)] {
            withUnsafeBytes(of: field.littleEndian) { payload.append(contentsOf: $0) }
        }
        let adjustments: [Adjustment] = (exposure ? [.exposure] : []) + (focus ? [.focus] : [])
        for adjustment in adjustments {
            remember(adjustment, [FaceDrivenControlID.regionOfInterestRect, FaceDrivenControlID.regionOfInterestAuto], list)
        }
        guard let rect = list.first(where: { $0.id == FaceDrivenControlID.regionOfInterestRect }),
            let auto = list.first(where: { $0.id == FaceDrivenControlID.regionOfInterestAuto })
        else { return }
        do {
            try controls.setControl(named: rect.name, payload: payload)
            try controls.setControl(named: auto.name, to: bits)
            lastSet[auto.id] = bits
            lastRegion = face
            changes += 1
            settledAfter = monotonicNanoseconds() + settleTime
        } catch {
            for adjustment in adjustments { yield(adjustment) }
        }
    }

    /// Keeps the values of `ids` as they were before this adjustment's first change.
    private mutating func remember(_ adjustment: Adjustment, _ ids: [UInt32], _ list: [CameraControl]) {
        guard original[adjustment] == nil else { return }
        // A control the other adjustment already holds keeps the value it saved.
        let held = Set(original.values.flatMap { $0.map(\.id) })
        original[adjustment] = ids.compactMap { id in
            guard !held.contains(id), let control = list.first(where: { $0.id == id }) else { return nil }
            return (id, control.name, control.value, control.payload)
        }
    }

    private mutating func set(_ values: [(UInt32, Int64)], for adjustment: Adjustment, _ list: [CameraControl]) {
        for (id, value) in values {
            guard let control = list.first(where: { $0.id == id }) else { continue }
            do {
                try controls.setControl(named: control.name, to: value)
                lastSet[id] = value
                changes += 1
                settledAfter = monotonicNanoseconds() + settleTime
            } catch {
                yield(adjustment) // locked by another client, or gone: hands off
                return
            }
        }
    }

    private mutating func yield(_ adjustment: Adjustment) {
        restore(adjustment)
        yielded.insert(adjustment)
    }

    /// Gives back what `adjustment` changed: manual values first, the automatic mode last, so
    /// the camera's own loop takes over from where it was.
    mutating func restore(_ adjustment: Adjustment) {
        guard let saved = original.removeValue(forKey: adjustment) else { return }
        for entry in saved.reversed() {
            lastSet[entry.id] = nil
            if let payload = entry.payload {
                try? controls.setControl(named: entry.name, payload: payload)
            } else if let value = entry.value {
                try? controls.setControl(named: entry.name, to: value)
            }
        }
        if adjustment == .focus { focusSweep?.reset() }
        if adjustment == .exposure || tiers.focus == .cameraRegion { lastRegion = nil }
    }
}
