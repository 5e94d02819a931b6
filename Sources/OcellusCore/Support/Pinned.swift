/// A value at a fixed address for as long as this object lives: for C APIs
/// that keep the pointer they are given (listener tables, hooks).
public final class Pinned<Value> {
    public let pointer: UnsafeMutablePointer<Value>

    public init(_ value: Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
