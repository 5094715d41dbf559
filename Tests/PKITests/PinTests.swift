import Foundation
import Testing
import TestSupport
@testable import PKI

@Suite struct PinTests {
    /// The usual OpenSSL pipelines, run in a shell so the pipes are OpenSSL's own.
    static func shell(_ script: String) -> String? {
        guard let result = ExternalTool.run("sh", ["-c", script]), result.status == 0 else { return nil }
        return String(decoding: result.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(CrossCheckRequirement.trait(ExternalTool.hasOpenSSL, missing: "openssl is not installed (pin cross-check)"),
          arguments: ["leaf", "ec-leaf", "leaf-pss", "ec-root"])
    func pinsEqualOpenSSL(name: String) throws {
        let path = PKIFixtures.path(name)
        let cert = PKIFixtures.cert(name)
        let certPin = try #require(Self.shell("openssl x509 -in '\(path)' -outform der | openssl dgst -sha256 -binary | openssl enc -base64"))
        let keyPin = try #require(Self.shell("openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl enc -base64"))
        #expect(Pins.certificatePin(cert) == certPin)
        #expect(Pins.publicKeyPin(cert) == keyPin)
    }

    @Test func renewalKeepsTheKeyPinOnly() {
        let old = PKIFixtures.cert("leaf"), same = PKIFixtures.cert("leaf-renewed-same-key"), new = PKIFixtures.cert("leaf-renewed-new-key")
        #expect(Pins.publicKeyPin(old) == Pins.publicKeyPin(same))
        #expect(Pins.certificatePin(old) != Pins.certificatePin(same))
        #expect(Pins.publicKeyPin(old) != Pins.publicKeyPin(new))
    }

    @Test func base64KnownAnswers() {
        // RFC 4648 §10 test vectors.
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (input, output) in vectors { #expect(Pins.base64(Array(input.utf8)) == output) }
    }

    @Test func pinCommandReportsEveryCertificateOfABundle() throws {
        let reports = try PinReport.reports(for: PKIFixtures.data("chain-ec"), source: "chain-ec.pem")
        #expect(reports.count == 3)
        #expect(reports.map(\.index) == [0, 1, 2])
        #expect(reports[0].subject.contains("www.example.com"))
        #expect(reports[0].issuer.contains("TLSLab EC Intermediate CA"))
        #expect(reports[2].publicKeyPin == Pins.publicKeyPin(PKIFixtures.cert("ec-root")))
        // Two base64 SHA-256 pins per certificate (the labels around them are the CLI's: PinCommandTests).
        #expect(reports.allSatisfy { $0.certificatePin.count == 44 && $0.publicKeyPin.count == 44 && $0.certificatePin != $0.publicKeyPin })
    }
}
