import Foundation
import Synchronization
import Testing

@testable import OcellusCore

/// The rule every output's handler follows (HandlerSlot): replaced from another thread, no
/// call of the old handler runs after the replacement returns; replaced from inside itself,
/// the running call finishes with the old one and the next call gets the new one.
@Suite struct HandlerSlotTests {
    final class Witness: @unchecked Sendable {
        let released = Atomic<Bool>(false)
    }
    final class Capture: @unchecked Sendable {
        let witness: Witness
        init(_ witness: Witness) { self.witness = witness }
        deinit { witness.released.store(true, ordering: .sequentiallyConsistent) }
    }

    @Test func replacementFromAnotherThreadWaitsForTheCallInFlight() {
        let slot = HandlerSlot<Int>()
        let inside = DispatchSemaphore(value: 0)
        let finished = Atomic<Bool>(false)
        slot.replace(with: { _ in
            inside.signal()
            usleep(200_000)
            finished.store(true, ordering: .sequentiallyConsistent)
        })
        let caller = Thread { slot.call(1) }
        caller.start()
        inside.wait()
        slot.replace(with: nil)
        let finishedFirst = finished.load(ordering: .sequentiallyConsistent)
        #expect(finishedFirst, "the replacement returned while the old handler ran")
        slot.call(2) // no handler: nothing runs
    }

    @Test func replacementFromInsideAppliesToTheNextCallAndKeepsTheRunningOneAlive() {
        let slot = HandlerSlot<Int>()
        let witness = Witness()
        var seen: [String] = []
        do {
            let capture = Capture(witness)
            slot.replace(with: { [capture] value in
                slot.replace(with: { seen.append("new \($0)") })
                // The closure holding `capture` was replaced; it must live until this call returns.
                seen.append("old \(value) alive \(!capture.witness.released.load(ordering: .sequentiallyConsistent))")
                #expect(slot.isCallingThread)
            })
        }
        slot.call(1)
        let released = witness.released.load(ordering: .sequentiallyConsistent)
        #expect(released, "the replaced handler was not released after its call")
        slot.call(2)
        #expect(seen == ["old 1 alive true", "new 2"])
        #expect(!slot.isCallingThread)
    }

    @Test func theCurrentHandlerIsReadableAndReplaceable() {
        let slot = HandlerSlot<Int>()
        #expect(slot.current == nil)
        var total = 0
        slot.current = { total += $0 }
        slot.current?(5)
        slot.call(2)
        #expect(total == 7)
        slot.current = nil
        slot.call(3)
        #expect(total == 7)
    }
}
