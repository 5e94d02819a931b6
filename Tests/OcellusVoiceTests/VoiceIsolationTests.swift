import Foundation
import Testing

@testable import OcellusCapture
@testable import OcellusCore
@testable import OcellusVoice

/// Voice isolation measured on real sound (behaviour §4 microphone modes): speech that Debian
/// ships (alsa-utils' recorded voice) with pauses, keyboard typing (bucklespring-data's recorded
/// key presses) mixed in at 5 dB SNR, decoded and resampled by sox at test time, fed to the
/// processor with the real engines (RNNoise, DeepFilterNet). Skipped (and said so) when no RNNoise is installed, unless the
/// test command requires it (OCELLUS_REQUIRE_VOICE_ENGINES=1, as scripts/test.sh does): then they fail.
@Suite(.serialized) struct VoiceIsolationTests {
    static let rate = 48_000

    /// Mono 48 kHz float samples sox writes for `input` (a file, or `-n` and an effect).
    static func sox(_ input: [String], effects: [String] = []) throws -> [Float] {
        let sox = Process()
        sox.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sox.arguments = ["sox"] + input + ["-t", "f32", "-e", "floating-point", "-r", "\(rate)", "-c", "1", "-"] + effects
        let pipe = Pipe()
        sox.standardOutput = pipe
        try sox.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        sox.waitUntilExit()
        try #require(sox.terminationStatus == 0, "sox could not make \(input + effects)")
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Mono 48 kHz samples of an audio file, through sox.
    static func decode(_ path: String) throws -> [Float] { try sox([path]) }

    struct Mix {
        var clean: [Float]
        var noise: [Float]
        var mixed: [Float]
        /// 10 ms windows holding speech, and windows of pause at least 100 ms from any speech.
        var speechWindows: [Int]
        var pauseWindows: [Int]
    }

    /// What a noise source sounds like, as long as `length` samples.
    enum Noise {
        /// Keyboard typing: bucklespring-data's key presses, one every 90–200 ms.
        case typing
        /// A fan: pink noise, synthesised by sox.
        case fan
    }

    /// Pink noise from sox (`synth pinknoise`), `length` samples.
    static func pinkNoise(length: Int) throws -> [Float] {
        let noise = try sox(["-n"], effects: ["synth", String(format: "%.3f", Double(length) / Double(rate)), "pinknoise"])
        return Array((noise + [Float](repeating: 0, count: max(0, length - noise.count))).prefix(length))
    }

    /// Speech with 0.7 s pauses, `noise` throughout (typing: a key every 90–200 ms), at `snr` dB over the speech.
    static func mix(snr: Double, noise kind: Noise = .typing) throws -> Mix {
        let voices = ["Front_Center", "Front_Left", "Front_Right", "Rear_Center", "Rear_Left", "Rear_Right", "Side_Left", "Side_Right"]
        let pause = [Float](repeating: 0, count: rate * 7 / 10)
        var clean = pause
        for voice in voices { clean += try decode("/usr/share/sounds/alsa/\(voice).wav") + pause }
        let keyFiles = try FileManager.default.contentsOfDirectory(atPath: "/usr/share/buckle/wav").filter { $0.hasSuffix(".wav") }.sorted()
        try #require(keyFiles.count > 20, "bucklespring-data's key sounds")
        var keys: [[Float]] = []
        for name in keyFiles.prefix(24) { keys.append(try decode("/usr/share/buckle/wav/\(name)")) }
        var noise = kind == .fan ? try pinkNoise(length: clean.count) : [Float](repeating: 0, count: clean.count)
        var random: UInt64 = 42
        var at = kind == .fan ? noise.count : 0
        while at < noise.count {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            let key = keys[Int(random >> 33) % keys.count]
            for (i, sample) in key.enumerated() where at + i < noise.count { noise[at + i] += sample }
            at += rate * (90 + Int(random >> 40) % 110) / 1000
        }
        let window = rate / 100
        let energies = stride(from: 0, to: clean.count - window, by: window).map { start in
            clean[start..<(start + window)].reduce(0) { $0 + $1 * $1 }
        }
        let loudest = energies.max()!
        let speech = energies.indices.filter { energies[$0] > loudest * 1e-4 } // within 40 dB of the loudest
        let near = Set(speech.flatMap { ($0 - 10)...($0 + 10) })
        let pauses = energies.indices.filter { !near.contains($0) }
        // Scale the typing so that speech (where it speaks) stands `snr` dB over it.
        let speechPower = speech.map { energies[$0] }.reduce(0, +) / Float(speech.count * window)
        let noisePower = noise.reduce(0) { $0 + $1 * $1 } / Float(noise.count)
        let gain = Float((Double(speechPower) / Double(noisePower) / pow(10, snr / 10)).squareRoot())
        noise = noise.map { $0 * gain }
        return Mix(clean: clean, noise: noise, mixed: zip(clean, noise).map(+), speechWindows: speech, pauseWindows: pauses)
    }

    static func energy(_ signal: [Float], in windows: [Int]) -> Double {
        let window = rate / 100
        return windows.reduce(0.0) { sum, index in
            sum + signal[(index * window)..<((index + 1) * window)].reduce(0.0) { $0 + Double($1) * Double($1) }
        }
    }

    static func decibels(_ ratio: Double) -> Double { 10 * log10(ratio) }

    /// Scale-invariant signal-to-distortion ratio of `estimate` against `reference`, in dB.
    static func siSDR(_ estimate: [Float], _ reference: [Float]) -> Double {
        let dot = zip(estimate, reference).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
        let power = reference.reduce(0.0) { $0 + Double($1) * Double($1) }
        let target = reference.map { Double($0) * dot / power }
        let targetPower = target.reduce(0.0) { $0 + $1 * $1 }
        let distortion = zip(estimate, target).reduce(0.0) { $0 + (Double($1.0) - $1.1) * (Double($1.0) - $1.1) }
        return decibels(targetPower / distortion)
    }

    /// The lag of `reference` at which it best matches `output` over `length` samples from `start`
    /// (raw pointers: a debug build is slow otherwise).
    static func bestLag(
        of output: [Float], against reference: [Float], from start: Int, length: Int,
        within lags: ClosedRange<Int>
    ) -> Int {
        func correlation(_ lag: Int) -> Float {
            output.withUnsafeBufferPointer { out in
                reference.withUnsafeBufferPointer { ref in
                    var sum: Float = 0
                    for i in start..<(start + length) { sum += out[i] * ref[i + lag] }
                    return sum
                }
            }
        }
        return lags.max { correlation($0) < correlation($1) }!
    }

    static var engineRequired: Bool { ProcessInfo.processInfo.environment["OCELLUS_REQUIRE_VOICE_ENGINES"] == "1" }

    /// The engines measured: each runs where it is installed, or where it must be (then a missing
    /// one fails the test, saying what is missing).
    static let engines = ["rnnoise", "deepfilternet"]

    static func engine(_ name: String) throws(OcellusError) -> any VoiceEngine {
        name == "rnnoise" ? try RNNoise(library: RNNoise.Library.load()) : try DeepFilterNet(library: DeepFilterNet.Library.load())
    }

    static let installed = engines.filter { engineRequired || (try? engine($0)) != nil }

    /// `input` (mono) through a processor, in 1024-frame pushes as PipeWire sends them, never
    /// more than a tenth of a second ahead of the engine (a microphone cannot be: nothing dropped).
    static func process(_ input: [Float], engine: any VoiceEngine, processing: Bool = true) -> [Float] {
        let format = AudioFormat(sampleRate: UInt32(rate), channels: 1)
        let lock = NSLock()
        var output: [Float] = []
        output.reserveCapacity(input.count)
        let processor = VoiceProcessor(
            engine: engine, format: format, processing: processing,
            deliver: { buffer in lock.withLock { output += buffer.samples } }, onDrop: { _ in })
        var at = 0
        while at < input.count {
            let count = min(1024, input.count - at)
            input[at..<(at + count)].withUnsafeBufferPointer {
                processor.push(AudioBuffer(format: format, samples: $0, timestampNanoseconds: UInt64(at) * 1_000_000_000 / UInt64(rate)))
            }
            at += count
            while processor.queuedFrames > rate / 10 { usleep(1_000) }
        }
        processor.finish()
        return lock.withLock { output }
    }

    @Test(arguments: installed) func typingAtFiveDecibelsIsRemovedAndTheVoiceKept(name: String) throws {
        let engine = try Self.engine(name)
        let mix = try Self.mix(snr: 5)
        let output = Self.process(mix.mixed, engine: engine)
        try #require(output.count == mix.mixed.count)
        let noiseLeft = Self.decibels(Self.energy(output, in: mix.pauseWindows) / Self.energy(mix.mixed, in: mix.pauseWindows))
        let speechLevel = Self.decibels(Self.energy(output, in: mix.speechWindows) / Self.energy(mix.clean, in: mix.speechWindows))
        let improvement = Self.siSDR(output, mix.clean) - Self.siSDR(mix.mixed, mix.clean)
        print(
            "voice isolation (\(name)), typing at 5 dB SNR: noise in pauses \(noiseLeft) dB, speech level \(speechLevel) dB, "
                + "SI-SDR \(Self.siSDR(mix.mixed, mix.clean)) → \(Self.siSDR(output, mix.clean)) dB")
        #expect(noiseLeft <= -20, "typing left in the pauses: \(noiseLeft) dB")
        #expect(abs(speechLevel) <= 3, "speech level: \(speechLevel) dB")
        #expect(improvement >= 5, "SI-SDR improvement: \(improvement) dB")
    }

    @Test(arguments: installed) func aFanAtFiveDecibelsIsRemovedAndTheVoiceKept(name: String) throws {
        let engine = try Self.engine(name)
        let mix = try Self.mix(snr: 5, noise: .fan)
        let output = Self.process(mix.mixed, engine: engine)
        try #require(output.count == mix.mixed.count)
        let noiseLeft = Self.decibels(Self.energy(output, in: mix.pauseWindows) / Self.energy(mix.mixed, in: mix.pauseWindows))
        let speechLevel = Self.decibels(Self.energy(output, in: mix.speechWindows) / Self.energy(mix.clean, in: mix.speechWindows))
        print("voice isolation (\(name)), a fan (pink noise) at 5 dB SNR: noise in pauses \(noiseLeft) dB, speech level \(speechLevel) dB")
        #expect(noiseLeft <= -20, "fan left in the pauses: \(noiseLeft) dB")
        #expect(abs(speechLevel) <= 3, "speech level: \(speechLevel) dB")
    }

    @Test(arguments: installed) func theOutputIsAlignedWithTheMicrophone(name: String) throws {
        let engine = try Self.engine(name)
        let mix = try Self.mix(snr: 20)
        let output = Self.process(mix.mixed, engine: engine)
        // The engine's declared latency is what the processor takes out: the best match is at lag 0.
        // Over the first utterance (0.7 s to 1.7 s).
        let best = Self.bestLag(of: output, against: mix.clean, from: Self.rate * 7 / 10, length: Self.rate, within: -1_200...1_200)
        #expect(abs(best) <= 2, "output lags the microphone by \(best) samples after the processor's alignment")
    }

    @Test(arguments: installed) func wideSpectrumThroughTheProcessorIsBitExact(name: String) throws {
        let engine = try Self.engine(name)
        let mix = try Self.mix(snr: 5)
        let output = Self.process(mix.mixed, engine: engine, processing: false)
        #expect(output.count == mix.mixed.count && output == mix.mixed)
    }

    @Test func aMissingLibrarySaysWhatAndWhere() throws {
        let environment = { $0 == "OCELLUS_RNNOISE_LIB" ? "/nonexistent/librnnoise.so" : nil }
        #expect(throws: OcellusError.self) { try RNNoise.Library.load(environment: environment) }
        do throws(OcellusError) { _ = try RNNoise.Library.load(environment: environment) } catch {
            #expect(error.code == .libraryUnavailable)
            #expect(error.message.contains("OCELLUS_RNNOISE_LIB") && error.message.contains("/nonexistent/librnnoise.so"))
        }
    }

    @Test func aDeepFilterNetWithoutItsModelSaysSo() throws {
        let environment = { $0 == "OCELLUS_DEEPFILTER_MODEL" ? "/nonexistent/model.tar.gz" : getenv($0).map { String(cString: $0) } }
        do throws(OcellusError) { _ = try DeepFilterNet.Library.load(environment: environment); Issue.record("loaded without a model") } catch {
            #expect(error.code == .libraryUnavailable)
            #expect(error.message.contains("OCELLUS_DEEPFILTER"), "says what to set: \(error.message)")
        }
    }

    @Test func aLibraryThatIsNotRNNoiseIsRefused() throws {
        do throws(OcellusError) {
            _ = try RNNoise.Library.load(environment: { $0 == "OCELLUS_RNNOISE_LIB" ? "libm.so.6" : nil }); Issue.record("libm loaded as RNNoise")
        } catch {
            #expect(error.message.contains("libm.so.6 is not RNNoise"))
        }
    }
}
