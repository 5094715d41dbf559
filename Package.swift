// swift-tools-version: 6.0
import PackageDescription

// Layers, bottom to top (no module imports one above it):
//   CGMP → BigNum → TLSCrypto → PKI → TLSEngine → HTTP2, Trust
//   TCPSim (stands alone)
//   Trace (the facts of TLS, TCP, HTTP/2 and PKI, for renderers)
//   Languages (stands alone: the language of the teaching text, for Scenarios, Rendering and tlslab)
//   UserFiles (stands alone: the files a user names — outputs written safely, inputs read within a limit)
//   Simulation (TLSEngine + TCPSim + HTTP2 + Trust → Trace) → Scenarios
//   RealPeer (TLSEngine + HTTP2 + Trust → Trace);  Rendering (Trace only, and the types it shows)
//   tlslab (the command line) on top
let package = Package(
    name: "TLSLab",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tlslab", targets: ["tlslab"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CGMP",
            pkgConfig: "gmp",
            providers: [.apt(["libgmp-dev"]), .brew(["gmp"])]
        ),
        .target(name: "BigNum", dependencies: ["CGMP"]),
        .target(name: "TLSCrypto", dependencies: [
            "BigNum",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .target(name: "PKI", dependencies: [
            "BigNum", "TLSCrypto",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .target(name: "TLSEngine", dependencies: [
            "TLSCrypto", "PKI",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        .target(name: "TCPSim"),
        // HTTP/2 (RFC 9113) and HPACK (RFC 7541): frames, header compression, the connection sessions.
        .target(name: "HTTP2", dependencies: ["TLSEngine"]),
        // Who the client and the server trust: chain, policy and mutual-TLS evaluators, client trust policies.
        .target(name: "Trust", dependencies: ["PKI", "TLSEngine", "TLSCrypto"]),
        // The trace: events with facts and sentence keys, summary, statistics, who knows what.
        .target(name: "Trace", dependencies: ["TLSEngine", "TCPSim", "TLSCrypto", "HTTP2", "PKI"]),
        // The language of the teaching text (en, zh-Hans) and the rules that choose it.
        .target(name: "Languages"),
        // Files the user names: outputs never through a link, never over a directory, atomically replaced, secrets 0600.
        .target(name: "UserFiles"),
        .target(name: "Simulation", dependencies: ["TLSEngine", "TCPSim", "PKI", "TLSCrypto", "HTTP2", "Trust", "Trace"]),
        .target(name: "Scenarios", dependencies: [
            "Simulation", "Trust", "Trace", "HTTP2", "TLSEngine", "TCPSim", "PKI", "TLSCrypto", "BigNum", "Languages",
            .product(name: "Yams", package: "Yams"),
        ]),
        .target(name: "Rendering", dependencies: ["Trace", "HTTP2", "TLSEngine", "TCPSim", "PKI", "TLSCrypto", "Languages"]),
        // Real peers: the same state machines over POSIX sockets (no Rendering: drivers emit trace events).
        .target(name: "RealPeer", dependencies: ["TLSEngine", "PKI", "TLSCrypto", "HTTP2", "Trust", "Trace", "UserFiles"]),
        // The benchmarks `tlslab bench` runs: our measurements, OpenSSL's beside them, the report.
        .target(name: "Benchmarks", dependencies: ["Simulation", "Rendering", "TLSCrypto", "TLSEngine", "TCPSim", "BigNum", "Trace", "Languages"]),
        .executableTarget(name: "tlslab", dependencies: [
            "Simulation", "Scenarios", "Rendering", "TLSCrypto", "PKI", "TLSEngine", "TCPSim", "RealPeer", "BigNum",
            "HTTP2", "Trust", "Trace", "Languages", "UserFiles", "Benchmarks",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // libFuzzer harnesses (scripts/fuzz.sh TARGET SECONDS builds them with -DFUZZING); a plain build
        // makes the seed writer and replayer only.
        .executableTarget(name: "TLSLabFuzz", dependencies: [
            "TLSEngine", "TLSCrypto", "PKI", "Simulation", "Scenarios", "TCPSim", "RealPeer", "HTTP2", "Trust", "Trace",
        ], path: "Fuzz/TLSLabFuzz"),

        // Shared by the cross-checking test targets: a missing external tool skips locally, fails in CI.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "BigNumTests", dependencies: ["BigNum"]),
        .testTarget(name: "TLSCryptoTests", dependencies: [
            "TLSCrypto", "BigNum", "TestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        .testTarget(name: "TCPSimTests", dependencies: ["TCPSim", "TestSupport"]),
        .testTarget(name: "UserFilesTests", dependencies: ["UserFiles"]),
        .testTarget(name: "HTTP2Tests", dependencies: ["HTTP2", "TLSCrypto", "TestSupport"]),
        .testTarget(name: "TLSEngineTests", dependencies: [
            "TLSEngine", "TLSCrypto", "PKI", "HTTP2", "TestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        .testTarget(name: "SimulationTests", dependencies: ["Trace", "HTTP2", "Trust", "Simulation", "TLSEngine", "TLSCrypto", "TCPSim", "PKI", "TestSupport"]),
        .testTarget(name: "RenderingTests", dependencies: ["Languages", "Trace", "HTTP2", "Trust", "Rendering", "Simulation", "Scenarios", "TCPSim", "TLSEngine", "PKI", "TLSCrypto", "TestSupport"],
                    exclude: ["Goldens", "ProtocolFacts"]),
        // Runs the built `tlslab` binary as a user would; depending on it makes SwiftPM build it first.
        .testTarget(name: "CLITests", dependencies: ["Languages", "Trace", "HTTP2", "Trust", "PKI", "TLSCrypto", "tlslab", "Rendering", "RealPeer", "Simulation", "Scenarios", "TestSupport", "Benchmarks"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Languages", "Trace", "HTTP2", "Trust", "Scenarios", "Simulation", "TLSEngine", "TCPSim", "PKI", "Rendering", "TestSupport"]),
        .testTarget(name: "RealPeerTests", dependencies: ["Trace", "HTTP2", "Trust", "RealPeer", "TLSEngine", "TLSCrypto", "PKI", "Simulation", "Rendering", "TestSupport"]),
        .testTarget(name: "PKITests", dependencies: [
            "PKI", "TLSCrypto", "TestSupport", "TLSEngine",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
