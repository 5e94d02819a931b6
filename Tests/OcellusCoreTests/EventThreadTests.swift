import Testing

@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// Delivery order and the behaviour §6 unregistration guarantee, with real threads.
@Suite(.timeLimit(.minutes(1))) struct EventThreadTests {
    final class Log: @unchecked Sendable {
        let lock = ConditionLock()
        var values: [Int] = []
        func append(_ value: Int) {
            lock.withLock {
                values.append(value); lock.broadcast()
            }
        }
        func wait(count: Int) -> [Int] {
            let deadline = monotonicNanoseconds() + 5_000_000_000
            return lock.withLock {
                while values.count < count && lock.wait(untilMonotonicNanoseconds: deadline) {}
                return values
            }
        }
    }

    @Test func deliversInOrderOnOneLibraryThread() {
        let events = EventThread<Int>()
        let log = Log()
        let caller = pthread_self()
        let id = events.addObserver { value in
            #expect(pthread_equal(pthread_self(), caller) == 0)
            log.append(value)
        }
        for value in 0..<100 { events.post(value) }
        #expect(log.wait(count: 100) == Array(0..<100))
        #expect(events.removeObserver(id))
        #expect(!events.removeObserver(id))
        events.stop()
    }

    /// A handle destroyed right after a call that posted an event (a session's STOPPED, then
    /// destroy) still tells its observers: stopping delivers what was queued before it, when
    /// asked, while a plain stop drops it.
    @Test func stoppingCanDeliverWhatWasQueuedFirst() {
        for delivering in [true, false] {
            let events = EventThread<Int>()
            let log = Log()
            _ = events.addObserver { value in
                usleep(value == 1 ? 100_000 : 0) // still busy with the first when the stop comes
                log.append(value)
            }
            for value in 1...3 { events.post(value) }
            usleep(20_000)
            events.stop(deliveringQueued: delivering)
            #expect(log.values == (delivering ? [1, 2, 3] : [1]), "delivering queued: \(delivering)")
            events.post(4)
            usleep(20_000)
            #expect(log.values.count == (delivering ? 3 : 1), "nothing after the stop")
        }
    }

    @Test func removeWaitsForTheCallInFlight() {
        let events = EventThread<Int>()
        let started = Log(), finished = Log()
        let id = events.addObserver { value in
            started.append(value)
            usleep(200_000)
            finished.append(value)
        }
        events.post(1)
        _ = started.wait(count: 1)
        #expect(events.removeObserver(id))
        #expect(finished.values == [1])
        events.stop()
    }

    @Test func removingItselfFromInsideACallbackDoesNotDeadlock() {
        let events = EventThread<Int>()
        let log = Log()
        let idBox = Pinned<UInt64>(0)
        idBox.pointer.pointee = events.addObserver { value in
            log.append(value)
            events.removeObserver(idBox.pointer.pointee)
        }
        let other = events.addObserver { value in log.append(value + 100) }
        events.post(1)
        events.post(2)
        #expect(log.wait(count: 3) == [1, 101, 102])
        events.removeObserver(other)
        events.stop()
    }

    /// The thread may not have run a line when its owner is released: the release must not
    /// race the thread's first look at its state (it once crashed reading a freed owner).
    @Test func releasedAsSoonAsItStartsFromManyThreads() {
        let rounds = 2_000
        let threads = (0..<4).map { _ in
            startThread {
                for round in 0..<rounds {
                    let events = EventThread<Int>()
                    _ = events.addObserver { _ in }
                    if round % 2 == 0 { events.post(round) }
                }
            }
        }
        for thread in threads { pthread_join(thread, nil) }
    }

    /// An observer that drops the last reference to its event thread (its owner going away)
    /// returns into a loop whose state must still be there.
    @Test func anObserverReleasingTheLastReferenceReturnsSafely() {
        final class Owner: @unchecked Sendable { var events: EventThread<Int>? = EventThread() }
        let log = Log()
        for round in 0..<200 {
            let owner = Owner()
            _ = owner.events!.addObserver { value in
                owner.events = nil
                log.append(value)
            }
            owner.events!.post(round)
            _ = log.wait(count: round + 1)
        }
        #expect(log.values == Array(0..<200))
    }
}
