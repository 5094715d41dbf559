import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the command line needs to know about its terminal.
enum Terminal {
    /// The terminal's width, when stdout is one.
    static var columns: Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
            if let env = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(env), n > 0 { return n }
            return nil
        }
        return Int(size.ws_col)
    }

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) != 0 }
}
