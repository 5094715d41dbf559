#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files `tlslab` writes for its user (captures, key logs, sessions, pages, certificates and
/// keys). Writing one never removes or replaces anything but the file named, and never goes
/// through a symbolic link:
/// - a path that is a directory or a symbolic link is refused before anything is written;
/// - a regular file is written beside its target under a temporary name, then renamed over it
///   (rename(2) is atomic: a reader sees the old file or the new one, never half of either);
/// - an existing character device or FIFO (`/dev/stdout`, a named pipe) is written into as it is,
///   since renaming over a device would replace the device node itself;
/// - secrets (key logs, master secrets, private keys) are created readable by their owner only.
public enum OutputFile {
    /// Who may read the file once written.
    public enum Access: Sendable, Equatable {
        /// Readable as the user's umask allows (0666 less the umask), as other tools' outputs are.
        case ordinary
        /// Read and write for the owner only (0600), whatever the umask: the file holds a secret.
        case ownerOnly

        var mode: mode_t { self == .ownerOnly ? 0o600 : 0o666 }
    }

    /// What a path holds before the write.
    public enum Existing: Sendable, Equatable {
        case nothing, regularFile, device, directory, symbolicLink, other
    }

    /// What a write did, so the command can say what it overwrote.
    public enum Outcome: Sendable, Equatable {
        case created, replaced, wroteIntoDevice
    }

    /// What `path` holds now, without following a symbolic link.
    public static func existing(_ path: String) -> Existing {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .nothing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFCHR, S_IFIFO: return .device
        default: return .other
        }
    }

    /// Refuses, before any work, a path that cannot be written as a file: a directory, a symbolic
    /// link, a socket or block device, or a path whose folder does not exist.
    public static func check(_ path: String) throws(OutputFileError) {
        guard !path.isEmpty else { throw OutputFileError(path: path, cause: .noSuchDirectory) }
        switch existing(path) {
        case .directory: throw OutputFileError(path: path, cause: .isDirectory)
        case .symbolicLink: throw OutputFileError(path: path, cause: .isSymbolicLink)
        case .other: throw OutputFileError(path: path, cause: .notAFile)
        case .regularFile, .device: return
        case .nothing:
            let folder = directory(of: path)
            switch existing(folder) {
            case .directory: return
            case .symbolicLink:
                // A folder reached through a link is the user's own choice (e.g. /tmp on macOS) when
                // it leads to a directory; the file itself is never a link.
                var info = stat()
                guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    throw OutputFileError(path: path, cause: .noSuchDirectory)
                }
            case .nothing: throw OutputFileError(path: path, cause: .noSuchDirectory)
            default: throw OutputFileError(path: path, cause: .noSuchDirectory)
            }
        }
    }

    /// Writes `bytes` as the whole content of `path` (see the type's rules).
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String, access: Access = .ordinary) throws(OutputFileError) -> Outcome {
        let batch = OutputBatch()
        try batch.stage(bytes, to: path, access: access)
        return try batch.commit()[0]
    }

    /// Appends `bytes` to `path`, creating it (with `access`) when absent: for key logs, which
    /// collect one line per connection as SSLKEYLOGFILE does. A directory or a link is refused.
    public static func append(_ bytes: [UInt8], to path: String, access: Access) throws(OutputFileError) {
        try check(path)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, access.mode)
        guard fd >= 0 else { throw OutputFileError(path: path, cause: cause(errno)) }
        defer { close(fd) }
        try writeAll(bytes, to: fd, path: path)
    }

    /// Makes the folder `path` (and the folders above it) unless it is one already. A folder inside
    /// an output directory must not be a link (`followingLink: false`): pages written into it would
    /// land wherever the link points.
    public static func makeDirectory(_ path: String, followingLink: Bool) throws(OutputFileError) {
        switch existing(path) {
        case .directory: return
        case .symbolicLink:
            var info = stat()
            guard followingLink, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw OutputFileError(path: path, cause: .isSymbolicLink)
            }
            return
        case .nothing:
            let parent = directory(of: path)
            if parent != path, existing(parent) == .nothing { try makeDirectory(parent, followingLink: followingLink) }
            guard mkdir(path, 0o777) == 0 || errno == EEXIST else { throw OutputFileError(path: path, cause: cause(errno)) }
            guard existing(path) == .directory else { throw OutputFileError(path: path, cause: .notAFile) }
        default:
            throw OutputFileError(path: path, cause: .notAFile)
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(OutputFileError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                systemWrite(fd, raw.baseAddress! + offset, bytes.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputFileError(path: path, cause: cause(errno))
            }
            offset += n
        }
    }

    static func cause(_ code: Int32) -> OutputFileError.Cause {
        switch code {
        case EISDIR: return .isDirectory
        case ELOOP: return .isSymbolicLink
        case ENOENT, ENOTDIR: return .noSuchDirectory
        case EACCES, EPERM, EROFS: return .notPermitted
        case ENOSPC, EDQUOT: return .noSpace
        default: return .system(errno: code)
        }
    }
}

#if canImport(Glibc)
@inline(__always) func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
@inline(__always) func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
#elseif canImport(Darwin)
@inline(__always) func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
@inline(__always) func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
#endif

/// Why a file could not be written: the path and a cause the command line words in the user's
/// language.
public struct OutputFileError: Error, Sendable, Equatable {
    public enum Cause: Sendable, Equatable {
        /// The path names a directory: an output file never replaces one.
        case isDirectory
        /// The path is a symbolic link: outputs are never written through one.
        case isSymbolicLink
        /// A socket or block device: not a file to write.
        case notAFile
        /// The folder the file would go in does not exist.
        case noSuchDirectory
        /// The user may not create or write the file there.
        case notPermitted
        /// The disk or the quota is full.
        case noSpace
        /// Another error of the system's, by its errno.
        case system(errno: Int32)
    }

    public var path: String
    public var cause: Cause

    public init(path: String, cause: Cause) {
        self.path = path
        self.cause = cause
    }

    /// The system's own words for an errno (strerror), for ``Cause/system(errno:)``.
    public static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}

/// Several outputs of one command written all or nothing: each is first written beside its target
/// under a temporary name; only when every one is on disk are they renamed into place. A failure
/// before that removes the temporary files and leaves every target as it was.
public final class OutputBatch {
    struct Staged {
        var path: String
        var temporary: String?
        var bytes: [UInt8]
        var existed: OutputFile.Existing
    }

    var staged: [Staged] = []

    public init() {}

    /// Checks `path` and writes `bytes` to a temporary file beside it (a device is written at
    /// ``commit()``).
    public func stage(_ bytes: [UInt8], to path: String, access: OutputFile.Access) throws(OutputFileError) {
        try OutputFile.check(path)
        let existed = OutputFile.existing(path)
        if existed == .device {
            staged.append(Staged(path: path, temporary: nil, bytes: bytes, existed: existed))
            return
        }
        let folder = OutputFile.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var fd: Int32 = -1
        var temporary = ""
        for _ in 0 ..< 16 {
            temporary = folder + "/." + name + ".tlslab-\(getpid())-\(String(UInt64.random(in: 0 ... .max), radix: 36)).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, access.mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw OutputFileError(path: path, cause: OutputFile.cause(errno)) }
        // Recorded first, so a failed write below still removes the temporary file.
        staged.append(Staged(path: path, temporary: temporary, bytes: [], existed: existed))
        defer { close(fd) }
        try OutputFile.writeAll(bytes, to: fd, path: path)
        guard fsync(fd) == 0 else { throw OutputFileError(path: path, cause: OutputFile.cause(errno)) }
    }

    /// Puts every staged file in place; returns what each write did, in staging order.
    public func commit() throws(OutputFileError) -> [OutputFile.Outcome] {
        var outcomes: [OutputFile.Outcome] = []
        for index in staged.indices {
            let file = staged[index]
            if let temporary = file.temporary {
                // Checked again: the path must still not be a directory or a link (rename would
                // replace a link, and fail on a directory, but say neither).
                let now = OutputFile.existing(file.path)
                guard now == .nothing || now == .regularFile else {
                    throw OutputFileError(path: file.path, cause: now == .directory ? .isDirectory : .isSymbolicLink)
                }
                guard rename(temporary, file.path) == 0 else { throw OutputFileError(path: file.path, cause: OutputFile.cause(errno)) }
                staged[index].temporary = nil
                outcomes.append(now == .regularFile ? .replaced : .created)
            } else {
                let fd = open(file.path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
                guard fd >= 0 else { throw OutputFileError(path: file.path, cause: OutputFile.cause(errno)) }
                defer { close(fd) }
                try OutputFile.writeAll(file.bytes, to: fd, path: file.path)
                outcomes.append(.wroteIntoDevice)
            }
        }
        return outcomes
    }

    deinit {
        for file in staged { if let temporary = file.temporary { unlink(temporary) } }
    }
}
