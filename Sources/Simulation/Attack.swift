import TLSCrypto
import TLSEngine
import Trace

/// An attacker in a run. The eavesdropper is always there (it records every segment); an
/// `Attack` adds what it does besides listening. The scenario layer scripts these; each one is a
/// mechanism that really acts on the bytes, and what it learns is measured, never asserted.
public enum Attack: Sendable {
    /// After the run the server's RSA private key is stolen and handed to the eavesdropper, which
    /// then tries to open the recorded connection: an RSA ClientKeyExchange decrypts to the
    /// premaster; an (EC)DHE one does not (forward secrecy).
    case stealServerKeyAfterwards
    /// A man in the middle: the client's TCP connection ends at the attacker (a spoofed DNS answer or
    /// a rogue access point), which answers as a TLS server with `identity` and opens its own TLS
    /// connection to the real server, relaying HTTP between the two.
    case mitm(identity: TLSIdentity)
    /// On the path: changes one byte of a handshake message in flight.
    case tamper(TamperTarget)
    /// On the path: removes these suites from the ClientHello (a downgrade). The message keeps its
    /// length (a padding extension, RFC 7685, takes the freed bytes) so TCP sequence numbers still fit.
    case stripSuites([CipherSuite])
    /// On the path: removes TLS 1.3 from the ClientHello — its supported_versions, key_share and
    /// psk_key_exchange_modes extensions — so a server that speaks 1.2 and 1.3 sees a TLS 1.2 client
    /// (RFC 8446 §4.2.1). The message keeps its length (a padding extension, RFC 7685, takes the
    /// freed bytes) so TCP sequence numbers still fit.
    case stripTLS13
    /// On the path: sends the client's `index`-th application-data record (0 = the first) to the
    /// server a second time, as new TCP bytes right after the original.
    case replayApplicationData(index: Int)
    /// On the path: right after the client's ClientHello, sends the server a ChangeCipherSpec record
    /// as new TCP bytes, before any key exists (the CCS injection of CVE-2014-0224).
    case injectEarlyChangeCipherSpec
    /// On the path: records the client's TLS 1.3 first flight when it carries 0-RTT data (its
    /// ClientHello and early data records, RFC 8446 §2.3) and, once the client's last connection
    /// is over, sends those bytes to the server from its own address as a new TCP connection (§8).
    case replayEarlyData
    /// The client's random values come from a generator seeded with its clock and process id, as
    /// Netscape Navigator 1.1 did (Goldberg and Wagner, 1996); the eavesdropper searches that seed space.
    case weakClientRandom(WeakRandom)
}

extension Attack {
    /// True for the attacks that sit on the client–server path and act on segments.
    public var actsOnPath: Bool {
        switch self {
        case .tamper, .stripSuites, .stripTLS13, .replayApplicationData, .injectEarlyChangeCipherSpec, .replayEarlyData: return true
        case .stealServerKeyAfterwards, .mitm, .weakClientRandom: return false
        }
    }
}

/// "Byte `offset` of the first `message` that `sender` sends", offset counted from the start of the
/// handshake message, its 4-byte header included (as in the JSON `bytes`).
/// `message` may also be ``httpRequest`` or ``httpResponse``: the first HTTP message of the
/// sender, byte `offset` of its text over plain HTTP, or byte `offset` of the payload of the
/// application-data record that carries it over TLS.
public struct TamperTarget: Sendable, Hashable {
    public static let httpRequest = "HTTPRequest"
    public static let httpResponse = "HTTPResponse"

    /// A handshake message name as the trace writes it: "ClientHello", "ServerHello", "Certificate", …
    public var message: String
    public var sender: Actor
    public var offset: Int
    /// The byte written instead; nil flips every bit (XOR 0xFF).
    public var newValue: UInt8?

    public init(message: String, sender: Actor, offset: Int, newValue: UInt8? = nil) {
        self.message = message
        self.sender = sender
        self.offset = offset
        self.newValue = newValue
    }
}

/// A predictable client generator: seed = clock milliseconds × 65 536 + process id, taken when the
/// client starts TLS. The eavesdropper knows the clock to within `clockWindowMilliseconds` (from
/// the capture's timestamps) and tries every process id below `processIDSpace` (at most 65 536):
/// (2 × window + 1) × space guesses, each one HMAC-DRBG instantiation. Negative values count as 0.
/// The search covers RSA sessions; for (EC)DHE it stops at the seed (regenerating an ephemeral key
/// is not modelled).
public struct WeakRandom: Sendable, Hashable {
    public var processID: UInt16
    public var processIDSpace: Int
    public var clockWindowMilliseconds: Int

    public init(processID: UInt16 = 1_234 % 64, processIDSpace: Int = 64, clockWindowMilliseconds: Int = 10) {
        self.processID = processID
        self.processIDSpace = processIDSpace
        self.clockWindowMilliseconds = clockWindowMilliseconds
    }

    public static func seed(clockMilliseconds: Int64, processID: UInt16) -> UInt64 {
        UInt64(bitPattern: clockMilliseconds) &* 65_536 &+ UInt64(processID)
    }

    /// The generator the weak client uses (and the attacker rebuilds for each guess).
    public static func generator(seed: UInt64) -> RandomSource { HMACDRBG(seed: seed) }
}
