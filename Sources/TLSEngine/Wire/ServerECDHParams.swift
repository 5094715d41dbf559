/// RFC 8422 §5.4:
/// ```
/// struct { ECCurveType curve_type; select (curve_type) { case named_curve: NamedCurve namedcurve; }; } ECParameters;
/// struct { opaque point <1..2^8-1>; } ECPoint;
/// struct { ECParameters curve_params; ECPoint public; } ServerECDHParams;
/// ```
/// Only named_curve is allowed (RFC 8422 deprecates explicit curves); another curve_type is an
/// illegal_parameter.
public struct ServerECDHParams: TLSCodable, Hashable {
    public var namedGroup: NamedGroup
    /// The server's ephemeral public key (X25519: 32 bytes; secp256r1: 0x04‖X‖Y).
    public var point: [UInt8]

    public init(namedGroup: NamedGroup, point: [UInt8]) {
        self.namedGroup = namedGroup
        self.point = point
    }

    public func encode(to writer: inout ByteWriter) {
        ECCurveType.namedCurve.encode(to: &writer)
        namedGroup.encode(to: &writer)
        writer.writeOpaque(point, lengthBytes: 1)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let curveType = try reader.readCodePoint(ECCurveType.self, field: "curve_params.curve_type")
        guard curveType == .namedCurve else {
            throw .illegalParameter(field: "curve_params.curve_type", reason: .curveTypeNotNamed(curveType))
        }
        namedGroup = try reader.readCodePoint(NamedGroup.self, field: "curve_params.namedcurve")
        point = try reader.readOpaque(lengthBytes: 1, min: 1, max: 0xff, field: "public.point")
    }
}
