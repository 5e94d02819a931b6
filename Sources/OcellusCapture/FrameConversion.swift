import OcellusCore

/// Turns frames of one format and size into another for an output.
public protocol FrameConverting: AnyObject {
    /// The converted frame (valid until the next call), or nil when the source cannot be decoded.
    func convert(_ frame: CameraFrame) -> CameraFrame?
    /// A frame that will not be delivered. Over the output's rate (`late` false), a decoder
    /// whose next pictures depend on it (H.264) must still see it; when the output is behind
    /// (`late`), a decoder sheds load instead: it drops the pictures that depend on this one
    /// until the next key frame.
    func skip(_ frame: CameraFrame, late: Bool)
    /// Why such a decoder cannot make a picture of `frame` yet, or nil when it can (`frame` is a
    /// key frame, or follows one): `.discontinuity` before the stream's first key frame (a stream
    /// joined between key frames; its pictures refer to ones never received), `.late` while it
    /// drops frames unseen to catch up. Neither is corruption.
    func keyFrameWait(before frame: CameraFrame) -> FrameDropReason?
}

extension FrameConverting {
    public func skip(_ frame: CameraFrame, late: Bool) {}
    public func keyFrameWait(before frame: CameraFrame) -> FrameDropReason? { nil }
}

/// What conversions a session may use (implemented with libyuv/libjpeg-turbo in OcellusMedia).
public protocol FrameConversion: Sendable {
    func canConvert(from source: FourCC, to target: FourCC) -> Bool
    /// `width`×`height` is the delivered size, after a `rotation` (clockwise, by right angles) and mirroring.
    /// YUV targets come out in full range when `yuvFullRange`, else in video range; RGB and grey in full range.
    func makeConverter(
        to target: FourCC, width: UInt32, height: UInt32, rotation: Int, mirrored: Bool,
        yuvFullRange: Bool
    ) -> any FrameConverting
}
