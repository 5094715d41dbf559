import TCPSim
import Trace

/// What the drivers (the simulation, the attackers, the real peers) report as typed facts, in
/// English: the operations the virtual CPU charges for and how a suite-stripping attacker kept the
/// ClientHello's length.
extension Explanations {
    static let englishDrivers: [String: String] = [
        // Public-key operations the simulation times (TraceEvent.compute, ComputeOperation).
        "compute.rsaPublicKeyEncryption": "RSA public-key encryption",
        "compute.rsaPrivateKeyDecryption": "RSA private-key decryption",
        "compute.dhAgreement": "DH key agreement",
        "compute.ecdhAgreement": "ECDH key agreement",
        "compute.rsaSignature": "RSA signature",
        "compute.rsaSignatureCheck": "RSA signature check",
        "compute.ecdsaSignature": "ECDSA signature",
        "compute.ecdsaSignatureCheck": "ECDSA signature check",
        "compute.certificateSignatureChecks": "{count} certificate signature check(s)",
        // How the strip attack kept the ClientHello's length (AttackEvent.strippedSuites, SuiteStripping).
        "attack.line.strippedHow": "({how})",
        "strip.nothingToStrip": "the ClientHello offers none of the suites to strip",
        "strip.paddingExtension": "the {bytes} freed bytes went into a padding extension so the message kept its length",
        "strip.paddingExtensionBlock": "the freed bytes became a padding extension so the message kept its length",
        "strip.overwritten": "each removed suite was overwritten with {suite} so the message kept its length",
        // Where a man in the middle sits when the client names no server (no SNI): AttackEvent.position.
        "position.mitm.unnamedServer": "the client's connection to the server ends at the attacker {address} (a spoofed DNS answer or a rogue access point); the attacker opens its own connection to the real server and relays",
        // A user call the simulated network refused (Phase.failed; RFC 9293 §3.10's "error:" replies).
        "tcpUserError.connectionDoesNotExist": "connection does not exist",
        "tcpUserError.connectionClosing": "connection closing",
        "tcpUserError.connectionAlreadyExists": "connection already exists",
        "tcpUserError.unknownHost": "no host {address} on the simulated network",
        "tcpUserError.portInUse": "port {port} is in use",
        // `tlslab check` on standard error: a path that is not there, and paths without scenario files.
        "cli.check.missingPath": "no such file or directory: {path}",
        "cli.check.noFiles": "no scenario files (*.yaml) under {paths}",
        // The separators of an HTTP/2 frame's line (RunDocumentBuilder+HTTP2): flags, settings, RST_STREAM's
        // code, and a header block's first field (:path or :status) with HPACK's sizes.
        "h2.line.flags": " [{flags}]",
        "h2.line.settings": ": {settings}",
        "h2.line.rstStream": ": {code}",
        "h2.line.headerPath": "{name} {value}, ",
        "h2.line.headerBlock": ": {path}{count} header fields, HPACK {raw} → {encoded} bytes",
        "h2.line.promisedBlock": " — {path}{count} header fields, HPACK {raw} → {encoded} bytes",
    ]

    /// A public-key operation the simulation timed, in this catalogue's words.
    public func operationName(_ operation: ComputeOperation) -> String {
        var values: [String: String] = [:]
        if case .certificateSignatureChecks(let count) = operation { values["count"] = "\(count)" }
        return self(operation.key, values) ?? operation.identifier
    }

    /// A user call the simulated network refused, in this catalogue's words.
    public func userError(_ error: TCPUserError) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        switch error {
        case .connectionDoesNotExist: return say("tcpUserError.connectionDoesNotExist")
        case .connectionClosing: return say("tcpUserError.connectionClosing")
        case .connectionAlreadyExists: return say("tcpUserError.connectionAlreadyExists")
        case .unknownHost(let address): return say("tcpUserError.unknownHost", ["address": "\(address)"])
        case .portInUse(let port): return say("tcpUserError.portInUse", ["port": "\(port)"])
        }
    }

    /// How a suite-stripping attacker kept the ClientHello's length, in this catalogue's words.
    public func stripping(_ how: SuiteStripping) -> String {
        func say(_ key: String, _ values: [String: String] = [:]) -> String { self(key, values) ?? key }
        switch how {
        case .nothingToStrip: return say("strip.nothingToStrip")
        case .paddingExtension(let bytes): return say("strip.paddingExtension", ["bytes": "\(bytes)"])
        case .paddingExtensionBlock(let bytes): return say("strip.paddingExtensionBlock", ["bytes": "\(bytes)"])
        case .overwrittenWith(let suite): return say("strip.overwritten", ["suite": "\(suite)"])
        }
    }
}
