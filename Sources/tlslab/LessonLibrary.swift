import Foundation
import Scenarios

/// Where the lessons live. The binary looks for the library — a directory `Scenarios` holding a
/// `README.md` — in this order: `$TLSLAB_SCENARIOS`; the current directory and each directory
/// above it; the executable's directory and each directory above it (a SwiftPM build sits in
/// `.build/<config>/` under the checkout).
struct LessonLibrary {
    var directory: String
    var catalogue: LessonCatalogue

    static var searchDescription: String { CLIWords.text("cli.lessonLibrary.search") }

    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                       currentDirectory: String = FileManager.default.currentDirectoryPath,
                       executable: String = CommandLine.arguments.first ?? "") -> LessonLibrary? {
        guard let directory = find(environment: environment, currentDirectory: currentDirectory, executable: executable) else { return nil }
        return LessonLibrary(directory: directory, catalogue: LessonCatalogue(directory: directory))
    }

    static func find(environment: [String: String], currentDirectory: String, executable: String) -> String? {
        let fm = FileManager.default
        func isLibrary(_ path: String) -> Bool {
            var isDirectory: ObjCBool = false
            return fm.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                && fm.fileExists(atPath: (path as NSString).appendingPathComponent("README.md"))
        }
        if let set = environment["TLSLAB_SCENARIOS"], !set.isEmpty { return isLibrary(set) ? set : nil }
        func upward(from start: String) -> String? {
            var dir = URL(fileURLWithPath: start).standardizedFileURL
            for _ in 0..<12 {
                let candidate = dir.appendingPathComponent("Scenarios").path
                if isLibrary(candidate) { return candidate }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
            return nil
        }
        if let found = upward(from: currentDirectory) { return relativeIfInside(found, currentDirectory) }
        let exe = URL(fileURLWithPath: executable, relativeTo: URL(fileURLWithPath: currentDirectory)).resolvingSymlinksInPath()
        return upward(from: exe.deletingLastPathComponent().path)
    }

    /// `Scenarios` found in the current directory is shown as such, not as an absolute path.
    static func relativeIfInside(_ path: String, _ current: String) -> String {
        let prefix = URL(fileURLWithPath: current).standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
