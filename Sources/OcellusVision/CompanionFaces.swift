import OcellusCapture
import OcellusCore
import Synchronization

/// The faces a session companion works from (face-driven adjustments, Center Stage): an output
/// that pins nothing, forwarding the stream's frames while on to a faces-only analysis of its
/// own, loaded the first time it is needed. The analysis has a lock of its own, so that frames
/// never wait for what the companion does with the faces (control writes take milliseconds).
final class CompanionFaces: @unchecked Sendable {
    let output = VideoDataOutput()
    private let forwarding = Atomic<Bool>(false)
    private let analysis = Locked<MetadataOutput?>(nil)
    private let width: Int?
    private let observer: (GreyPicture, [MetadataObject]) -> Void

    /// `observer` gets each analysed grey copy and the faces in it, on the analysis thread;
    /// `width` is the copy's (nil: a metadata output's own).
    init(width: Int? = nil, observer: @escaping (GreyPicture, [MetadataObject]) -> Void) {
        (self.width, self.observer) = (width, observer)
        output.frameViewHandler = { [unowned(unsafe) self] frame in
            guard self.forwarding.load(ordering: .relaxed), let analysis = self.analysis.withLock({ $0 }) else { return }
            analysis.take(frame)
        }
    }

    /// The output to feed, forwarding from now at `rate` analyses a second; nil without a face
    /// detector (nothing to work from).
    func start(rate: Double) -> VideoDataOutput? {
        let loaded = analysis.withLock { current -> MetadataOutput? in
            if current == nil, let made = try? MetadataOutput(objectTypes: .faces) {
                made.analysisObserver = observer
                if let width { made.analysisWidth = width }
                current = made
            }
            return current
        }
        guard let loaded else { return nil }
        try? loaded.setMaximumAnalysisRate(rate)
        output.waitForHandedOffWork = { loaded.waitUntilIdle() }
        forwarding.store(true, ordering: .relaxed)
        return output
    }

    /// Stops forwarding and returns once no analysis runs (not from the analysis thread).
    func stop() {
        forwarding.store(false, ordering: .relaxed)
        analysis.withLock { $0 }?.waitUntilIdle()
    }

    var isForwarding: Bool { forwarding.load(ordering: .relaxed) }

    func setRate(_ rate: Double) {
        try? analysis.withLock { $0 }?.setMaximumAnalysisRate(rate)
    }
}
