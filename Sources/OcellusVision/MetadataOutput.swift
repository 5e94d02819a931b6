import OcellusCapture
import OcellusCore
import OcellusMedia
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Faces and machine-readable codes seen in a capture session's frames (behaviour §4 metadata
/// output, AVFoundation's `AVCaptureMetadataOutput`).
///
/// Frames reach it as they reach any video output, in the camera's own format (it pins nothing,
/// so it never changes what the camera streams). At most `maximumAnalysisRate` frames a second
/// become a small grey copy (`analysisWidth` pixels wide, turned and mirrored as the output is,
/// so bounds come in the delivered picture's coordinates), which the output's own thread
/// searches; a frame arriving while that thread is still busy is dropped and counted, never
/// queued, and other outputs never wait for detection.
///
/// The handler is called on that thread for each analysis that saw objects, and once with none
/// when they have all gone (as AVFoundation reports).
public final class MetadataOutput: @unchecked Sendable {
    /// What the session streams into: the camera's own format, at its own size.
    public let videoOutput = VideoDataOutput()
    public let objectTypes: MetadataObjectTypes
    /// The face model in use (nil without faces).
    public var faceModel: String? { analysis.faces?.model }

    private let membership = SessionMembership()
    private let analysis: Analysis
    private let worker: pthread_t
    // The delivering thread's own: the rate schedule and the converter to the small grey copy.
    private var nextDue: UInt64 = 0
    private var converter: FrameConverter?
    private let lock = ConditionLock()
    // Under `lock`: settings read when a converter is made.
    private var rotation = 0
    private var mirrored = false
    private var rate = 10.0

    /// Loads the detectors `objectTypes` need: `faceModel` names a cascade (.xml) or YuNet model
    /// (.onnx), nil for the system's (`OCELLUS_FACE_MODEL`, else opencv-data's Haar frontal-face cascade).
    /// Throws `.libraryUnavailable` naming what is missing (the plugin, OpenCV, zxing-cpp, a model).
    public init(objectTypes: MetadataObjectTypes, faceModel: String? = nil) throws(OcellusError) {
        guard !objectTypes.isEmpty, objectTypes.isSubset(of: .all) else {
            throw OcellusError(.invalidArgument, "a metadata output looks for faces, codes or both (types 0x\(String(objectTypes.rawValue, radix: 16)))")
        }
        self.objectTypes = objectTypes
        let faces = objectTypes.contains(.faces) ? try FaceDetector(model: faceModel) : nil
        let codes = objectTypes.contains(.codes) ? try CodeReader() : nil
        let analysis = Analysis(faces: faces, codes: codes)
        self.analysis = analysis
        worker = startThread { analysis.run() }
        videoOutput.frameViewHandler = { [unowned(unsafe) self] frame in self.take(frame) }
        videoOutput.waitForHandedOffWork = { analysis.waitUntilIdle() }
        videoOutput.convertsFramesItself = true // its grey copy is cut from the framed window: bounds in output coordinates
    }

    deinit {
        videoOutput.frameHandler = nil
        analysis.stop()
        joinUnlessCurrent(worker)
    }

    /// True on the output's own thread while it runs the handler.
    public var isDeliveringThread: Bool { analysis.handler.isCallingThread }

    /// Called with each delivery on the output's own thread. Replacing it waits for a call in
    /// flight, except from inside the handler.
    public var handler: ((MetadataDelivery) -> Void)? {
        get { analysis.handler.current }
        set { analysis.handler.replace(with: newValue) }
    }

    /// Clockwise degrees the delivered picture is turned (the rotation coordinator's preview or
    /// capture angle): bounds are given in that picture. From the next analysed frame.
    public func setVideoRotationAngle(_ degrees: Int) throws(OcellusError) {
        guard degrees % 90 == 0 else { throw OcellusError(.invalidArgument, "rotation must be a multiple of 90 degrees, not \(degrees)") }
        lock.withLock { rotation = ((degrees % 360) + 360) % 360 }
    }

    public var videoRotationAngle: Int { lock.withLock { rotation } }

    /// Whether the delivered picture is mirrored (after rotation), as a front camera's preview is.
    public var isVideoMirrored: Bool {
        get { lock.withLock { mirrored } }
        set { lock.withLock { mirrored = newValue } }
    }

    /// Frames analysed per second at most (default 10; 0.1...120).
    public var maximumAnalysisRate: Double { lock.withLock { rate } }

    public func setMaximumAnalysisRate(_ perSecond: Double) throws(OcellusError) {
        guard perSecond.isFinite, (0.1...120).contains(perSecond) else {
            throw OcellusError(.invalidArgument, "an analysis rate is 0.1 to 120 frames a second, not \(perSecond)")
        }
        lock.withLock { rate = perSecond }
    }

    /// The width of the grey copy searched: 480 for faces (a face a twentieth of the picture wide
    /// is 24 pixels, above the cascade's 20-pixel window), 640 when codes are read (their modules
    /// must stay a few pixels wide). Center Stage's framing searches 640 wide: its faces are
    /// those of a wide picture, smaller. Set before frames come.
    public internal(set) lazy var analysisWidth = objectTypes.contains(.codes) ? 640 : 480

    public struct Statistics: Equatable, Sendable {
        /// Analyses that produced a delivery, and the objects those held.
        public var deliveries: UInt64 = 0
        public var objects: UInt64 = 0
        /// Frames analysed.
        public var analysedFrames: UInt64 = 0
        /// Frames due for analysis that came while the last was still being searched.
        public var droppedFrames: UInt64 = 0
        /// Frames that could not be decoded for analysis.
        public var corruptFrames: UInt64 = 0
    }

    public var statistics: Statistics { analysis.statistics }

    /// Joins `session`: its frames feed this output from the next commit.
    public func attach(to session: CaptureSession) throws(OcellusError) {
        try membership.attach(videoOutput, to: session, what: "metadata output") { _ in }
    }

    public func detach() throws(OcellusError) { try membership.detach(videoOutput) }

    /// Leaves the session and stops delivering (not from the handler).
    public func close() {
        _ = try? detach()
        videoOutput.frameHandler = nil
    }

    /// Called on the output's own thread after each analysis, before the handler, with the grey
    /// copy searched (valid during the call) and the objects found in it: face-driven
    /// adjustments meter the faces there. Set before frames come.
    var analysisObserver: ((GreyPicture, [MetadataObject]) -> Void)? {
        get { analysis.observer }
        set { analysis.observer = newValue }
    }

    // MARK: The delivering thread

    /// Returns when no analysis is waiting or running (at once on the output's own thread).
    func waitUntilIdle() { analysis.waitUntilIdle() }

    /// Takes one frame of the stream (the session's, or a companion's that forwards them).
    func take(_ frame: UnsafePointer<CameraFrame>) {
        let timestamp = frame.pointee.timestampNanoseconds
        let (rotation, mirrored, rate) = lock.withLock { (self.rotation, self.mirrored, self.rate) }
        let interval = UInt64(1e9 / rate)
        guard timestamp >= nextDue else {
            converter?.skip(frame.pointee, late: false) // an H.264 decoder still needs it
            return
        }
        guard analysis.isIdle else {
            analysis.count(\.droppedFrames)
            converter?.skip(frame.pointee, late: false)
            return
        }
        let converter = self.converter(for: frame.pointee, rotation: rotation, mirrored: mirrored)
        // An H.264 stream joined between key frames: nothing to analyse yet, and nothing corrupt.
        guard converter.keyFrameWait(before: frame.pointee) == nil else { return }
        // Late by more than an interval (a pause): start the schedule again from this frame.
        nextDue = timestamp < nextDue + interval ? nextDue + interval : timestamp + interval
        guard let grey = converter.convert(frame.pointee), let plane = grey.plane(0) else {
            analysis.count(\.corruptFrames)
            return
        }
        analysis.submit(plane, width: Int(grey.width), height: Int(grey.height), timestamp: timestamp)
    }

    /// The converter for this frame's format and size and the output's orientation, made again
    /// only when one of them changes.
    private func converter(for frame: CameraFrame, rotation: Int, mirrored: Bool) -> FrameConverter {
        let quarterTurn = rotation == 90 || rotation == 270
        let (sourceWidth, sourceHeight) = quarterTurn ? (Int(frame.height), Int(frame.width)) : (Int(frame.width), Int(frame.height))
        let width = min(analysisWidth, sourceWidth) & ~1
        let height = max(2, (sourceHeight * width / max(1, sourceWidth)) & ~1)
        if let converter, converter.width == UInt32(width), converter.height == UInt32(height),
            converter.rotation == rotation, converter.mirrored == mirrored, let source,
            source == (frame.pixelFormat, frame.width, frame.height)
        {
            return converter
        }
        let made = FrameConverter(target: .grey, width: UInt32(width), height: UInt32(height), rotation: rotation, mirrored: mirrored)
        (converter, source) = (made, (frame.pixelFormat, frame.width, frame.height))
        return made
    }

    private var source: (FourCC, UInt32, UInt32)?
}

/// The detection state the output's thread owns (the thread holds it, never the output): the
/// grey copy, the detectors, the face tracks and the counts.
private final class Analysis: @unchecked Sendable {
    let faces: FaceDetector?
    let codes: CodeReader?
    let handler = HandlerSlot<MetadataDelivery>()
    var observer: ((GreyPicture, [MetadataObject]) -> Void)?
    private let lock = ConditionLock()
    // Under `lock`: a submitted picture waiting or being searched, whether to stop, the counts.
    private var busy = false
    private var pending = false
    /// The worker thread (pthread_t bits), set as it starts.
    private let worker = Atomic<UInt>(0)
    private var stopping = false
    private var counts = MetadataOutput.Statistics()
    // The worker's own between submissions (written by `submit` only while idle).
    private var picture: [UInt8] = []
    private var width = 0
    private var height = 0
    private var timestamp: UInt64 = 0
    private var tracker = FaceTracker()
    private var faceBounds: [NormalizedRect] = []
    private var ids: [UInt64] = []
    private var objects: [MetadataObject] = []
    private var sawObjects = false

    init(faces: FaceDetector?, codes: CodeReader?) {
        (self.faces, self.codes) = (faces, codes)
        faceBounds.reserveCapacity(FaceDetector.capacity)
        objects.reserveCapacity(FaceDetector.capacity + CodeReader.capacity)
    }

    var isIdle: Bool { lock.withLock { !busy } }
    var statistics: MetadataOutput.Statistics { lock.withLock { counts } }

    func count(_ field: WritableKeyPath<MetadataOutput.Statistics, UInt64>) { lock.withLock { counts[keyPath: field] += 1 } }

    /// Copies the grey picture (the converter's buffer is reused for the next frame) and wakes
    /// the worker. Only while idle: the worker reads the copy until it is idle again.
    func submit(_ plane: FramePlane, width: Int, height: Int, timestamp: UInt64) {
        let size = width * height
        if picture.count < size { picture = [UInt8](repeating: 0, count: size) } // once per size
        picture.withUnsafeMutableBytes { copy in
            for row in 0..<height {
                let source = plane.bytes.baseAddress! + row * plane.stride
                (copy.baseAddress! + row * width).copyMemory(from: source, byteCount: min(width, plane.stride))
            }
        }
        (self.width, self.height, self.timestamp) = (width, height, timestamp)
        lock.withLock {
            busy = true
            pending = true
            lock.broadcast()
        }
    }

    func stop() {
        lock.withLock {
            stopping = true; lock.broadcast()
        }
    }

    /// Returns when no picture waits or is being searched (at once on the worker itself: a
    /// session stopped from the handler).
    func waitUntilIdle() {
        guard worker.load(ordering: .relaxed) != UInt(pthread_self()) else { return }
        lock.withLock { while busy && !stopping { _ = lock.wait() } }
    }

    func run() {
        worker.store(UInt(pthread_self()), ordering: .relaxed)
        while true {
            let go = lock.withLock { () -> Bool in
                while !pending && !stopping { _ = lock.wait() }
                pending = false
                return !stopping
            }
            guard go else { return }
            analyse()
            lock.withLock {
                busy = false
                lock.broadcast()
            }
        }
    }

    private func analyse() {
        objects.removeAll(keepingCapacity: true)
        let (w, h) = (Double(width), Double(height))
        picture.withUnsafeBufferPointer { grey in
            let pixels = grey.baseAddress!
            if let faces {
                faceBounds.removeAll(keepingCapacity: true)
                // Faces down to a twentieth of the picture's width (24 pixels of 480, a face a seventh
                // of a 16:9 picture high): smaller ones cost most (the largest scales), are rarer in
                // front of a webcam, and are below what the cascade finds reliably.
                let found = faces.detect(pixels, width: width, height: height, stride: width, minimumSize: max(20, width / 20)) ?? []
                for face in found {
                    faceBounds.append(
                        NormalizedRect(
                            x: Double(face.x) / w, y: Double(face.y) / h,
                            width: Double(face.width) / w, height: Double(face.height) / h))
                }
                tracker.identify(faceBounds, into: &ids)
                for (index, face) in found.enumerated() {
                    objects.append(MetadataObject(kind: .face(id: ids[index]), bounds: faceBounds[index], confidence: face.confidence))
                }
            }
            if let codes {
                for code in codes.read(pixels, width: width, height: height, stride: width) ?? [] {
                    guard let symbology = CodeSymbology(rawValue: code.symbology) else { continue }
                    objects.append(
                        MetadataObject(
                            kind: .code(symbology, text: code.utf8Text, bytes: code.content),
                            bounds: NormalizedRect(
                                x: Double(code.x) / w, y: Double(code.y) / h,
                                width: Double(code.width) / w, height: Double(code.height) / h),
                            confidence: 1))
                }
            }
            observer?(GreyPicture(pixels: grey, width: width, height: height, timestampNanoseconds: timestamp), objects)
        }
        let delivers = !objects.isEmpty || sawObjects
        sawObjects = !objects.isEmpty
        lock.withLock {
            counts.analysedFrames += 1
            if delivers {
                counts.deliveries += 1
                counts.objects += UInt64(objects.count)
            }
        }
        if delivers { handler.call(MetadataDelivery(timestampNanoseconds: timestamp, objects: objects)) }
    }
}

/// A grey picture an analysis searched: one byte a pixel, rows `width` apart.
struct GreyPicture {
    let pixels: UnsafeBufferPointer<UInt8>
    let width: Int
    let height: Int
    let timestampNanoseconds: UInt64

    /// The picture's pixels inside `bounds` (normalised), clamped to the picture; nil when empty.
    func region(_ bounds: NormalizedRect) -> (x: Range<Int>, y: Range<Int>)? {
        let left = max(0, min(width, Int(bounds.x * Double(width))))
        let top = max(0, min(height, Int(bounds.y * Double(height))))
        let right = max(left, min(width, Int(((bounds.x + bounds.width) * Double(width)).rounded(.up))))
        let bottom = max(top, min(height, Int(((bounds.y + bounds.height) * Double(height)).rounded(.up))))
        return right > left && bottom > top ? (left..<right, top..<bottom) : nil
    }

    /// The mean grey level (0…255) inside `bounds`.
    func meanLevel(in bounds: NormalizedRect) -> Double? {
        guard let (xs, ys) = region(bounds) else { return nil }
        var sum = 0
        for y in ys {
            let row = y * width
            for x in xs { sum += Int(pixels[row + x]) }
        }
        return Double(sum) / Double(xs.count * ys.count)
    }

    /// Sharpness inside `bounds`: the mean squared difference of horizontal and vertical
    /// neighbours (a gradient energy), which a defocused picture lowers, over the squared mean
    /// level (so that a brighter picture is not taken for a sharper one).
    func sharpness(in bounds: NormalizedRect) -> Double? {
        guard let (xs, ys) = region(bounds), xs.count > 2, ys.count > 2 else { return nil }
        var energy = 0
        var sum = 0
        for y in ys.dropLast() {
            let row = y * width
            for x in xs.dropLast() {
                let here = Int(pixels[row + x])
                let right = Int(pixels[row + x + 1]) - here
                let below = Int(pixels[row + width + x]) - here
                energy += right * right + below * below
                sum += here
            }
        }
        let count = Double((xs.count - 1) * (ys.count - 1))
        let mean = max(1, Double(sum) / count)
        return Double(energy) / count / (mean * mean)
    }
}
