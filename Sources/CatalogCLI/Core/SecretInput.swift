import CatalogConsole
import CatalogModel
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a secret (a password) from the first line of standard input.
///
/// From a pipe or file the line is read as it is; from a terminal a prompt goes to standard error
/// and typing is not echoed.
enum SecretInput {
    /// The first line of standard input without its line ending.
    ///
    /// - Parameter prompt: shown on standard error when standard input is a terminal.
    /// - Throws: ``CLIError`` (exit 1) when standard input ends before a line.
    static func readLine(prompt: String) throws(CLIError) -> String {
        let terminal = isatty(0) != 0
        var saved = termios()
        var echoOff = false
        if terminal, tcgetattr(0, &saved) == 0 {
            StandardStream.error.write(prompt)
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            echoOff = tcsetattr(0, TCSAFLUSH, &silent) == 0
        }
        defer {
            if echoOff {
                tcsetattr(0, TCSAFLUSH, &saved)
                StandardStream.error.write("\n")
            }
        }
        guard var line = Swift.readLine(strippingNewline: true) else {
            throw CLIError.failure("no password on standard input: give it on the first line")
        }
        if line.hasSuffix("\r") { line.removeLast() }
        return line
    }
}
