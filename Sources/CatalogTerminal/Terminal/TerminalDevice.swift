import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The controlling terminal: raw mode, the alternate screen, its size, and writing frames.
///
/// ``enter()`` saves the terminal's settings and ``leave()`` puts them back (and leaves the
/// alternate screen, shows the cursor); the app calls ``leave()`` on every way out: `q`, Ctrl-C,
/// SIGTERM, SIGHUP, and errors.
final class TerminalDevice: @unchecked Sendable {
    // @unchecked: `saved` is written once by enter() and read by leave(), both called from the
    // app's one loop; writes to the descriptor are whole frames from that loop.
    let input: Int32
    let output: Int32
    private var saved: termios?

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// Whether both ends are terminals.
    var isTerminal: Bool { isatty(input) == 1 && isatty(output) == 1 }

    /// Raw mode (no echo, no line editing, no signals from keys, no output processing), the
    /// alternate screen, no cursor, clicks and the wheel reported in SGR mouse mode (1000 and
    /// 1006; a terminal without them ignores the request).
    func enter() throws {
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else {
            throw TerminalError("standard input is not a terminal; catalog browse needs one")
        }
        saved = settings
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        settings.c_oflag &= ~tcflag_t(OPOST)
        settings.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        settings.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &settings) == 0 else {
            throw TerminalError("cannot switch the terminal to raw mode")
        }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[H\u{1B}[2J")
    }

    /// Puts the terminal back as it was.
    func leave() {
        guard var settings = saved else { return }
        write("\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(input, TCSAFLUSH, &settings)
        saved = nil
    }

    /// Columns and rows; 80×24 when the terminal does not say.
    func size() -> (columns: Int, rows: Int) {
        var size = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        let environment = ProcessInfo.processInfo.environment
        return (Int(environment["COLUMNS"] ?? "") ?? 80, Int(environment["LINES"] ?? "") ?? 24)
    }

    /// Writes `text` whole.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(output, buffer.baseAddress! + written, buffer.count - written)
                #else
                    Darwin.write(output, buffer.baseAddress! + written, buffer.count - written)
                #endif
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
        bytes.removeAll()
    }

    /// Reads what the user typed, waiting up to `timeout` milliseconds (-1: forever). Empty on a
    /// timeout; nil when input ended.
    func read(timeout: Int32) -> [UInt8]? {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeout)
        if ready == 0 || (ready < 0 && errno == EINTR) { return [] }
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { bytes in
            #if canImport(Glibc)
                Glibc.read(input, bytes.baseAddress, bytes.count)
            #else
                Darwin.read(input, bytes.baseAddress, bytes.count)
            #endif
        }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
        guard count > 0 else { return nil }
        return Array(buffer.prefix(count))
    }
}

/// A terminal that cannot be used, with why.
struct TerminalError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
