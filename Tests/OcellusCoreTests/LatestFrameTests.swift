import Testing

@testable import OcellusCapture
@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The one-deep slot behind `oc_video_data_output_copy_next_frame` and the output's descriptor.
@Suite struct LatestFrameTests {
    /// A 4x1 grey frame whose bytes are all `value`, handed to `body` while they live.
    func withFrame<T>(sequence: UInt64, value: UInt8, _ body: (CameraFrame) -> T) -> T {
        let bytes = [UInt8](repeating: value, count: 4)
        return bytes.withUnsafeBytes { raw in
            body(
                CameraFrame(
                    pixelFormat: .grey, width: 4, height: 1, sequence: sequence, timestampNanoseconds: sequence * 1000,
                    planes: FramePlane(bytes: raw, stride: 4)))
        }
    }

    func readable(_ fd: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 1
    }

    @Test func aNewerFrameReplacesOneNotYetTakenAndTheReaderGetsItsOwnCopy() {
        let slot = LatestFrame()
        slot.setStreaming(true)
        withFrame(sequence: 1, value: 10) { slot.store($0) }
        withFrame(sequence: 2, value: 20) { slot.store($0) }
        guard case .frame(let copy) = slot.take(timeoutMilliseconds: 0) else {
            Issue.record("no frame waiting")
            return
        }
        withFrame(sequence: 3, value: 30) { slot.store($0) } // the reader's copy is not overwritten
        #expect(copy.frame.sequence == 2 && copy.frame.plane(0)?.bytes.allSatisfy { $0 == 20 } == true)
        guard case .frame(let next) = slot.take(timeoutMilliseconds: 0), next.frame.sequence == 3 else {
            Issue.record("the third frame was not waiting")
            return
        }
        guard case .timedOut = slot.take(timeoutMilliseconds: 0) else {
            Issue.record("a taken frame was given twice")
            return
        }
    }

    @Test func withoutARunningSessionATakeAnswersAtOnceWithWhyItStopped() {
        let slot = LatestFrame()
        guard case .notStreaming(nil) = slot.take(timeoutMilliseconds: 5000) else {
            Issue.record("waited for a session that is not running")
            return
        }
        slot.setStreaming(true)
        slot.setStreaming(false, stoppedBy: OcellusError(.disconnected, "unplugged"))
        guard case .notStreaming(let error?) = slot.take(timeoutMilliseconds: 5000), error.code == .disconnected else {
            Issue.record("the stop's error was not given")
            return
        }
        #expect(slot.stoppedByError?.message == "unplugged")
        slot.setStreaming(true)
        #expect(slot.stoppedByError == nil)
    }

    @Test func aWaitingReaderIsWokenByAFrameAndByTheSessionStopping() {
        let slot = LatestFrame()
        slot.setStreaming(true)
        var outcome: LatestFrame.Taken?
        let reader = startThread { outcome = slot.take(timeoutMilliseconds: 10_000) }
        withFrame(sequence: 7, value: 1) { slot.store($0) }
        pthread_join(reader, nil)
        guard case .frame(let copy) = outcome, copy.frame.sequence == 7 else {
            Issue.record("the waiting reader did not get the frame: \(String(describing: outcome))")
            return
        }
        let stopped = startThread { outcome = slot.take(timeoutMilliseconds: 10_000) }
        slot.setStreaming(false)
        pthread_join(stopped, nil)
        guard case .notStreaming = outcome else {
            Issue.record("the reader was not woken by the stop: \(String(describing: outcome))")
            return
        }
    }

    @Test func theDescriptorIsReadableExactlyWhileAFrameWaits() throws {
        let slot = LatestFrame()
        slot.setStreaming(true)
        let fd = try slot.fileDescriptor()
        #expect(try slot.fileDescriptor() == fd)
        #expect(!readable(fd))
        withFrame(sequence: 1, value: 1) { slot.store($0) }
        withFrame(sequence: 2, value: 2) { slot.store($0) }
        #expect(readable(fd))
        _ = slot.take(timeoutMilliseconds: 0)
        #expect(!readable(fd))
    }

    @Test func closingWakesReadersForGood() {
        let slot = LatestFrame()
        slot.setStreaming(true)
        var outcome: LatestFrame.Taken?
        let reader = startThread { outcome = slot.take(timeoutMilliseconds: 10_000) }
        slot.close()
        pthread_join(reader, nil)
        guard case .closed = outcome else {
            Issue.record("close did not wake the reader: \(String(describing: outcome))")
            return
        }
        withFrame(sequence: 1, value: 1) { slot.store($0) } // ignored once closed
        guard case .closed = slot.take(timeoutMilliseconds: 0) else {
            Issue.record("a closed slot took a frame")
            return
        }
    }
}
