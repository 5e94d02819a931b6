/// A camera stream that lends the buffer of the frame it is handing over, so that an output can
/// deliver the frame on a thread of its own without copying it: the buffer stays out of the
/// camera's queue, and mapped, until it is returned. V4L2 streams lend (the kernel takes a buffer
/// back whenever it is queued). PipeWire streams do not: an input stream gives the producer back
/// one buffer per cycle, so every buffer kept past its cycle stays out of circulation for good —
/// measured with PipeWire 0.3.65, the virtual camera stalled for every consumer after a few such
/// frames — and their frames are copied for outputs that deliver on threads of their own.
public protocol CameraBufferLending: AnyObject, Sendable {
    /// Lends the buffer of the frame being handed over: on the stream's thread, during that
    /// frame's handler call only. nil when it cannot be lent (the stream is stopping): the
    /// caller copies the frame instead.
    func borrowDeliveringBuffer() -> UInt?
    /// Gives a borrowed buffer back, once per borrow; from any thread.
    func returnBuffer(_ token: UInt)
}

/// The loans of one stream's buffers, each named by a token the stream picks (not 0): a buffer
/// lent to several outputs goes back to the camera (`giveBack`, outside the lock) when the last
/// returns it, and a stream closes its loans — waiting for every one — before it frees its buffers.
/// Borrowing and returning take a lock and allocate nothing.
public final class BufferLoans: CameraBufferLending, @unchecked Sendable {
    /// More buffers than a stream has (PipeWire allows 64, V4L2 streams here use 4).
    private static let capacity = 64
    private let lock = ConditionLock()
    private let giveBack: (UInt) -> Void
    // Under the lock: a token per slot (0: free), how many borrows it has out, and whether the
    // stream withdrew it (its buffer is going away: never given back).
    private var tokens = [UInt](repeating: 0, count: capacity)
    private var counts = [Int](repeating: 0, count: capacity)
    private var withdrawn = [Bool](repeating: false, count: capacity)
    private var outstanding = 0
    /// Give-backs running outside the lock: closing waits for them too.
    private var givingBack = 0
    private var isOpen = true
    // The stream thread's own: the buffer being handed over, and whether an output borrowed it.
    private var delivering: UInt = 0
    private var deliveringBorrowed = false

    /// `giveBack` queues a buffer to the camera again; it runs on the returning thread.
    public init(giveBack: @escaping (UInt) -> Void) { self.giveBack = giveBack }

    /// Hands the buffer `token` over through `body` (on the stream thread); true when an output
    /// borrowed it, and the stream must not queue it again itself.
    public func handOver(_ token: UInt, _ body: () -> Void) -> Bool {
        (delivering, deliveringBorrowed) = (token, false)
        body()
        delivering = 0
        return deliveringBorrowed
    }

    public func borrowDeliveringBuffer() -> UInt? {
        let token = delivering
        guard token != 0 else { return nil }
        let lent = lock.withLock { () -> Bool in
            guard isOpen, let slot = slot(of: token) ?? slot(of: 0) else { return false }
            (tokens[slot], withdrawn[slot]) = (token, false)
            counts[slot] += 1
            outstanding += 1
            return true
        }
        if lent { deliveringBorrowed = true }
        return lent ? token : nil
    }

    public func returnBuffer(_ token: UInt) {
        let gives = lock.withLock { () -> Bool in
            guard let slot = slot(of: token), counts[slot] > 0 else { return false }
            counts[slot] -= 1
            outstanding -= 1
            guard counts[slot] == 0 else { return false }
            let back = isOpen && !withdrawn[slot]
            (tokens[slot], withdrawn[slot]) = (0, false)
            if back { givingBack += 1 } else { lock.broadcast() }
            return back
        }
        guard gives else { return }
        giveBack(token)
        lock.withLock {
            givingBack -= 1
            lock.broadcast()
        }
    }

    /// The stream is about to drop the buffer `token` (PipeWire renegotiated its buffers): waits
    /// until every borrower has returned it; it is not given back.
    public func withdraw(_ token: UInt) {
        lock.withLock {
            guard let slot = slot(of: token) else { return }
            withdrawn[slot] = true
            while tokens[slot] == token && counts[slot] > 0 { lock.wait() }
        }
    }

    /// Before the stream frees its buffers: nothing more is lent, and this waits until every
    /// loan is back (returns after close give nothing back).
    public func close() {
        lock.withLock {
            isOpen = false
            while outstanding > 0 || givingBack > 0 { lock.wait() }
        }
    }

    /// Loans that are out now.
    public var outstandingLoans: Int { lock.withLock { outstanding } }

    private func slot(of token: UInt) -> Int? { tokens.firstIndex(of: token) }
}
