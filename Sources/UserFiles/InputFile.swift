#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the user names as input, read whole within a limit: a directory, a device that never
/// ends (`/dev/zero`) or a file over the limit is a clear error, never a hang or unbounded memory.
public enum InputFile {
    public static func read(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            throw InputFileError(path: path, cause: code == ENOENT || code == ENOTDIR ? .noSuchFile
                                 : code == EACCES || code == EPERM ? .notPermitted : .system(errno: code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw InputFileError(path: path, cause: .system(errno: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw InputFileError(path: path, cause: .isDirectory)
        case S_IFREG: break
        default: throw InputFileError(path: path, cause: .notAFile)
        }
        guard Int(info.st_size) <= limit else { throw InputFileError(path: path, cause: .tooLarge(limit: limit)) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputFileError(path: path, cause: .system(errno: errno))
            }
            if n == 0 { break }
            bytes += buffer[0 ..< n]
            // The file may have grown since fstat.
            guard bytes.count <= limit else { throw InputFileError(path: path, cause: .tooLarge(limit: limit)) }
        }
        return bytes
    }
}

/// Why an input file could not be read: the path and a cause the command line words in the
/// user's language.
public struct InputFileError: Error, Sendable, Equatable {
    public enum Cause: Sendable, Equatable {
        case noSuchFile, isDirectory, notAFile, notPermitted
        case tooLarge(limit: Int)
        case system(errno: Int32)
    }

    public var path: String
    public var cause: Cause

    public init(path: String, cause: Cause) {
        self.path = path
        self.cause = cause
    }
}
