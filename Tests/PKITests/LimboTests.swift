import Foundation
import Testing
@testable import PKI

/// Runs the x509-limbo cases (C2SP/x509-limbo, Apache-2.0; copied in Tests/Fixtures/x509-limbo)
/// through `ChainValidator`: every case except the CRL ones (TLSLab does not model revocation).
@Suite struct LimboTests {
    struct Case {
        let id: String
        let expectedSuccess: Bool
        let skipReason: String?
        /// nil when the chain is accepted, else the first failing check (or why it did not parse).
        let run: () -> String?
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/x509-limbo")

    /// Cases whose result we knowingly differ on, with the reason (id → reason); docs/PathValidation.md
    /// explains each decision. The same list holds for both key types.
    static let knownFailures: [String: String] = {
        var known: [String: String] = [:]
        let cn = "CABF BR 7.1.4.3 CN/SAN consistency is not enforced: Apple ignores the subject CN of a TLS server certificate "
            + "since iOS 13 (HT210176; RFC 9525 §6.3), so TLSLab neither uses nor checks it"
        for id in ["webpki::cn::ipv4-hex-mismatch", "webpki::cn::ipv4-leading-zeros-mismatch", "webpki::cn::ipv6-uppercase-mismatch",
                   "webpki::cn::ipv6-uncompressed-mismatch", "webpki::cn::ipv6-non-rfc5952-mismatch", "webpki::cn::punycode-not-in-san",
                   "webpki::cn::utf8-vs-punycode-mismatch", "webpki::cn::not-in-san", "webpki::cn::case-mismatch"] { known[id] = cn }
        known["rfc5280::nc::permitted-dns-match-noncritical"] = "conflicts with webpki::nc::permitted-dns-match-noncritical: a non-critical "
            + "nameConstraints is processed, as Apple's SecCertificate parser (SecCEPNameConstraints) and webpki do"
        let caLeaf = "conflicts with webpki::ca-as-leaf: TLSLab follows webpki and rejects a CA certificate as a TLS end entity"
        known["rfc5280::ca-as-leaf"] = caLeaf
        known["pathlen::validation-ignores-pathlen-in-leaf"] = caLeaf
        known["webpki::eku::ee-anyeku"] = "Apple's SSL policy accepts anyExtendedKeyUsage next to serverAuth (SecPolicy.c set_ssl_ekus)"
        known["webpki::eku::ee-critical-eku"] = "RFC 5280 §4.2.1.12 allows a critical EKU and Apple does not look at its criticality"
        known["webpki::eku::ee-without-eku"] = "conflicts with rfc5280::eku::ee-without-eku: Apple's SSL policy accepts a leaf "
            + "without EKU (SecPolicy.c set_ssl_ekus); its iOS 13 rule for certificates issued from 2019-07-01 is not modelled"
        known["webpki::eku::root-has-eku"] = "Apple's SSL policy checks the EKU of the leaf, not of the trust anchor"
        known["rfc5280::aki::cross-signed-root-missing-aki"] = "a trust anchor is taken as configured (RFC 5280 §6.1.1 d); "
            + "cve::cve-2024-0567 needs the same kind of anchor (a cross-signed CA without AKI) accepted"
        let psl = "no Public Suffix List: `*.co.uk` and `*.s3.amazonaws.com` pass the RFC 9525 wildcard rules (≥ 2 labels after `*`)"
        known["webpki::san::public-suffix-multi-label-wildcard-san"] = psl
        known["webpki::san::public-suffix-private-namespace-wildcard-san"] = psl
        return known
    }()

    /// Every case runs except the CRL ones; of those, this many per file must give limbo's result.
    static let minimumRan = 200
    static let minimumAgreeing = 181

    static func load(_ file: String) throws -> [Case] {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cases = root["testcases"] as? [[String: Any]] else { throw PKIError.notACertificate(source: file, reason: .unreadablePEM) }
        return cases.map(makeCase)
    }

    static func makeCase(_ json: [String: Any]) -> Case {
        let id = json["id"] as? String ?? "?"
        let expected = (json["expected_result"] as? String) == "SUCCESS"
        func skip(_ why: String) -> Case { Case(id: id, expectedSuccess: expected, skipReason: why, run: { "skipped" }) }
        // Revocation is the one feature TLSLab does not model (no CRL or OCSP fetching in a teaching client).
        if let crls = json["crls"] as? [Any], !crls.isEmpty { return skip("CRLs") }
        let maxChainDepth = json["max_chain_depth"] as? Int
        func pems(_ key: String) -> [X509Certificate]? {
            var out: [X509Certificate] = []
            for text in json[key] as? [String] ?? [] {
                guard let certs = try? X509Certificate.parsePEM(text) else { return nil }
                out += certs
            }
            return out
        }
        guard let trusted = pems("trusted_certs"), let intermediates = pems("untrusted_intermediates") else {
            return Case(id: id, expectedSuccess: expected, skipReason: nil, run: { "a CA certificate does not parse" })   // unparsable → rejected
        }
        guard let peerText = json["peer_certificate"] as? String, let peer = try? X509Certificate.parsePEM(peerText).first else {
            return Case(id: id, expectedSuccess: expected, skipReason: nil, run: { "the peer certificate does not parse" })
        }
        let time: Int64 = (json["validation_time"] as? String).flatMap(UnixTime.seconds(iso8601:))
            ?? UnixTime.seconds(year: 2024, month: 1, day: 1) ?? 0
        let purpose: ChainValidator.Purpose
        if (json["validation_kind"] as? String) == "CLIENT" {
            purpose = .sslClient
        } else {
            // A SERVER case without a peer name checks the chain only (the email-constraint cases).
            let name = json["expected_peer_name"] as? [String: Any]
            if let kind = name?["kind"] as? String, !["DNS", "IP"].contains(kind) { return skip("peer name kind \(kind)") }
            purpose = .sslServer(host: name?["value"] as? String)
        }
        let ekus = json["extended_key_usage"] as? [String] ?? []
        if !ekus.isEmpty && ekus != ["serverAuth"] && ekus != ["clientAuth"] { return skip("EKU set \(ekus)") }
        let validator = ChainValidator(anchors: AnchorSelection(system: TrustStore(name: .systemRoots, anchors: trusted)),
                                       purpose: purpose, time: time, maxIntermediates: maxChainDepth)
        return Case(id: id, expectedSuccess: expected, skipReason: nil, run: {
            let result = validator.validate([peer] + intermediates)
            return result.isValid ? nil : (result.firstFailure.map { "\($0)" } ?? "\(result.result)")
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
            let rejection = test.run()
            if (rejection == nil) != test.expectedSuccess {
                failures.append("\(test.id) expected \(test.expectedSuccess ? "SUCCESS" : "FAILURE"): \(rejection ?? "accepted")")
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
        #expect(ran >= Self.minimumRan, "\(file): only \(ran) cases ran")
        #expect(ran - failures.count >= Self.minimumAgreeing, "\(file): \(ran - failures.count) of \(ran) agree with limbo")
        #expect(unexpected.isEmpty, "\(file): ran \(ran), skipped \(skipped); unexpected: \(unexpected)")
    }
}
