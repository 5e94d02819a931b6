/// What a backend can do that backend-neutral code decides by: each backend states its own, so
/// that a new backend needs no switch elsewhere (behaviour §1 views of one camera, §4 multitasking).
public struct BackendCapabilities: Hashable, Sendable {
    /// Several apps can stream one of its cameras at once (PipeWire; raw V4L2 is exclusive).
    public var sharesCameras: Bool
    /// It opens microphones, and what the machine plays beside them (echo cancellation).
    public var streamsSound: Bool
    /// It streams the depth formats it lists (V4L2 does; PipeWire lists none it could stream).
    public var streamsDepth: Bool
    /// It is the kernel's own view of a camera's device node (V4L2): it names the camera other
    /// views of that node share, and reaches the controls of any camera with a node.
    public var isKernelView: Bool

    public init(sharesCameras: Bool = false, streamsSound: Bool = false, streamsDepth: Bool = false, isKernelView: Bool = false) {
        (self.sharesCameras, self.streamsSound, self.streamsDepth, self.isKernelView) = (sharesCameras, streamsSound, streamsDepth, isKernelView)
    }

    /// How a view of one camera through this backend ranks among the others (compared first,
    /// higher listed): one that streams the depth it lists, then one apps can share, then the rest.
    func viewRank(listsDepth: Bool) -> Int {
        streamsDepth && listsDepth ? 2 : sharesCameras ? 1 : 0
    }
}
