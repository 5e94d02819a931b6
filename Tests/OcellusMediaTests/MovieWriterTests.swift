import OcellusCore
import Testing

@testable import OcellusMedia

#if canImport(Glibc)
import Glibc
#endif

/// A recording with a microphone that delivers nothing: the picture is written fragment by
/// fragment all the same (a crash loses at most the last second), the sound track is silence.
@Suite struct MovieWriterTests {
    func bytes(of path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var result: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return result }
            result += chunk[0..<count]
        }
    }

    func fragments(_ file: [UInt8]) -> Int {
        let moof = Array("moof".utf8)
        return (0..<max(0, file.count - 4)).filter { Array(file[$0..<$0 + 4]) == moof }.count
    }

    @Test func videoFragmentsAreWrittenWhileTheMicrophoneIsSilent() throws {
        let path = "/tmp/ocellus-writer-silent-\(getpid()).mp4"
        defer { unlink(path) }
        let pixels = [UInt8](repeating: 128, count: 160 * 120 * 2)
        var silentCalls = 0
        do {
            let writer = try MovieWriter(
                path: path,
                video: .init(
                    pixelFormat: .yuyv, width: 160, height: 120,
                    frameRate: FrameRate(30), rotation: 0),
                audio: AudioFormat())
            writer.onMicrophoneSilent = { silentCalls += 1 }
            let view = pixels.withUnsafeBytes { $0 } // `pixels` outlives the writes
            for index in 0..<90 { // three seconds, and not a sample of sound
                try writer.write(
                    CameraFrame(
                        pixelFormat: .yuyv, width: 160, height: 120, sequence: UInt64(index),
                        timestampNanoseconds: 1_000_000_000 + UInt64(index) * 33_333_333,
                        planes: FramePlane(bytes: view, stride: 320)))
            }
            // Before finish(): what a SIGKILL would leave on disk.
            let file = bytes(of: path)
            #expect(fragments(file) >= 2, "only \(file.count) bytes reached the file")
            #expect(silentCalls == 1)
            #expect(writer.silenceFilledSamples >= 2 * 48_000) // the three seconds less the margin, in whole AAC frames
            try writer.finish()
            #expect(writer.framesWritten == 90)
        }
    }

    /// Sound that starts after the first picture and stops before the last: the track still
    /// starts at 0 (leading silence) and ends with the picture (trailing silence), so players
    /// and editors see two tracks of one length.
    @Test func soundTrackSpansThePicture() throws {
        let path = "/tmp/ocellus-writer-span-\(getpid()).mp4"
        defer { unlink(path) }
        let pixels = [UInt8](repeating: 128, count: 160 * 120 * 2)
        let format = AudioFormat()
        let tone = (0..<(48_000 / 5) * Int(format.channels)).map { Float(sin(Double($0 / Int(format.channels)) * 0.0576)) * 0.5 }
        let writer = try MovieWriter(
            path: path,
            video: .init(
                pixelFormat: .yuyv, width: 160, height: 120,
                frameRate: FrameRate(30), rotation: 0), audio: format)
        let view = pixels.withUnsafeBytes { $0 }
        let start: UInt64 = 1_000_000_000
        for index in 0..<60 { // two seconds; 0.2 s of sound taken 0.3 s in
            try writer.write(
                CameraFrame(
                    pixelFormat: .yuyv, width: 160, height: 120, sequence: UInt64(index),
                    timestampNanoseconds: start + UInt64(index) * 33_333_333,
                    planes: FramePlane(bytes: view, stride: 320)))
            if index == 10 {
                try tone.withUnsafeBufferPointer { samples in
                    try writer.write(AudioBuffer(format: format, samples: samples, timestampNanoseconds: start + 300_000_000))
                }
            }
        }
        try writer.finish()
        let pictureSamples = writer.duration * Double(format.sampleRate)
        #expect(Double(writer.audioSamplesWritten) >= pictureSamples)
        #expect(Double(writer.audioSamplesWritten) < pictureSamples + 1024, "ends within one AAC frame of the picture")
    }
}
