import Foundation
import Testing
@testable import UserFiles

/// Issue #38 defects 6, 13, 14, 16: an output path never costs the user anything but the file named.
@Suite struct OutputFileTests {
    /// A fresh folder with a file, a subfolder holding a file, and a link pointing outside.
    func sandbox() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlslab-out-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: dir + "/sub/precious.txt"))
        try Data("outside".utf8).write(to: URL(fileURLWithPath: dir + "/outside.txt"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/outside.txt")
        return dir
    }

    func contents(_ path: String) -> String? { FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } }
    func mode(_ path: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
    func names(_ dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    @Test func aDirectoryIsRefusedAndSurvives() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for path in [dir + "/sub", dir, dir + "/sub/", dir + "/sub/."] {
            #expect(throws: OutputFileError(path: path, cause: .isDirectory)) { try OutputFile.write(Array("x".utf8), to: path) }
            #expect(throws: OutputFileError(path: path, cause: .isDirectory)) { try OutputFile.append(Array("x".utf8), to: path, access: .ownerOnly) }
        }
        #expect(contents(dir + "/sub/precious.txt") == "keep me")
        #expect(names(dir + "/sub") == ["precious.txt"])
        #expect(names(dir) == ["link", "outside.txt", "sub"])
    }

    @Test func theCurrentDirectoryIsRefused() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let saved = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(dir + "/sub")
        defer { FileManager.default.changeCurrentDirectoryPath(saved) }
        #expect(throws: OutputFileError(path: ".", cause: .isDirectory)) { try OutputFile.write(Array("x".utf8), to: ".") }
        #expect(throws: OutputFileError(path: ".", cause: .isDirectory)) { try OutputFile.check(".") }
        #expect(contents(dir + "/sub/precious.txt") == "keep me")
    }

    @Test func aLinkIsNeverWrittenThrough() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: OutputFileError(path: dir + "/link", cause: .isSymbolicLink)) { try OutputFile.write(Array("x".utf8), to: dir + "/link") }
        #expect(throws: OutputFileError(path: dir + "/link", cause: .isSymbolicLink)) {
            try OutputFile.append(Array("x".utf8), to: dir + "/link", access: .ownerOnly)
        }
        #expect(contents(dir + "/outside.txt") == "outside")
        // A link to a folder inside an output directory is refused too.
        try FileManager.default.createSymbolicLink(atPath: dir + "/sub/topic", withDestinationPath: dir)
        #expect(throws: OutputFileError(path: dir + "/sub/topic", cause: .isSymbolicLink)) { try OutputFile.makeDirectory(dir + "/sub/topic", followingLink: false) }
        try OutputFile.makeDirectory(dir + "/sub/topic", followingLink: true)
    }

    @Test func replacingIsAtomicAndLeavesNoTemporaryFile() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/sub/out.pcap"
        #expect(try OutputFile.write(Array("first".utf8), to: path) == .created)
        #expect(try OutputFile.write(Array("second".utf8), to: path) == .replaced)
        #expect(contents(path) == "second")
        #expect(names(dir + "/sub") == ["out.pcap", "precious.txt"])
    }

    @Test func secretsAreTheOwnersWhateverTheUmask() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let old = umask(0)
        defer { umask(old) }
        try OutputFile.write(Array("secret".utf8), to: dir + "/keys.log", access: .ownerOnly)
        try OutputFile.append(Array("line\n".utf8), to: dir + "/append.log", access: .ownerOnly)
        try OutputFile.write(Array("page".utf8), to: dir + "/page.html", access: .ordinary)
        #expect(try mode(dir + "/keys.log") == 0o600)
        #expect(try mode(dir + "/append.log") == 0o600)
        #expect(try mode(dir + "/page.html") == 0o666)
        try OutputFile.append(Array("more\n".utf8), to: dir + "/append.log", access: .ownerOnly)
        #expect(contents(dir + "/append.log") == "line\nmore\n")
    }

    @Test func aBatchThatFailsWritesNothing() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try OutputFile.write(Array("earlier".utf8), to: dir + "/a.pcap")
        do {
            let batch = OutputBatch()
            try batch.stage(Array("new".utf8), to: dir + "/a.pcap", access: .ordinary)
            #expect(throws: OutputFileError(path: dir + "/sub", cause: .isDirectory)) { try batch.stage(Array("x".utf8), to: dir + "/sub", access: .ordinary) }
            #expect(names(dir).count == 5)  // the staged temporary file beside a.pcap
        }
        #expect(contents(dir + "/a.pcap") == "earlier")
        #expect(names(dir) == ["a.pcap", "link", "outside.txt", "sub"])
    }

    @Test func aMissingFolderIsNamed() {
        let path = "/nonexistent-\(UUID().uuidString)/out.pcap"
        #expect(throws: OutputFileError(path: path, cause: .noSuchDirectory)) { try OutputFile.write([1], to: path) }
    }

    @Test func aDeviceIsWrittenIntoNotReplaced() throws {
        #expect(try OutputFile.write(Array("discarded".utf8), to: "/dev/null") == .wroteIntoDevice)
        #expect(OutputFile.existing("/dev/null") == .device)
    }

    @Test func inputsAreBounded() throws {
        let dir = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try InputFile.read(dir + "/outside.txt", limit: 100) == Array("outside".utf8))
        #expect(throws: InputFileError(path: dir + "/outside.txt", cause: .tooLarge(limit: 3))) { try InputFile.read(dir + "/outside.txt", limit: 3) }
        #expect(throws: InputFileError(path: dir, cause: .isDirectory)) { try InputFile.read(dir, limit: 100) }
        #expect(throws: InputFileError(path: "/dev/zero", cause: .notAFile)) { try InputFile.read("/dev/zero", limit: 100) }
        #expect(throws: InputFileError(path: "/dev/null", cause: .notAFile)) { try InputFile.read("/dev/null", limit: 100) }
        #expect(throws: InputFileError(path: dir + "/none", cause: .noSuchFile)) { try InputFile.read(dir + "/none", limit: 100) }
    }
}
