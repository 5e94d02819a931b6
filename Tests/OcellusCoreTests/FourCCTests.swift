import Testing

@testable import OcellusCore

/// The named codes are literals (see FourCC): each must be the code its characters spell.
@Suite struct FourCCTests {
    @Test(arguments: [
        (FourCC.yuyv, "YUYV"), (.uyvy, "UYVY"), (.nv12, "NV12"), (.i420, "YU12"), (.rgb24, "RGB3"), (.bgr24, "BGR3"),
        (.bgrx, "XR24"), (.bgra, "AR24"), (.rgba, "AB24"), (.grey, "GREY"), (.mjpeg, "MJPG"), (.h264, "H264"),
        (.z16, "Z16"), (.y16, "Y16"), (.y12, "Y12"), (.depthMetres, "Z32F")
    ])
    func namedCodeIsWhatItsCharactersSpell(code: FourCC, characters: String) {
        #expect(code == FourCC(characters))
        #expect(code.description == characters)
    }
}
