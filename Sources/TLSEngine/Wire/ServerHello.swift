/// RFC 5246 §7.4.1.3:
/// ```
/// struct {
///     ProtocolVersion server_version;
///     Random random;
///     SessionID session_id;
///     CipherSuite cipher_suite;
///     CompressionMethod compression_method;
///     select (extensions_present) {
///         case false: struct {};
///         case true:  Extension extensions<0..2^16-1>;
///     };
/// } ServerHello;
/// ```
public struct ServerHello: TLSCodable, Hashable {
    public var serverVersion: ProtocolVersion
    public var random: Random
    public var sessionID: [UInt8]
    public var cipherSuite: CipherSuite
    public var compressionMethod: CompressionMethod
    /// nil when the message ends after compression_method.
    public var extensions: [TLSExtension]?

    public init(serverVersion: ProtocolVersion = .tls12, random: Random, sessionID: [UInt8] = [],
                cipherSuite: CipherSuite, compressionMethod: CompressionMethod = .null,
                extensions: [TLSExtension]? = nil) {
        self.serverVersion = serverVersion
        self.random = random
        self.sessionID = sessionID
        self.cipherSuite = cipherSuite
        self.compressionMethod = compressionMethod
        self.extensions = extensions
    }

    public func encode(to writer: inout ByteWriter) {
        serverVersion.encode(to: &writer)
        random.encode(to: &writer)
        writer.writeOpaque(sessionID, lengthBytes: 1)
        cipherSuite.encode(to: &writer)
        compressionMethod.encode(to: &writer)
        TLSExtension.encodeBlock(extensions, to: &writer)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        serverVersion = try reader.readCodePoint(ProtocolVersion.self, field: "server_version")
        random = try Random(from: &reader)
        sessionID = try reader.readOpaque(lengthBytes: 1, min: 0, max: 32, field: "session_id", as: .hex)
        cipherSuite = try reader.readCodePoint(CipherSuite.self, field: "cipher_suite")
        compressionMethod = try reader.readCodePoint(CompressionMethod.self, field: "compression_method")
        extensions = try TLSExtension.decodeBlock(from: &reader)
        // RFC 7301 §3.1: the server's ProtocolNameList "MUST contain exactly one ProtocolName".
        if let names = extensions?.applicationProtocols, names.count != 1 {
            throw .malformed(field: "protocol_name_list", reason: .serverProtocolNameCount(names.count))
        }
    }
}
