import Foundation
import OcellusTestSupport
import Synchronization
import Testing

@testable import OcellusCapture
@testable import OcellusCore

/// One slow handler holds up only its own output (issue 25, item 7): a stream feeding several
/// outputs hands each frame to each output's own thread, lending the camera's buffer rather than
/// copying it; the loans go back to the camera once, and a stream waits for them before freeing
/// its buffers. Streams are fed by hand from the test thread, standing for a backend's thread (the
/// Python suite runs the same on the real PipeWire daemon).
@Suite struct OutputIsolationTests {
    static let camera = Device(
        uniqueID: "usb-1234:5678-X", name: "Camera", type: .externalCamera, position: .unspecified, backend: .v4l2,
        backendKey: "k", formats: [VideoFormat(pixelFormat: .yuyv, width: 4, height: 2, frameRates: [FrameRate(30)])],
        vendorID: 0x1234, productID: 0x5678, serialNumber: "X", pluggedMicroseconds: nil, properties: [:])

    /// A handler that blocks until `open()`: a slow app.
    final class Gate: @unchecked Sendable {
        private let lock = ConditionLock()
        private var isOpen = false
        private(set) var entered = 0
        func pass() {
            lock.withLock {
                entered += 1
                lock.broadcast()
                while !isOpen { lock.wait() }
            }
        }
        func waitForEntry(_ count: Int) -> Bool {
            lock.withLock {
                let deadline = monotonicNanoseconds() + 5_000_000_000
                while entered < count { if !lock.wait(untilMonotonicNanoseconds: deadline) { return entered >= count } }
                return true
            }
        }
        func open() {
            lock.withLock {
                isOpen = true; lock.broadcast()
            }
        }
    }

    /// A value shared with handlers on other threads.
    final class Shared<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
    }

    /// Records the buffers given back to the "camera".
    final class Camera: @unchecked Sendable {
        private let lock = NSLock()
        private var back: [UInt] = []
        lazy var loans = BufferLoans { [unowned self] token in lock.withLock { back.append(token) } }
        var givenBack: [UInt] { lock.withLock { back } }
    }

    /// Feeds frame `sequence` (bytes all `sequence`) through `stream` as buffer `token`; true when an output borrowed it.
    @discardableResult
    static func feed(
        _ stream: ScriptedStream, sequence: UInt64, token: UInt, storage: UnsafeMutableRawBufferPointer,
        lender: Camera?
    ) -> Bool {
        storage.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: sequence))
        let frame = CameraFrame(
            pixelFormat: .yuyv, width: 4, height: 2, sequence: sequence, timestampNanoseconds: monotonicNanoseconds(),
            planes: FramePlane(bytes: UnsafeRawBufferPointer(storage), stride: 8))
        guard let lender else {
            stream.feed(frame)
            return false
        }
        return lender.loans.handOver(token) { stream.feed(frame, lender: lender.loans) }
    }

    @Test func aBufferLentTwiceGoesBackOnceWhenBothReturnIt() {
        let camera = Camera()
        #expect(camera.loans.borrowDeliveringBuffer() == nil, "nothing is lent outside a hand-over")
        var tokens: [UInt?] = []
        let borrowed = camera.loans.handOver(7) { tokens = [camera.loans.borrowDeliveringBuffer(), camera.loans.borrowDeliveringBuffer()] }
        #expect(borrowed && tokens == [7, 7])
        camera.loans.returnBuffer(7)
        #expect(camera.givenBack.isEmpty && camera.loans.outstandingLoans == 1)
        camera.loans.returnBuffer(7)
        #expect(camera.givenBack == [7] && camera.loans.outstandingLoans == 0)
        camera.loans.returnBuffer(7) // a return too many changes nothing
        #expect(camera.givenBack == [7])
        #expect(!camera.loans.handOver(8) {}, "a buffer nobody borrowed is the stream's to queue")
    }

    /// Lends buffer `token` and returns it from another thread 100 ms later; the flag turns true just before.
    static func lendAndReturnLater(_ token: UInt, from camera: Camera) -> Shared<Bool> {
        _ = camera.loans.handOver(token) { _ = camera.loans.borrowDeliveringBuffer() }
        let returned = Shared<Bool>(false)
        Thread {
            usleep(100_000)
            returned.withLock { $0 = true }
            camera.loans.returnBuffer(token)
        }.start()
        return returned
    }

    @Test func closingWaitsForEveryLoanAndGivesNothingBackAfter() {
        let camera = Camera()
        let returned = Self.lendAndReturnLater(3, from: camera)
        camera.loans.close()
        #expect(returned.withLock { $0 }, "close returned while a buffer was still lent")
        #expect(camera.givenBack.isEmpty, "the stream is closing: nothing goes back to the camera")
        var refused: UInt?
        _ = camera.loans.handOver(4) { refused = camera.loans.borrowDeliveringBuffer() }
        #expect(refused == nil, "a closed stream lends nothing (the output copies)")
    }

    @Test func aWithdrawnBufferIsAwaitedAndNotGivenBack() {
        let camera = Camera()
        let returned = Self.lendAndReturnLater(5, from: camera)
        camera.loans.withdraw(5)
        #expect(returned.withLock { $0 })
        #expect(camera.givenBack.isEmpty)
    }

    /// The fed stream's thread: runs the feeding, one job at a time, for the whole run (a thread
    /// that ended could hand its id to the next one, which the session would take for its stream's).
    final class Feeder: @unchecked Sendable {
        private let lock = ConditionLock()
        private var jobs: [() -> Void] = []
        private var (posted, done) = (0, 0)
        private var finished = false

        init() { pthread_detach(startThread { [self] in work() }) }

        /// Runs `body` on the feeder's thread; false when it did not finish within 5 s (a handler
        /// held the stream thread).
        func run(_ body: @escaping () -> Void) -> Bool {
            let ticket = lock.withLock { () -> Int in
                jobs.append(body)
                posted += 1
                lock.broadcast()
                return posted
            }
            return lock.withLock {
                let deadline = monotonicNanoseconds() + 5_000_000_000
                while done < ticket { if !lock.wait(untilMonotonicNanoseconds: deadline) { return done >= ticket } }
                return true
            }
        }

        func finish() {
            lock.withLock {
                finished = true; lock.broadcast()
            }
        }

        private func work() {
            while true {
                let job = lock.withLock { () -> (() -> Void)? in
                    while jobs.isEmpty && !finished { lock.wait() }
                    return jobs.isEmpty ? nil : jobs.removeFirst()
                }
                guard let job else { return }
                job()
                lock.withLock {
                    done += 1; lock.broadcast()
                }
            }
        }
    }

    /// Waits up to 5 s for `condition`.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() && Date() < deadline { usleep(1000) }
        return condition()
    }

    /// A session on a fed stream with a slow output and a quick one; frames come from a feeder
    /// thread, as from a backend's.
    func run(
        lender: Camera?,
        body: (
            Feeder, (UInt64, UInt) -> Bool, Gate, VideoDataOutput, VideoDataOutput,
            UnsafeMutableRawBufferPointer
        ) throws -> Void
    ) throws {
        let opener = ScriptedBackend()
        let session = CaptureSession(opener: opener)
        try session.addInput(Self.camera)
        let slow = VideoDataOutput(), quick = VideoDataOutput()
        try session.addOutput(slow)
        try session.addOutput(quick)
        try session.startRunning()
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 16)
        let gate = Gate(), feeder = Feeder()
        defer { // also when the body failed (the session then stops as it goes)
            gate.open()
            feeder.finish()
        }
        let stream = opener.opened[0]
        // Frame `sequence` in buffer `token`; true when an output borrowed it (false also when feeding timed out).
        let feed = { (sequence: UInt64, token: UInt) -> Bool in
            let lent = Shared<Bool>(false)
            guard feeder.run({ lent.withLock { $0 = Self.feed(stream, sequence: sequence, token: token, storage: storage, lender: lender) } }) else {
                return false
            }
            return lent.withLock { $0 }
        }
        try body(feeder, feed, gate, slow, quick, storage)
        gate.open()
        try session.stopRunning()
        storage.deallocate() // not after a failure: a handler may still read it
    }

    @Test func aSlowHandlerHoldsUpOnlyItsOwnOutput() throws {
        let camera = Camera()
        try run(lender: camera) { feeder, feed, gate, slow, quick, storage in
            let slowFrames = Shared<[(UInt64, UnsafeRawPointer?)]>([])
            let quickFrames = Shared<[UInt64]>([])
            slow.frameHandler = { frame in
                slowFrames.withLock { $0.append((frame.sequence, frame.plane(0)!.bytes.baseAddress)) }
                gate.pass()
            }
            quick.frameHandler = { frame in quickFrames.withLock { $0.append(frame.sequence) } }
            // Were the slow handler called on the stream's thread, feeding would stop there.
            #expect(feed(1, 1), "the buffer was lent, not copied (or feeding stopped in the slow handler)")
            #expect(gate.waitForEntry(1))
            for sequence in UInt64(2)...10 {
                _ = feed(sequence, 1 + UInt(sequence % 2))
                // Paced: each frame is delivered to the quick output (or, when it came just before its
                // thread was idle again, dropped as late) before the next comes.
                try #require(
                    Self.eventually { UInt64(quickFrames.withLock { $0.count }) + quick.droppedFrames(.late) >= sequence },
                    "the quick output got \(quickFrames.withLock { $0 }) while the slow one blocked")
            }
            #expect(quickFrames.withLock { $0.count } >= 5, "the quick output got \(quickFrames.withLock { $0 }) of 10 while the slow one blocked")
            #expect(slowFrames.withLock { $0.map(\.0) } == [1], "the slow output is given no frame while it is busy")
            #expect(slowFrames.withLock { $0.first?.1 } == UnsafeRawPointer(storage.baseAddress), "zero-copy: the camera's own buffer")
            #expect(slow.droppedFrames(.late) == 9, "its frames drop as late while it is busy: \(slow.droppedFrames(.late))")
            #expect(!camera.givenBack.contains(1), "buffer 1 is still being read")
            gate.open()
            #expect(Self.eventually { camera.loans.outstandingLoans == 0 })
            #expect(camera.givenBack.contains(1), "buffer 1 goes back to the camera when the slow handler returns")
            #expect(Self.eventually { slow.deliveredFrames == 1 })
        }
    }

    @Test func framesFromAStreamThatCannotLendAreCopiedForTheOutputsThread() throws {
        try run(lender: nil) { feeder, feed, gate, slow, quick, storage in
            let seen = Shared<(UInt8, UnsafeRawPointer?)?>(nil)
            slow.frameHandler = { frame in
                gate.pass() // the stream has moved on: the bytes must still be frame 1's
                let plane = frame.plane(0)!.bytes
                seen.withLock { $0 = (plane[7], plane.baseAddress) }
            }
            _ = feed(1, 1)
            #expect(gate.waitForEntry(1))
            _ = feed(2, 1) // overwrites the camera's buffer
            gate.open()
            #expect(Self.eventually { seen.withLock { $0 != nil } })
            let (byte, address) = seen.withLock { $0 } ?? (0, nil)
            #expect(byte == 1 && address != UnsafeRawPointer(storage.baseAddress), "a copy of frame 1")
        }
    }

    @Test func aLoneOutputIsCalledOnTheStreamThreadAndStopWaitsForIsolatedHandlers() throws {
        let opener = ScriptedBackend()
        let session = CaptureSession(opener: opener)
        try session.addInput(Self.camera)
        let lone = VideoDataOutput()
        let threads = Shared<[UInt]>([])
        lone.frameHandler = { _ in threads.withLock { $0.append(UInt(pthread_self())) } }
        try session.addOutput(lone)
        try session.startRunning()
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 16)
        defer { storage.deallocate() }
        Self.feed(opener.opened[0], sequence: 1, token: 1, storage: storage, lender: nil)
        #expect(threads.withLock { $0 } == [UInt(pthread_self())], "one output: nothing to isolate, no thread hop")

        // A second output: the first now delivers on its own thread, where stopping is refused.
        let other = VideoDataOutput()
        try session.addOutput(other)
        let gate = Gate()
        let refusal = Shared<OcellusError?>(nil)
        lone.frameHandler = { _ in
            do throws(OcellusError) { try session.stopRunning() } catch { refusal.withLock { $0 = error } }
            gate.pass()
        }
        Self.feed(opener.opened[0], sequence: 2, token: 1, storage: storage, lender: nil)
        #expect(gate.waitForEntry(1))
        #expect(refusal.withLock { $0?.code } == .wrongState, "stopping from an output's own thread would wait for itself")
        let stopped = Shared<Bool>(false)
        let stopper = Thread {
            try? session.stopRunning()
            stopped.withLock { $0 = true }
        }
        stopper.start()
        usleep(100_000)
        #expect(!stopped.withLock { $0 }, "stop returned while a handler was still running")
        gate.open()
        let deadline = Date().addingTimeInterval(5)
        while !stopped.withLock { $0 } && Date() < deadline { usleep(1000) }
        #expect(stopped.withLock { $0 })
    }
}
