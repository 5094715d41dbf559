/// RFC 5246 §7.4.1.2:
/// ```
/// struct {
///     ProtocolVersion client_version;
///     Random random;
///     SessionID session_id;                                 // opaque SessionID<0..32>;
///     CipherSuite cipher_suites<2..2^16-2>;
///     CompressionMethod compression_methods<1..2^8-1>;
///     select (extensions_present) {
///         case false: struct {};
///         case true:  Extension extensions<0..2^16-1>;
///     };
/// } ClientHello;
/// ```
public struct ClientHello: TLSCodable, Hashable {
    public var clientVersion: ProtocolVersion
    public var random: Random
    public var sessionID: [UInt8]
    public var cipherSuites: [CipherSuite]
    public var compressionMethods: [CompressionMethod]
    /// nil when the message ends after compression_methods (no extensions block at all).
    public var extensions: [TLSExtension]?

    public init(clientVersion: ProtocolVersion = .tls12, random: Random, sessionID: [UInt8] = [],
                cipherSuites: [CipherSuite], compressionMethods: [CompressionMethod] = [.null],
                extensions: [TLSExtension]? = nil) {
        self.clientVersion = clientVersion
        self.random = random
        self.sessionID = sessionID
        self.cipherSuites = cipherSuites
        self.compressionMethods = compressionMethods
        self.extensions = extensions
    }

    public func encode(to writer: inout ByteWriter) {
        clientVersion.encode(to: &writer)
        random.encode(to: &writer)
        writer.writeOpaque(sessionID, lengthBytes: 1)
        writer.writeList(cipherSuites, lengthBytes: 2)
        writer.writeList(compressionMethods, lengthBytes: 1)
        TLSExtension.encodeBlock(extensions, to: &writer)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        clientVersion = try reader.readCodePoint(ProtocolVersion.self, field: "client_version")
        random = try Random(from: &reader)
        sessionID = try reader.readOpaque(lengthBytes: 1, min: 0, max: 32, field: "session_id", as: .hex)
        cipherSuites = try reader.readList(of: CipherSuite.self, lengthBytes: 2, min: 2, max: 0xfffe,
                                           elementSize: 2, field: "cipher_suites")
        compressionMethods = try reader.readList(of: CompressionMethod.self, lengthBytes: 1, min: 1, max: 0xff,
                                                 elementSize: 1, field: "compression_methods")
        extensions = try TLSExtension.decodeBlock(from: &reader)
    }
}
