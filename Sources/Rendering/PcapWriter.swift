import TCPSim

/// Writes a classic libpcap capture file (the format tcpdump writes: magic a1b2c3d4, version 2.4)
/// of IPv4 packets, so Wireshark and tshark can open a simulated connection.
///
/// The caller gives each packet's transport bytes (a whole TCP segment, checksum included); the
/// writer adds the IPv4 header (with its checksum) and, for the Ethernet link type, an Ethernet II
/// header. Timestamps are the simulation's virtual clock.
public struct PcapWriter: Sendable {
    public enum LinkType: UInt32, Sendable {
        /// LINKTYPE_ETHERNET: Ethernet II frames.
        case ethernet = 1
        /// LINKTYPE_IPV4: bare IPv4 packets.
        case rawIPv4 = 228
    }

    public struct Packet: Sendable, Hashable {
        /// Virtual time in microseconds since the start of the run.
        public var timeMicroseconds: Int64
        public var source: IPv4Address
        public var destination: IPv4Address
        /// IP protocol number (6 = TCP).
        public var ipProtocol: UInt8
        /// The transport header and payload.
        public var payload: [UInt8]

        public init(timeMicroseconds: Int64, source: IPv4Address, destination: IPv4Address,
                    ipProtocol: UInt8 = 6, payload: [UInt8]) {
            self.timeMicroseconds = timeMicroseconds
            self.source = source
            self.destination = destination
            self.ipProtocol = ipProtocol
            self.payload = payload
        }
    }

    public var linkType: LinkType
    /// Where the virtual clock's zero lies, in Unix seconds (a fixed date keeps files reproducible).
    public var epochSeconds: UInt32

    public init(linkType: LinkType = .ethernet, epochSeconds: UInt32 = 1_767_225_600) {
        self.linkType = linkType
        self.epochSeconds = epochSeconds
    }

    /// The whole file.
    public func file(_ packets: [Packet]) -> [UInt8] {
        var out: [UInt8] = []
        // Global header (little-endian, as written by tcpdump on x86).
        out.appendLE32(0xa1b2_c3d4)
        out.appendLE16(2)
        out.appendLE16(4)
        out.appendLE32(0)          // thiszone
        out.appendLE32(0)          // sigfigs
        out.appendLE32(262_144)    // snaplen
        out.appendLE32(linkType.rawValue)
        for (index, packet) in packets.enumerated() {
            let frame = self.frame(packet, identification: UInt16(truncatingIfNeeded: index + 1))
            let time = max(packet.timeMicroseconds, 0)
            out.appendLE32(epochSeconds &+ UInt32(truncatingIfNeeded: time / 1_000_000))
            out.appendLE32(UInt32(time % 1_000_000))
            out.appendLE32(UInt32(frame.count))
            out.appendLE32(UInt32(frame.count))
            out.append(contentsOf: frame)
        }
        return out
    }

    /// One packet as it goes on the link.
    public func frame(_ packet: Packet, identification: UInt16) -> [UInt8] {
        let ip = Self.ipv4Packet(packet, identification: identification)
        switch linkType {
        case .rawIPv4:
            return ip
        case .ethernet:
            var frame: [UInt8] = []
            frame.append(contentsOf: packet.destination.macAddress)
            frame.append(contentsOf: packet.source.macAddress)
            frame.append(contentsOf: [0x08, 0x00])  // EtherType IPv4
            frame.append(contentsOf: ip)
            return frame
        }
    }

    /// RFC 791 header (20 bytes, no options, Don't Fragment, TTL 64) and payload.
    static func ipv4Packet(_ packet: Packet, identification: UInt16) -> [UInt8] {
        let total = 20 + packet.payload.count
        var header: [UInt8] = [
            0x45, 0x00, UInt8(truncatingIfNeeded: total >> 8), UInt8(truncatingIfNeeded: total),
            UInt8(identification >> 8), UInt8(identification & 0xff), 0x40, 0x00,
            64, packet.ipProtocol, 0, 0,
        ]
        header.append(contentsOf: packet.source.octets)
        header.append(contentsOf: packet.destination.octets)
        let sum = InternetChecksum.compute(header)
        header[10] = UInt8(sum >> 8)
        header[11] = UInt8(sum & 0xff)
        return header + packet.payload
    }
}

extension IPv4Address {
    /// A locally administered MAC address derived from the IP address (02:00:a:b:c:d).
    var macAddress: [UInt8] { [0x02, 0x00] + octets }
}

/// RFC 1071: the ones'-complement sum used by IPv4 and TCP.
public enum InternetChecksum {
    public static func compute(_ bytes: [UInt8]) -> UInt16 {
        var sum: UInt32 = 0
        var i = 0
        while i + 1 < bytes.count {
            sum += UInt32(bytes[i]) << 8 | UInt32(bytes[i + 1])
            i += 2
        }
        if i < bytes.count { sum += UInt32(bytes[i]) << 8 }
        while sum >> 16 != 0 { sum = (sum & 0xffff) + (sum >> 16) }
        return ~UInt16(sum)
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendLE32(_ v: UInt32) {
        append(contentsOf: [UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff), UInt8(v >> 24)])
    }

    fileprivate mutating func appendLE16(_ v: UInt16) {
        append(contentsOf: [UInt8(v & 0xff), UInt8(v >> 8)])
    }
}
