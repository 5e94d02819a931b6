#if canImport(Glibc)
import Glibc
#endif

/// Writes a line to stdout and flushes, so pipes see events as they happen.
func emit(_ line: String) {
    fputs(line + "\n", stdout)
    fflush(stdout)
}

struct UsageError: Error { let message: String }

/// One line on stderr and a non-zero exit.
func fail(_ message: String, status: Int32 = 1) -> Never {
    fputs("ocellus: \(message)\n", stderr)
    exit(status)
}
