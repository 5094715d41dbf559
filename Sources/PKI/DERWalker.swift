import SwiftASN1

/// A few read helpers over swift-asn1's parsed nodes (X.690 DER), used by the certificate reader.
/// They throw `PKIError.malformedCertificate` instead of trapping on unexpected shapes.
enum DERWalker {
    static func parse(_ bytes: [UInt8]) throws(PKIError) -> ASN1Node {
        do { return try DER.parse(bytes) } catch { throw .malformedCertificate(malformation(error)) }
    }

    static func parse(_ bytes: ArraySlice<UInt8>) throws(PKIError) -> ASN1Node {
        do { return try DER.parse(bytes) } catch { throw .malformedCertificate(malformation(error)) }
    }

    /// What swift-asn1's parser found wrong, as a fact: the DER ends inside an element, a length
    /// DER does not allow, or another rule broken (its error code kept).
    static func malformation(_ error: any Error) -> CertificateMalformation {
        guard let asn1 = error as? ASN1Error else { return .derInvalid(code: "\(type(of: error))") }
        switch asn1.code {
        case .truncatedASN1Field: return .derTruncated
        case .unsupportedFieldLength: return .derLength
        default: return .derInvalid(code: "\(asn1.code)")
        }
    }

    /// Children of a constructed node.
    static func children(_ node: ASN1Node, _ what: String) throws(PKIError) -> [ASN1Node] {
        guard case .constructed(let nodes) = node.content else {
            throw .malformedCertificate(.notConstructed(field: what))
        }
        return Array(nodes)
    }

    /// Children of a SEQUENCE.
    static func sequence(_ node: ASN1Node, _ what: String) throws(PKIError) -> [ASN1Node] {
        guard node.identifier == .sequence else { throw .malformedCertificate(.notOfType(field: what, type: "SEQUENCE")) }
        return try children(node, what)
    }

    static func primitive(_ node: ASN1Node, _ what: String) throws(PKIError) -> [UInt8] {
        guard case .primitive(let bytes) = node.content else {
            throw .malformedCertificate(.notPrimitive(field: what))
        }
        return Array(bytes)
    }

    /// An OBJECT IDENTIFIER as dotted text (X.690 §8.19).
    static func oid(_ node: ASN1Node, _ what: String) throws(PKIError) -> String {
        guard node.identifier == .objectIdentifier else { throw .malformedCertificate(.notOfType(field: what, type: "OBJECT IDENTIFIER")) }
        let bytes = try primitive(node, what)
        guard !bytes.isEmpty, bytes.last.map({ $0 & 0x80 == 0 }) == true else {
            throw .malformedCertificate(.badEncoding(field: what, type: "OBJECT IDENTIFIER"))
        }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        var firstArc = true
        for byte in bytes {
            guard value < (1 << 56) else { throw .malformedCertificate(.integerOutOfRange(field: what)) }
            value = (value << 7) | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                if firstArc {
                    let top: UInt64 = value < 40 ? 0 : (value < 80 ? 1 : 2)
                    arcs.append(top)
                    arcs.append(value - top * 40)
                    firstArc = false
                } else {
                    arcs.append(value)
                }
                value = 0
            }
        }
        return arcs.map(String.init).joined(separator: ".")
    }

    /// BIT STRING content without the unused-bits octet (X.690 §8.6); DER requires 0 unused bits here.
    static func bitString(_ node: ASN1Node, _ what: String) throws(PKIError) -> (bytes: [UInt8], unusedBits: Int) {
        guard node.identifier == .bitString else { throw .malformedCertificate(.notOfType(field: what, type: "BIT STRING")) }
        let raw = try primitive(node, what)
        guard let unused = raw.first, unused < 8 else { throw .malformedCertificate(.badEncoding(field: what, type: "BIT STRING")) }
        if raw.count == 1 && unused != 0 { throw .malformedCertificate(.badEncoding(field: what, type: "BIT STRING")) }
        return (Array(raw.dropFirst()), Int(unused))
    }

    static func integerBytes(_ node: ASN1Node, _ what: String) throws(PKIError) -> [UInt8] {
        guard node.identifier == .integer else { throw .malformedCertificate(.notOfType(field: what, type: "INTEGER")) }
        let bytes = try primitive(node, what)
        guard !bytes.isEmpty else { throw .malformedCertificate(.badEncoding(field: what, type: "INTEGER")) }
        return bytes
    }

    static func smallInteger(_ node: ASN1Node, _ what: String) throws(PKIError) -> Int {
        let bytes = try integerBytes(node, what)
        guard bytes.count <= 4, bytes[0] & 0x80 == 0 else { throw .malformedCertificate(.integerOutOfRange(field: what)) }
        return bytes.reduce(0) { ($0 << 8) | Int($1) }
    }

    static func boolean(_ node: ASN1Node, _ what: String) throws(PKIError) -> Bool {
        guard node.identifier == .boolean else { throw .malformedCertificate(.notOfType(field: what, type: "BOOLEAN")) }
        let bytes = try primitive(node, what)
        guard bytes.count == 1 else { throw .malformedCertificate(.badEncoding(field: what, type: "BOOLEAN")) }
        return bytes[0] != 0
    }

    static func octetString(_ node: ASN1Node, _ what: String) throws(PKIError) -> [UInt8] {
        guard node.identifier == .octetString else { throw .malformedCertificate(.notOfType(field: what, type: "OCTET STRING")) }
        return try primitive(node, what)
    }

    /// UTCTime / GeneralizedTime (RFC 5280 §4.1.2.5) → seconds since 1970-01-01T00:00:00Z.
    static func time(_ node: ASN1Node, _ what: String) throws(PKIError) -> Int64 {
        let bytes = try primitive(node, what)
        let text = String(decoding: bytes, as: UTF8.self)
        let digits: String
        if node.identifier == .utcTime {
            guard bytes.count == 13, bytes.last == UInt8(ascii: "Z") else { throw .malformedCertificate(.badEncoding(field: what, type: "UTCTime")) }
            let yy = Int(text.prefix(2)) ?? -1
            guard yy >= 0 else { throw .malformedCertificate(.badEncoding(field: what, type: "UTCTime")) }
            digits = (yy >= 50 ? "19" : "20") + text.dropLast()
        } else if node.identifier == .generalizedTime {
            guard bytes.count == 15, bytes.last == UInt8(ascii: "Z") else { throw .malformedCertificate(.badEncoding(field: what, type: "GeneralizedTime")) }
            digits = String(text.dropLast())
        } else {
            throw .malformedCertificate(.notOfType(field: what, type: "UTCTime / GeneralizedTime"))
        }
        guard let seconds = UnixTime.seconds(fromDigits: digits) else { throw .malformedCertificate(.badEncoding(field: what, type: text.count == 13 ? "UTCTime" : "GeneralizedTime")) }
        return seconds
    }
}

/// Calendar arithmetic without Foundation or the clock: civil date → Unix seconds (proleptic Gregorian).
public enum UnixTime {
    /// `YYYYMMDDHHMMSS` (14 digits) → Unix seconds, or nil when a field is out of range.
    public static func seconds(fromDigits text: String) -> Int64? {
        let chars = Array(text.utf8)
        guard chars.count == 14, chars.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        func field(_ start: Int, _ length: Int) -> Int {
            chars[start..<(start + length)].reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        return seconds(year: field(0, 4), month: field(4, 2), day: field(6, 2),
                       hour: field(8, 2), minute: field(10, 2), second: field(12, 2))
    }

    /// ISO 8601 `YYYY-MM-DDTHH:MM:SS` with an optional `Z` or `+00:00` suffix.
    public static func seconds(iso8601 text: String) -> Int64? {
        let digits = text.utf8.prefix(19).filter { $0 >= 48 && $0 <= 57 }
        return seconds(fromDigits: String(decoding: digits, as: UTF8.self))
    }

    public static func seconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int64? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second) else { return nil }
        // Days from civil (H. Hinnant's public-domain algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = Int64(era * 146097 + doe - 719468)
        return days * 86400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
