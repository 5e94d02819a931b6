import Foundation
import Testing

@testable import OcellusCapture
@testable import OcellusCore
@testable import OcellusVoice

/// A stand-in voice engine, named as such: passes sound through unchanged, so that what is
/// measured here is the echo canceller alone.
final class PassThroughEngine: VoiceEngine {
    let name = "pass-through"
    let latency = 0
    func process(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        output.update(from: input, count: VoiceFrame.length)
    }
}

/// Echo cancellation measured on real speech (behaviour §4 microphone modes): alsa-utils' voices
/// as a call's far end, played into a room that returns it to the microphone 40 ms later with a
/// reflection; the near end speaks alone, then over the far end. webrtc-audio-processing through
/// Ocellus's plugin (OCELLUS_ECHO_CANCELLER_LIB, as the Makefile sets it); skipped when it is not
/// built, unless the test command requires it (OCELLUS_REQUIRE_VOICE_ENGINES=1).
@Suite(.serialized) struct EchoCancellationTests {
    static let rate = VoiceIsolationTests.rate
    static let available = VoiceIsolationTests.engineRequired || (try? WebRTCEchoCanceller.Library.load()) != nil

    struct Call {
        var far: [Float]
        var near: [Float]
        var heard: [Float] // the microphone: the near end and the echo of the far end
        var echoOnly: Range<Int>, nearOnly: Range<Int>, doubleTalk: Range<Int>
    }

    /// 0–6 s the far end alone, 6–9 s the near end alone, 9–12 s both.
    static func call() throws -> Call {
        func speech(_ voices: [String], seconds: Int) throws -> [Float] {
            var sound: [Float] = []
            while sound.count < seconds * rate {
                for voice in voices { sound += try VoiceIsolationTests.decode("/usr/share/sounds/alsa/\(voice).wav") }
            }
            return Array(sound.prefix(seconds * rate))
        }
        let silence = { (seconds: Int) in [Float](repeating: 0, count: seconds * rate) }
        let talk = try speech(["Front_Center", "Rear_Left", "Side_Right", "Front_Left"], seconds: 6)
        let reply = try speech(["Rear_Center", "Side_Left", "Front_Right"], seconds: 3)
        let far = talk + silence(3) + Array(talk.prefix(3 * rate))
        let near = silence(6) + reply + reply.map { $0 * 0.8 }
        // The room: the loudspeaker heard 40 ms later at half level, a wall 25 ms after that.
        let direct = rate * 40 / 1000, wall = rate * 65 / 1000
        var heard = near
        for i in heard.indices {
            if i >= direct { heard[i] += 0.5 * far[i - direct] }
            if i >= wall { heard[i] += 0.2 * far[i - wall] }
        }
        return Call(
            far: far, near: near, heard: heard, echoOnly: (2 * rate)..<(6 * rate), nearOnly: (6 * rate)..<(9 * rate),
            doubleTalk: (9 * rate)..<(12 * rate))
    }

    /// The call through a processor with the real canceller: 1024-frame graph cycles, each cycle's
    /// playback pushed before its microphone sound, the next cycle once the worker took this one.
    static func cancel(_ call: Call) throws -> [Float] {
        let format = AudioFormat(sampleRate: UInt32(rate), channels: 1)
        let canceller = try WebRTCEchoCanceller(library: WebRTCEchoCanceller.Library.load())
        let lock = NSLock()
        var output: [Float] = []
        let processor = VoiceProcessor(
            engine: PassThroughEngine(), echo: canceller, format: format, processing: true,
            deliver: { buffer in lock.withLock { output += buffer.samples } }, onDrop: { _ in })
        var at = 0
        while at < call.heard.count {
            let part = at..<min(at + 1024, call.heard.count)
            let time = 1_000_000_000 + UInt64(at) * 1_000_000_000 / UInt64(rate) // both of the same cycle
            call.far[part].withUnsafeBufferPointer { processor.pushPlayed(AudioBuffer(format: format, samples: $0, timestampNanoseconds: time)) }
            call.heard[part].withUnsafeBufferPointer { processor.push(AudioBuffer(format: format, samples: $0, timestampNanoseconds: time)) }
            at = part.upperBound
            // Cycle by cycle, as a running graph delivers them (not a second of playback at once).
            while processor.queuedFrames >= VoiceFrame.length { usleep(200) }
        }
        processor.finish()
        return lock.withLock { output }
    }

    static func power(_ signal: [Float], _ range: Range<Int>) -> Double {
        signal[range].reduce(0.0) { $0 + Double($1) * Double($1) }
    }

    @Test(.enabled(if: available)) func theEchoOfWhatIsPlayedIsRemovedAndTheNearEndKeptInTime() throws {
        let call = try Self.call()
        let output = try Self.cancel(call)
        try #require(output.count == call.heard.count)
        let enhancement = VoiceIsolationTests.decibels(Self.power(call.heard, call.echoOnly) / Self.power(output, call.echoOnly))
        let nearLevel = VoiceIsolationTests.decibels(Self.power(output, call.nearOnly) / Self.power(call.near, call.nearOnly))
        // In double talk: how much of the near end comes through (its projection on the output).
        let doubleTalk = Array(call.doubleTalk)
        let kept = doubleTalk.reduce(0.0) { $0 + Double(output[$1]) * Double(call.near[$1]) } / Self.power(call.near, call.doubleTalk)
        let keptLevel = 20 * log10(max(kept, 1e-9))
        print(
            "echo cancellation (webrtc): ERLE \(enhancement) dB after 2 s, near end alone \(nearLevel) dB, "
                + "near end in double talk \(keptLevel) dB")
        #expect(enhancement >= 20, "echo return loss enhancement: \(enhancement) dB")
        #expect(abs(nearLevel) <= 3, "the near end alone: \(nearLevel) dB")
        #expect(keptLevel >= -10, "the near end in double talk: \(keptLevel) dB (a canceller that mutes it is a walkie-talkie)")

        // The canceller's declared latency is what the processor takes out: the near end alone
        // (6 s to 7 s) matches best at lag 0 — within a quarter millisecond, as the high-pass
        // filter delays the lowest frequencies of speech a little.
        let best = VoiceIsolationTests.bestLag(of: output, against: call.near, from: 6 * Self.rate, length: Self.rate, within: -600...600)
        #expect(abs(best) <= 12, "output lags the microphone by \(best) samples after the processor's alignment")
    }

    @Test func aMissingPluginSaysWhatAndWhere() throws {
        let environment = { $0 == "OCELLUS_ECHO_CANCELLER_LIB" ? "/nonexistent/libocellus-echo-webrtc.so" : nil }
        do throws(OcellusError) { _ = try WebRTCEchoCanceller.Library.load(environment: environment); Issue.record("loaded a plugin that is not there") } catch
        {
            #expect(error.code == .libraryUnavailable)
            #expect(error.message.contains("libwebrtc-audio-processing1") && error.message.contains("/nonexistent/libocellus-echo-webrtc.so"))
        }
    }

    @Test func aLibraryThatIsNotThePluginIsRefused() throws {
        let environment = { $0 == "OCELLUS_ECHO_CANCELLER_LIB" ? "libm.so.6" : nil }
        do throws(OcellusError) { _ = try WebRTCEchoCanceller.Library.load(environment: environment); Issue.record("libm loaded as the plugin") } catch {
            #expect(error.message.contains("libm.so.6 is not Ocellus's echo canceller plugin"))
        }
    }
}
