// Coverage-guided fuzzing with libFuzzer (shipped with the Swift toolchain on Linux).
//
// Built by scripts/fuzz.sh with -sanitize=fuzzer,address and -DFUZZING; a plain `swift build`
// builds the seed writer only (an executable that references libFuzzer's driver does not link
// without -sanitize=fuzzer). The target is chosen with TLSLAB_FUZZ_TARGET (one of FuzzTargets.names).
#if canImport(Glibc)
import Glibc
#endif
import Foundation

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

nonisolated(unsafe) var selectedTarget = ""

let name = ProcessInfo.processInfo.environment["TLSLAB_FUZZ_TARGET"] ?? ""
guard FuzzTargets.names.contains(name) else {
    FileHandle.standardError.write(Data("TLSLAB_FUZZ_TARGET must be one of: \(FuzzTargets.names.joined(separator: ", "))\n".utf8))
    exit(2)
}
selectedTarget = name
FuzzTargets.loadIdentity()
let callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTargets.run(selectedTarget, bytes)
    return 0
}
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
#else
// Without FUZZING: `TLSLabFuzz --write-seeds DIR` writes the seed corpora; `TLSLabFuzz --replay
// TARGET FILE...` runs inputs through a target once (a crash found by the fuzzer, as a test would).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 2, arguments[0] == "--write-seeds" {
    FuzzTargets.loadIdentity()
    do { try FuzzSeeds.write(to: arguments[1]) } catch {
        FileHandle.standardError.write(Data("cannot write seeds: \(error)\n".utf8))
        exit(1)
    }
} else if arguments.count >= 2, arguments[0] == "--replay", FuzzTargets.names.contains(arguments[1]) {
    FuzzTargets.loadIdentity()
    for file in arguments.dropFirst(2) {
        guard let data = FileManager.default.contents(atPath: file) else { continue }
        FuzzTargets.run(arguments[1], [UInt8](data))
    }
    print("replayed \(arguments.count - 2) input(s) through \(arguments[1])")
} else {
    print("""
    TLSLabFuzz: the fuzz targets (\(FuzzTargets.names.joined(separator: ", "))).
    Fuzz with: scripts/fuzz.sh TARGET SECONDS   (builds with -sanitize=fuzzer,address -DFUZZING)
    Without fuzzing: TLSLabFuzz --write-seeds DIR | TLSLabFuzz --replay TARGET FILE...
    """)
}
#endif
