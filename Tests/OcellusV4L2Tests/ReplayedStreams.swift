import CV4L2
import Foundation
import OcellusCore

/// A profile's nodes streaming: the buffer queue as V4L2 drivers run it (S_FMT, S_PARM, REQBUFS,
/// QUERYBUF, mmap, QBUF, STREAMON, DQBUF, STREAMOFF) behind a descriptor `poll` wakes on, with the
/// frames a test produces (`produceFrame`), numbered and stamped as a driver does. Named for what
/// it is: a stand-in for the kernel's queue, so that a profile replay streams through the backend
/// like a real camera; the vivid and USB gadget suites stream real drivers.
final class ReplayedStreams: @unchecked Sendable {
    private struct Queue {
        let node: String
        /// Readable while a filled buffer waits (what `poll` sees), and its writing end.
        let signal: (read: Int32, write: Int32)
        var pixelFormat: UInt32 = 0, width: UInt32 = 0, height: UInt32 = 0, bytesPerLine: UInt32 = 0, sizeImage: UInt32 = 0
        var interval = v4l2_fract(numerator: 1, denominator: 30)
        var memory: [UnsafeMutableRawPointer?] = []
        var queued: [UInt32] = []
        var filled: [(index: UInt32, bytes: UInt32, sequence: UInt32, timestamp: timeval)] = []
        var streaming = false
        var sequence: UInt32 = 0
        var unplugged = false
    }

    private let lock = NSLock()
    private var queues: [Int32: Queue] = [:]
    /// Buffers are mapped at offsets a page apart per index, as drivers hand them out.
    private static let offsetStep = 1 << 24

    /// A descriptor for an opened node: the reading end of a pipe, so that `poll` works on it.
    func open(node: String) -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return -errno }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        lock.withLock { queues[ends[0]] = Queue(node: node, signal: (ends[0], ends[1])) }
        return ends[0]
    }

    func close(_ fd: Int32) {
        guard let queue = lock.withLock({ queues.removeValue(forKey: fd) }) else { return }
        for memory in queue.memory { memory?.deallocate() }
        Glibc.close(queue.signal.read)
        Glibc.close(queue.signal.write)
    }

    /// Descriptors still open.
    var openCount: Int { lock.withLock { queues.count } }
    /// Nodes streaming now.
    var streamingNodes: [String] { lock.withLock { queues.values.filter(\.streaming).map(\.node) } }
    /// Buffers mapped and not unmapped.
    var mappedBuffers: Int { lock.withLock { queues.values.reduce(0) { $0 + $1.memory.compactMap { $0 }.count } } }

    /// Fills the next buffer the streaming `node` has queued with `fill(bytes, bytesPerLine)` and
    /// wakes its reader; false when no buffer is queued (the reader holds them all) or none streams.
    @discardableResult
    func produceFrame(on node: String, _ fill: (UnsafeMutableRawBufferPointer, Int) -> Void) -> Bool {
        lock.withLock {
            guard let fd = queues.first(where: { $0.value.node == node && $0.value.streaming })?.key,
                var queue = queues[fd], !queue.queued.isEmpty
            else { return false }
            let index = queue.queued.removeFirst()
            guard let memory = queue.memory[Int(index)] else { return false }
            fill(UnsafeMutableRawBufferPointer(start: memory, count: Int(queue.sizeImage)), Int(queue.bytesPerLine))
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            queue.filled.append((index, queue.sizeImage, queue.sequence, timeval(tv_sec: now.tv_sec, tv_usec: now.tv_nsec / 1000)))
            queue.sequence &+= 1
            queues[fd] = queue
            var byte: UInt8 = 1
            _ = write(queue.signal.write, &byte, 1)
            return true
        }
    }

    /// The camera is pulled: its reader wakes and every call answers ENODEV, as after an unplug.
    func unplug(_ node: String) {
        lock.withLock {
            for (fd, queue) in queues where queue.node == node {
                queues[fd]?.unplugged = true
                var byte: UInt8 = 1
                _ = write(queue.signal.write, &byte, 1)
            }
        }
    }

    func map(_ fd: Int32, length: Int, offset: Int64) -> UnsafeMutableRawPointer? {
        lock.withLock {
            let index = Int(offset) / Self.offsetStep
            guard var queue = queues[fd], index < queue.memory.count, queue.memory[index] == nil,
                length == Int(queue.sizeImage)
            else { return nil }
            let memory = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 64)
            queue.memory[index] = memory
            queues[fd] = queue
            return memory
        }
    }

    func unmap(_ memory: UnsafeMutableRawPointer, length: Int) {
        lock.withLock {
            for (fd, queue) in queues {
                guard let index = queue.memory.firstIndex(where: { $0 == memory }) else { continue }
                queues[fd]?.memory[index] = nil
                memory.deallocate()
            }
        }
    }

    /// The streaming ioctls of `fd`, whose node offers `formats` (fourcc → sizes); nil for others.
    func ioctl(
        _ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer,
        formats: [(fourcc: UInt32, sizes: [(width: UInt32, height: UInt32, intervals: [(UInt32, UInt32)])])]
    ) -> Int32? {
        lock.withLock {
            guard var queue = queues[fd] else { return nil }
            defer { queues[fd] = queue }
            if queue.unplugged { return [CV4L2_VIDIOC_DQBUF, CV4L2_VIDIOC_QBUF, CV4L2_VIDIOC_STREAMON].contains(request) ? -ENODEV : nil }
            switch request {
            case CV4L2_VIDIOC_S_FMT:
                let format = argument.assumingMemoryBound(to: v4l2_format.self)
                guard format.pointee.type == V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue else { return -EINVAL }
                do {
                    guard !queue.streaming, queue.memory.isEmpty else { return -EBUSY }
                    // As drivers do: an unknown format becomes the first, an unknown size the format's first.
                    let wanted = format.pointee.fmt.pix
                    let offered = formats.first { $0.fourcc == wanted.pixelformat } ?? formats[0]
                    let size = offered.sizes.first { $0.width == wanted.width && $0.height == wanted.height } ?? offered.sizes[0]
                    (queue.pixelFormat, queue.width, queue.height) = (offered.fourcc, size.width, size.height)
                    let packed = [FourCC.yuyv.rawValue, FourCC.uyvy.rawValue].contains(offered.fourcc) ? 2 : 1
                    queue.bytesPerLine = offered.fourcc == FourCC.mjpeg.rawValue ? 0 : size.width * UInt32(packed)
                    queue.sizeImage = offered.fourcc == FourCC.nv12.rawValue ? size.width * size.height * 3 / 2 : size.width * size.height * 2
                }
                format.pointee.fmt.pix.pixelformat = queue.pixelFormat
                format.pointee.fmt.pix.width = queue.width
                format.pointee.fmt.pix.height = queue.height
                format.pointee.fmt.pix.bytesperline = queue.bytesPerLine
                format.pointee.fmt.pix.sizeimage = queue.sizeImage
                format.pointee.fmt.pix.field = V4L2_FIELD_NONE.rawValue
                return 0
            case CV4L2_VIDIOC_S_PARM:
                let parameters = argument.assumingMemoryBound(to: v4l2_streamparm.self)
                let wanted = parameters.pointee.parm.capture.timeperframe
                let intervals =
                    formats.first { $0.fourcc == queue.pixelFormat }?
                    .sizes.first { $0.width == queue.width && $0.height == queue.height }?.intervals ?? []
                let listed = intervals.first { UInt64($0.0) * UInt64(wanted.denominator) == UInt64($0.1) * UInt64(wanted.numerator) } ?? intervals.first
                if let (numerator, denominator) = listed { queue.interval = v4l2_fract(numerator: numerator, denominator: denominator) }
                parameters.pointee.parm.capture.timeperframe = queue.interval
                return 0
            case CV4L2_VIDIOC_REQBUFS:
                let buffers = argument.assumingMemoryBound(to: v4l2_requestbuffers.self)
                guard buffers.pointee.memory == V4L2_MEMORY_MMAP.rawValue, !queue.streaming else { return -EINVAL }
                guard queue.memory.allSatisfy({ $0 == nil }) else { return -EBUSY } // still mapped
                buffers.pointee.count = min(buffers.pointee.count, 8)
                queue.memory = Array(repeating: nil, count: Int(buffers.pointee.count))
                (queue.queued, queue.filled) = ([], [])
                return 0
            case CV4L2_VIDIOC_QUERYBUF:
                let buffer = argument.assumingMemoryBound(to: v4l2_buffer.self)
                guard Int(buffer.pointee.index) < queue.memory.count else { return -EINVAL }
                buffer.pointee.length = queue.sizeImage
                buffer.pointee.m.offset = buffer.pointee.index * UInt32(Self.offsetStep)
                return 0
            case CV4L2_VIDIOC_QBUF:
                let index = argument.assumingMemoryBound(to: v4l2_buffer.self).pointee.index
                guard Int(index) < queue.memory.count, queue.memory[Int(index)] != nil, !queue.queued.contains(index),
                    !queue.filled.contains(where: { $0.index == index })
                else { return -EINVAL }
                queue.queued.append(index)
                return 0
            case CV4L2_VIDIOC_DQBUF:
                guard queue.streaming else { return -EINVAL }
                guard !queue.filled.isEmpty else { return -EAGAIN }
                let next = queue.filled.removeFirst()
                var byte: UInt8 = 0
                _ = read(queue.signal.read, &byte, 1)
                let buffer = argument.assumingMemoryBound(to: v4l2_buffer.self)
                buffer.pointee.index = next.index
                buffer.pointee.bytesused = next.bytes
                buffer.pointee.sequence = next.sequence
                buffer.pointee.timestamp = next.timestamp
                buffer.pointee.flags = UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
                buffer.pointee.field = V4L2_FIELD_NONE.rawValue
                return 0
            case CV4L2_VIDIOC_STREAMON:
                guard !queue.memory.isEmpty else { return -EINVAL }
                queue.streaming = true
                return 0
            case CV4L2_VIDIOC_STREAMOFF:
                queue.streaming = false
                queue.queued = []
                queue.filled = []
                return 0
            default:
                return nil
            }
        }
    }
}
