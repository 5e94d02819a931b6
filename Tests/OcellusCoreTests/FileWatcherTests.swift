import Testing

@testable import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// The kernel is asked only for what a watch wants: writes to an existing file in a watched
/// directory (as `>/dev/null` is in `/dev`) wake nothing that watches for files coming and going.
@Suite struct FileWatcherTests {
    final class Counter: @unchecked Sendable {
        private let lock = ConditionLock()
        private var count = 0
        func bump() {
            lock.withLock {
                count += 1; lock.broadcast()
            }
        }
        var value: Int { lock.withLock { count } }
        func wait(for wanted: Int) -> Bool {
            let deadline = monotonicNanoseconds() + 2_000_000_000
            return lock.withLock {
                while count < wanted { if !lock.wait(untilMonotonicNanoseconds: deadline) { return count >= wanted } }
                return true
            }
        }
    }

    func write(_ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = "x".withCString { Glibc.write(fd, $0, 1) }
        close(fd)
    }

    @Test func watchesHearOnlyTheChangesTheyAskFor() throws {
        var template = Array("/tmp/ocellus-watch.XXXXXX".utf8CString)
        let directory = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer { unlink(directory + "/video0"); unlink(directory + "/null"); rmdir(directory) }
        let watcher = try #require(FileWatcher())
        defer { watcher.stop() }
        let comings = Counter(), rewrites = Counter()
        let nodes = try #require(watcher.watch(directory: directory, for: [.appeared, .removed], matching: { _ in true }) { comings.bump() })
        write(directory + "/null")
        #expect(comings.wait(for: 1))
        let created = comings.value
        for _ in 0..<20 { write(directory + "/null") } // rewritten in place: not a coming or going
        let rewrite = try #require(watcher.watch(directory: directory, fileName: "null", for: .rewritten) { rewrites.bump() })
        write(directory + "/null")
        #expect(rewrites.wait(for: 1)) // a second watch on the directory hears its own kind
        watcher.remove(rewrite)
        for _ in 0..<20 { write(directory + "/null") }
        write(directory + "/video0")
        #expect(comings.wait(for: created + 1))
        usleep(100_000)
        #expect(comings.value == created + 1, "only video0's creation, none of the 41 rewrites")
        #expect(rewrites.value == 1)
        watcher.remove(nodes)
    }
}
