import Foundation
import HTTP2
import PKI
import Simulation
import TCPSim
import TLSCrypto
import TLSEngine
import Trace
import Yams

/// The `dh` section: Diffie-Hellman by hand with small numbers.
extension ScenarioReader {
    // MARK: - Diffie-Hellman by hand

    /// `dh`: a prime small enough to search (5 … 1000003), a generator, and both private exponents.
    func dhWorld(_ top: YAMLMapping) throws(ScenarioError) -> DHWorld {
        let m = try top.required("dh", .init("a mapping with p, g, client_private, server_private", "scenario.expected.mappingWithKeys", ["list": "p, g, client_private, server_private"])).mapping(["p", "g", "client_private", "server_private"])
        let pValue = try m.required("p", .init("a prime in 5...1000003", "scenario.expected.prime", ["lowest": "5", "highest": "1000003"]))
        let p = try pValue.int(5 ... 1_000_003)
        var d = 2
        while d * d <= p {
            if p % d == 0 { throw pValue.error("expected a prime modulus, got \(p) = \(d) × \(p / d)", "scenario.dh.notPrime", ["p": "\(p)", "factor": "\(d)", "cofactor": "\(p / d)"]) }
            d += 1
        }
        let gValue = try m.required("g", .init("a whole number in 2...1000000 (the generator)", "scenario.expected.generator", ["lowest": "2", "highest": "1000000"]))
        let g = try gValue.int(2 ... 1_000_000)
        guard g % p > 1, g % p < p - 1 else {
            throw gValue.error("contradiction: g = \(g) is \(g % p) modulo \(p); 0, 1 and p-1 generate at most two values", "scenario.dh.weakGenerator", ["g": "\(g)", "residue": "\(g % p)", "p": "\(p)"])
        }
        let x1 = try m.required("client_private", .wholeNumber(1 ... 10_000)).int(1 ... 10_000)
        let x2 = try m.required("server_private", .wholeNumber(1 ... 10_000)).int(1 ... 10_000)
        return DHWorld(p: p, g: g, clientPrivate: x1, serverPrivate: x2)
    }
}
