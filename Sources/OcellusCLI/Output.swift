#if canImport(Glibc)
import Glibc
#endif

/// Where `emit` writes: stdout, or stderr while stdout carries frames (`stream --output -`).
nonisolated(unsafe) var messageStream: UnsafeMutablePointer<FILE> = stdout

/// Writes a line to stdout and flushes, so pipes see events as they happen.
func emit(_ line: String) {
    fputs(line + "\n", messageStream)
    fflush(messageStream)
}

struct UsageError: Error { let message: String }

/// One line on stderr and a non-zero exit.
func fail(_ message: String, status: Int32 = 1) -> Never {
    fputs("ocellus: \(message)\n", stderr)
    exit(status)
}
