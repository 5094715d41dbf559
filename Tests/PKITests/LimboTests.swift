import Foundation
import Testing
@testable import PKI

/// Runs the x509-limbo cases (C2SP/x509-limbo, Apache-2.0; copied in Tests/Fixtures/x509-limbo)
/// through `ChainValidator`, skipping what TLSLab does not implement.
@Suite struct LimboTests {
    struct Case {
        let id: String
        let expectedSuccess: Bool
        let skipReason: String?
        let run: () -> Bool
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/x509-limbo")

    /// Cases whose result we knowingly differ on, with the reason (id → reason).
    static let knownFailures: [String: String] = {
        var known: [String: String] = [:]
        let akiSki = "AKI/SKI profile MUSTs (RFC 5280 §4.2.1.1/§4.2.1.2) are not enforced; key identifiers only guide path building"
        for id in ["rfc5280::aki::leaf-missing-aki", "rfc5280::aki::intermediate-missing-aki",
                   "rfc5280::ski::root-missing-ski", "rfc5280::ski::intermediate-missing-ski",
                   "webpki::aki::root-with-aki-missing-keyidentifier", "webpki::aki::root-with-aki-authoritycertissuer",
                   "webpki::aki::root-with-aki-authoritycertserialnumber", "webpki::aki::root-with-aki-all-fields",
                   "webpki::aki::root-with-aki-ski-mismatch"] { known[id] = akiSki }
        let cn = "CABF BR 7.1.4.3 CN/SAN consistency is not enforced (RFC 9525: the CN is ignored)"
        for id in ["webpki::cn::ipv4-hex-mismatch", "webpki::cn::ipv4-leading-zeros-mismatch", "webpki::cn::ipv6-uppercase-mismatch",
                   "webpki::cn::ipv6-uncompressed-mismatch", "webpki::cn::ipv6-non-rfc5952-mismatch", "webpki::cn::punycode-not-in-san",
                   "webpki::cn::utf8-vs-punycode-mismatch", "webpki::cn::not-in-san", "webpki::cn::case-mismatch"] { known[id] = cn }
        known["webpki::san::san-critical-with-nonempty-subject"] = "SAN criticality vs a non-empty subject is not checked"
        known["rfc5280::root-non-critical-basic-constraints"] = "the criticality of basicConstraints is not checked"
        known["webpki::malformed-aia"] = "authorityInfoAccess is not parsed"
        let caLeaf = "conflicts with webpki::ca-as-leaf: TLSLab follows webpki and rejects a CA certificate as a TLS end entity"
        known["rfc5280::ca-as-leaf"] = caLeaf
        known["pathlen::validation-ignores-pathlen-in-leaf"] = caLeaf
        return known
    }()

    static let notImplemented: Set<String> = ["2.5.29.30", "2.5.29.36", "2.5.29.33", "2.5.29.54"]

    static func load(_ file: String) throws -> [Case] {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cases = root["testcases"] as? [[String: Any]] else { throw PKIError.malformedCertificate("limbo JSON") }
        return cases.map(makeCase)
    }

    static func makeCase(_ json: [String: Any]) -> Case {
        let id = json["id"] as? String ?? "?"
        let expected = (json["expected_result"] as? String) == "SUCCESS"
        func skip(_ why: String) -> Case { Case(id: id, expectedSuccess: expected, skipReason: why, run: { false }) }
        if let features = json["features"] as? [String], !features.isEmpty { return skip("features \(features)") }
        if let crls = json["crls"] as? [Any], !crls.isEmpty { return skip("CRLs") }
        if !(json["max_chain_depth"] is NSNull), json["max_chain_depth"] != nil { return skip("max_chain_depth") }
        func pems(_ key: String) -> [X509Certificate]? {
            var out: [X509Certificate] = []
            for text in json[key] as? [String] ?? [] {
                guard let certs = try? X509Certificate.parsePEM(text) else { return nil }
                out += certs
            }
            return out
        }
        guard let trusted = pems("trusted_certs"), let intermediates = pems("untrusted_intermediates") else {
            return Case(id: id, expectedSuccess: expected, skipReason: nil, run: { false })   // unparsable → rejected
        }
        guard let peerText = json["peer_certificate"] as? String, let peer = try? X509Certificate.parsePEM(peerText).first else {
            return Case(id: id, expectedSuccess: expected, skipReason: nil, run: { false })
        }
        let everything = trusted + intermediates + [peer]
        if everything.contains(where: { cert in cert.extensions.all.contains { notImplemented.contains($0.oid) } }) {
            return skip("name/policy constraints not implemented")
        }
        let time: Int64 = (json["validation_time"] as? String).flatMap(UnixTime.seconds(iso8601:))
            ?? UnixTime.seconds(year: 2024, month: 1, day: 1) ?? 0
        let purpose: ChainValidator.Purpose
        if (json["validation_kind"] as? String) == "CLIENT" {
            purpose = .sslClient
        } else {
            let name = json["expected_peer_name"] as? [String: Any]
            guard let value = name?["value"] as? String, ["DNS", "IP"].contains(name?["kind"] as? String ?? "") else {
                return skip("peer name kind \(name?["kind"] ?? "none")")
            }
            purpose = .sslServer(host: value)
        }
        let ekus = json["extended_key_usage"] as? [String] ?? []
        if !ekus.isEmpty && ekus != ["serverAuth"] && ekus != ["clientAuth"] { return skip("EKU set \(ekus)") }
        let validator = ChainValidator(anchors: AnchorSelection(system: TrustStore(name: "limbo", anchors: trusted)),
                                       purpose: purpose, time: time)
        return Case(id: id, expectedSuccess: expected, skipReason: nil, run: {
            validator.validate([peer] + intermediates).isValid
        })
    }

    static func report(_ file: String) throws -> (ran: Int, skipped: Int, failures: [String], ranIDs: Set<String>) {
        var ran = 0, skipped = 0
        var failures: [String] = []
        var ranIDs = Set<String>()
        for test in try load(file) {
            if test.skipReason != nil { skipped += 1; continue }
            ran += 1
            ranIDs.insert(test.id)
            if test.run() != test.expectedSuccess {
                failures.append("\(test.id) expected \(test.expectedSuccess ? "SUCCESS" : "FAILURE")")
            }
        }
        return (ran, skipped, failures, ranIDs)
    }

    @Test(arguments: ["limbo-p256.json", "limbo-rsa2048.json"])
    func limbo(file: String) throws {
        let (ran, skipped, failures, ranIDs) = try Self.report(file)
        let unexpected = failures.filter { failure in !Self.knownFailures.keys.contains { failure.hasPrefix($0 + " ") } }
        // A known failure that now passes must leave the list, so that a later regression is caught.
        let nowPassing = Self.knownFailures.keys.filter { id in ranIDs.contains(id) && !failures.contains { $0.hasPrefix(id + " ") } }
        #expect(nowPassing.isEmpty, "\(file): listed as known failures but now pass (remove them): \(nowPassing.sorted())")
        if let path = ProcessInfo.processInfo.environment["TLSLAB_LIMBO_REPORT"] {
            try? (["\(file): ran \(ran), skipped \(skipped), failures \(failures.count)"] + failures)
                .joined(separator: "\n").write(toFile: path + "-" + file + ".txt", atomically: true, encoding: .utf8)
        }
        #expect(ran >= 80, "\(file): only \(ran) cases ran")
        #expect(unexpected.isEmpty, "\(file): ran \(ran), skipped \(skipped); unexpected: \(unexpected)")
    }
}
