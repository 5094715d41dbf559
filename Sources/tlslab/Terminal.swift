import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the command line needs to know about its terminal.
enum Terminal {
    /// The terminal's width, when stdout is one (else $COLUMNS when set).
    static var columns: Int? { size?.columns }

    /// Columns and rows of the terminal on stdout, or $COLUMNS/$LINES when stdout is not one.
    static var size: (columns: Int, rows: Int)? {
        var ws = winsize()
        if isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        let env = ProcessInfo.processInfo.environment
        guard let c = env["COLUMNS"].flatMap(Int.init), c > 0 else { return nil }
        return (c, env["LINES"].flatMap(Int.init) ?? 24)
    }

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) != 0 }

    /// Colour only on a terminal that supports it, and never when NO_COLOR is set (``useColor(_:environment:isTerminal:)``).
    static var useColor: Bool { useColor(.auto) }
}

/// The terminal in "full-screen, one key at a time" mode, restored on every way out: normal
/// return, `q`, and SIGINT/SIGTERM/SIGHUP (the handler restores, then exits with 128 + signal).
enum RawTerminal {
    /// Saved settings for the signal handler, which cannot capture context.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var active = false

    static let enterScreen = "\u{1B}[?1049h\u{1B}[?25l"      // alternate screen, hide cursor
    static let leaveScreen = "\u{1B}[?25h\u{1B}[?1049l"      // show cursor, main screen

    static func enter() throws {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { throw CLIError.failed(CLIWords.text("cli.terminal.cannotRead")) }
        saved = settings
        // No line buffering and no echo; keep ISIG so Ctrl-C arrives as SIGINT and is handled below.
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) == 0 else { throw CLIError.failed(CLIWords.text("cli.terminal.cannotSetRaw")) }
        active = true
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { number in
                RawTerminal.restore()
                _exit(128 + number)
            }
        }
        write(enterScreen)
    }

    /// Puts the terminal back as it was. Only async-signal-safe calls (tcsetattr, write).
    static func restore() {
        guard active else { return }
        active = false
        write(leaveScreen)
        var settings = saved
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    enum Input { case key([UInt8]), timedOut, endOfInput }

    /// One key press: a byte, or an escape sequence read whole (arrow keys). With a `timeout` in
    /// seconds, `.timedOut` when no key came in that time.
    static func readKey(timeout: Double? = nil) -> Input {
        if let timeout {
            var wait = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&wait, 1, Int32(max(1, min(3_600_000, timeout * 1000))))
            if ready <= 0 { return .timedOut }
        }
        var byte: UInt8 = 0
        guard read(STDIN_FILENO, &byte, 1) == 1 else { return .endOfInput }
        guard byte == 0x1b else { return .key([byte]) }
        // An escape sequence follows within a few milliseconds; a lone Esc does not.
        var pfd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        var sequence: [UInt8] = [byte]
        while sequence.count < 6, poll(&pfd, 1, 30) > 0 {
            var next: UInt8 = 0
            guard read(STDIN_FILENO, &next, 1) == 1 else { break }
            sequence.append(next)
            if sequence.count >= 3, (0x40...0x7e).contains(next) { break }
        }
        return .key(sequence)
    }
}
