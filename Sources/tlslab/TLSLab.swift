import ArgumentParser

@main
struct TLSLab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tlslab",
        abstract: "A TLS 1.2 handshake simulator and teaching engine.",
        version: "0.1.0",
        subcommands: [BenchCommand.self, SelfTestCommand.self]
    )

    func run() throws {
        print("tlslab 0.1.0 — a TLS 1.2 handshake simulator and teaching engine")
        print("The default walkthrough arrives with the simulation layer; see `tlslab --help`.")
    }
}
