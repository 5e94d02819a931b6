@testable import OcellusCapture
@testable import OcellusCore

// What a session's stream thread does with each frame, for tests that play the stream:
// the frame handed over by reference as it arrives.
extension VideoDataOutput {
    func deliver(_ frame: CameraFrame) { withUnsafePointer(to: frame) { deliver($0, arrival: monotonicNanoseconds()) } }
}

extension DepthDataOutput {
    func deliver(_ frame: CameraFrame) { withUnsafePointer(to: frame) { deliver($0, arrival: monotonicNanoseconds()) } }
}
