import TCPSim
import TLSEngine

/// A TCP segment's header field by field (RFC 9293 §3.1), for the bytes a step shows (`x` in the
/// walkthrough): the header as TCPSim's codec encodes it, each field at its offset with the value
/// the codec reads back. The payload is not repeated: the TLS messages it carries have their own.
enum TCPHeaderDissection {
    /// The header bytes (options included) of `packet` and their dissection; nil if the codec
    /// cannot read back what it wrote (it always can for a segment the simulation sent).
    static func dissect(_ packet: TCPPacket) -> RunDocument.MessageBytes? {
        let wire = packet.segment.encoded(source: packet.source, destination: packet.destination)
        guard let s = try? TCPSegment.decode(wire, source: packet.source, destination: packet.destination) else { return nil }
        let headerLength = Int(wire[12] >> 4) * 4
        func field(_ offset: Int, _ length: Int, _ name: String, _ value: String) -> DissectedField {
            DissectedField(offset: offset, length: length, name: name, value: value.isEmpty ? .none : .text(value))
        }
        let flagNames: [(TCPFlags, String)] = [(.urg, "URG"), (.ack, "ACK"), (.psh, "PSH"), (.rst, "RST"), (.syn, "SYN"), (.fin, "FIN")]
        let flags = flagNames.filter { s.flags.contains($0.0) }.map(\.1).joined(separator: ", ")
        var fields = [
            field(0, 2, "source_port", "\(s.sourcePort)"),
            field(2, 2, "destination_port", "\(s.destinationPort)"),
            field(4, 4, "sequence_number", "\(s.seq.rawValue)"),
            field(8, 4, "acknowledgment_number", "\(s.ack?.rawValue ?? 0)"),
            DissectedField(offset: 12, length: 1, name: "data_offset", value: .lengthInWords(headerLength / 4)),
            field(13, 1, "control_bits", "0x" + Hex.string([wire[13]]) + (flags.isEmpty ? "" : " (\(flags))")),
            field(14, 2, "window", "\(s.window)"),
            field(16, 2, "checksum", "0x" + Hex.string(Array(wire[16..<18]))),
            field(18, 2, "urgent_pointer", "\(s.urgentPointer)"),
        ]
        if headerLength > TCPSegment.minimumHeaderLength {
            var options: [DissectedField] = []
            if let mss = s.mss { options.append(field(20, 4, "options.maximum_segment_size", "\(mss)")) }
            let used = options.last?.end ?? 20
            if used < headerLength { options.append(field(used, headerLength - used, "options.padding", "")) }
            fields.append(DissectedField(offset: 20, length: headerLength - 20, name: "options", value: .none, children: options))
        }
        let header = Array(wire.prefix(headerLength))
        let segment = DissectedField(offset: 0, length: headerLength, name: "tcp_header", value: .none, children: fields)
        return RunDocument.MessageBytes(bytes: header, dissection: Dissection(fields: [segment]))
    }
}
