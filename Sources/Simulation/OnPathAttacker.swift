import TCPSim
import TLSEngine
import Trace

/// An attacker on the path between client and server (the network hook `TCPNetwork.onPath`): it
/// rebuilds each direction's byte stream from the segments it forwards, finds TLS records and
/// handshake messages in it, and rewrites bytes in flight or schedules a replayed record. It
/// keeps every rewrite length-preserving, so TCP sequence numbers stay consistent.
final class OnPathAttacker {
    struct DirectionKey: Hashable { var source: TCPEndpoint, destination: TCPEndpoint }

    let attack: Attack
    let clientAddress: IPv4Address
    private var streams: [DirectionKey: StreamBuffer] = [:]
    /// Stream position → byte to write instead, for the one direction being rewritten.
    private var rewrites: [Int: UInt8] = [:]
    private var rewriteDirection: DirectionKey?
    private var replayScheduled = false
    /// Sequence-number bookkeeping after an injection: in direction `key`, from `from` on, the
    /// receiver counts `delta` more bytes than the sender sent.
    private var shift: (key: DirectionKey, from: SeqNumber, delta: Int)?
    /// What it did since the run last collected (the run stamps time and actor).
    var events: [AttackEvent] = []
    /// The client's first flight with 0-RTT records, recorded for `replayEarlyData`.
    var recordedEarlyFlight: [UInt8]?
    /// The server-to-client directions that already carried data (the first one ends a client's first flight).
    private var answered: Set<DirectionKey> = []
    /// Segments to put on the wire (the run injects them), with what their bytes carry.
    var injections: [(packet: TCPPacket, content: StreamSpan.Content)] = []

    init(attack: Attack, clientAddress: IPv4Address) {
        self.attack = attack
        self.clientAddress = clientAddress
    }

    /// The network hook: returns the packet to carry on.
    func inspect(_ packet: TCPPacket) -> TCPPacket? {
        let key = DirectionKey(source: packet.sourceEndpoint, destination: packet.destinationEndpoint)
        var buffer = streams[key] ?? StreamBuffer()
        let offset = buffer.add(packet.segment)
        streams[key] = buffer
        let sender: Actor = packet.source == clientAddress ? .client : .server
        guard let offset, !packet.segment.payload.isEmpty else { return shifted(packet, key: key) }

        if rewriteDirection == nil {
            switch attack {
            case .tamper(let target) where target.sender == sender:
                planTamper(target, stream: buffer.bytes, key: key)
            case .stripSuites(let suites) where sender == .client:
                planStrip(suites, stream: buffer.bytes, key: key)
            case .stripTLS13 where sender == .client:
                planStripTLS13(stream: buffer.bytes, key: key)
            default:
                break
            }
        }
        if case .replayApplicationData(let index) = attack, sender == .client, !replayScheduled {
            planReplay(index: index, buffer: buffer, packet: packet)
        }
        if case .replayEarlyData = attack, sender == .server, recordedEarlyFlight == nil, answered.insert(key).inserted,
           let client = streams[DirectionKey(source: key.destination, destination: key.source)] {
            recordEarlyFlight(client.bytes)
        }
        if case .injectEarlyChangeCipherSpec = attack, sender == .client, !replayScheduled {
            planEarlyChangeCipherSpec(buffer: buffer, packet: packet)
        }
        var out = packet
        if rewriteDirection == key, !rewrites.isEmpty {
            var payload = out.segment.payload
            for i in payload.indices {
                if let b = rewrites[offset + i] { payload[i] = b }
            }
            out.segment.payload = payload
        }
        return shifted(out, key: key)
    }

    /// After an injection the two ends disagree on the client's sequence numbers; left alone they
    /// would answer each other's "impossible" ACKs forever (an ACK storm). The attacker, on the
    /// path, keeps them in step: it adds the injected length to the client's later sequence
    /// numbers and takes it off the server's acknowledgments.
    private func shifted(_ packet: TCPPacket, key: DirectionKey) -> TCPPacket {
        guard let shift else { return packet }
        var out = packet
        if key == shift.key, out.segment.seq.isAtOrAfter(shift.from) {
            out.segment.seq = out.segment.seq + shift.delta
        }
        if key == DirectionKey(source: shift.key.destination, destination: shift.key.source),
           let ack = out.segment.ack, ack.isAfter(shift.from) {
            let back = ack - shift.delta
            out.segment.setAck(back.isBefore(shift.from) ? shift.from : back)
        }
        return out
    }

    // MARK: - Plans

    private func planTamper(_ target: TamperTarget, stream: [UInt8], key: DirectionKey) {
        if target.message == TamperTarget.httpRequest || target.message == TamperTarget.httpResponse {
            planHTTPTamper(target, stream: stream, key: key)
            return
        }
        let layout = TLSStreamLayout(stream)
        guard let message = layout.messages.first(where: { Self.name($0.type) == target.message }) else { return }
        let index = message.start + target.offset
        guard target.offset >= 0, target.offset < 4 + message.length, index < layout.handshakePositions.count else { return }
        let position = layout.handshakePositions[index]
        let old = stream[position]
        let new = target.newValue ?? (old ^ 0xFF)
        rewrites = [position: new]
        rewriteDirection = key
        events.append(.tampered(message: target.message, sender: target.sender, offset: target.offset, old: old, new: new))
    }

    /// The first HTTP message of this direction. Over plain HTTP it is the stream itself, so byte
    /// `offset` of the message is byte `offset` of the stream; over TLS the attacker cannot find
    /// the text, so it changes byte `offset` of the payload of the first application-data record
    /// (the ciphertext carrying the message). Waits until that byte has been sent.
    private func planHTTPTamper(_ target: TamperTarget, stream: [UInt8], key: DirectionKey) {
        let isTLS = stream.count >= 2 && (stream[0] == 22 || stream[0] == 23) && stream[1] == 3
        let position: Int
        if isTLS {
            let layout = TLSStreamLayout(stream)
            guard let record = layout.records.first(where: { $0.type == 23 && $0.protected }),
                  target.offset >= 0, target.offset < record.end - record.start - 5 else { return }
            position = record.start + 5 + target.offset
        } else {
            position = target.offset
        }
        guard position >= 0, position < stream.count else { return }
        let old = stream[position]
        let new = target.newValue ?? (old ^ 0xFF)
        rewrites = [position: new]
        rewriteDirection = key
        events.append(.tampered(message: target.message, sender: target.sender, offset: target.offset, old: old, new: new))
    }

    private func planStrip(_ strip: [CipherSuite], stream: [UInt8], key: DirectionKey) {
        let layout = TLSStreamLayout(stream)
        guard let hello = layout.messages.first(where: { $0.type == .clientHello }),
              hello.start + 4 + hello.length <= layout.handshakePositions.count else { return }
        let positions = Array(layout.handshakePositions[hello.start..<(hello.start + 4 + hello.length)])
        let original = positions.map { stream[$0] }
        guard let result = Self.stripped(original, remove: Set(strip)) else {
            rewriteDirection = key  // nothing to strip: leave the ClientHello alone
            events.append(.strippedSuites(removed: [], kept: [], how: .nothingToStrip))
            return
        }
        for (i, p) in positions.enumerated() where result.bytes[i] != original[i] { rewrites[p] = result.bytes[i] }
        rewriteDirection = key
        events.append(.strippedSuites(removed: result.removed, kept: result.kept, how: result.how))
    }

    /// Waits for the whole ClientHello, then rewrites it without its TLS 1.3 extensions.
    private func planStripTLS13(stream: [UInt8], key: DirectionKey) {
        let layout = TLSStreamLayout(stream)
        guard let hello = layout.messages.first(where: { $0.type == .clientHello }),
              hello.start + 4 + hello.length <= layout.handshakePositions.count else { return }
        let positions = Array(layout.handshakePositions[hello.start..<(hello.start + 4 + hello.length)])
        let original = positions.map { stream[$0] }
        rewriteDirection = key
        guard let result = Self.strippedTLS13(original) else { return }
        for (i, p) in positions.enumerated() where result.bytes[i] != original[i] { rewrites[p] = result.bytes[i] }
        events.append(.strippedTLS13(removed: result.removed, paddingBytes: result.paddingBytes))
    }

    /// The extensions that make a ClientHello a TLS 1.3 offer (RFC 8446 §4.2).
    static let tls13Extensions: [ExtensionType] = [.supportedVersions, .keyShare, .pskKeyExchangeModes]

    /// The ClientHello without its TLS 1.3 extensions, the same length: a padding extension
    /// (RFC 7685) takes their bytes. nil when it has none (or does not parse).
    static func strippedTLS13(_ message: [UInt8]) -> (bytes: [UInt8], removed: [ExtensionType], paddingBytes: Int)? {
        var r = ByteReader(Array(message.dropFirst(4)))
        guard message.first == HandshakeType.clientHello.rawValue, var hello = try? ClientHello(from: &r), r.isAtEnd,
              let extensions = hello.extensions else { return nil }
        let removed = extensions.filter { tls13Extensions.contains($0.type) }
        guard !removed.isEmpty else { return nil }
        var kept = extensions.filter { !tls13Extensions.contains($0.type) && $0.type != .padding }
        func size(_ list: [TLSExtension]) -> Int {
            var w = ByteWriter()
            for e in list { e.encode(to: &w) }
            return w.bytes.count
        }
        let freed = size(extensions) - size(kept)
        guard freed >= 4 else { return nil }
        kept.append(.unknown(.padding, [UInt8](repeating: 0, count: freed - 4)))
        hello.extensions = kept
        let bytes = HandshakeMessage.clientHello(hello).encoded
        guard bytes.count == message.count else { return nil }
        return (bytes, removed.map(\.type), freed - 4)
    }

    private func planReplay(index: Int, buffer: StreamBuffer, packet: TCPPacket) {
        let layout = TLSStreamLayout(buffer.bytes)
        let data = layout.records.filter { $0.type == 23 && $0.protected && $0.end <= buffer.bytes.count }
        guard index >= 0, index < data.count, let seq = buffer.seq(ofOffset: buffer.bytes.count) else { return }
        let record = data[index]
        // A copy of the record as new bytes right after what the client has sent so far.
        let seg = TCPSegment(sourcePort: packet.segment.sourcePort, destinationPort: packet.segment.destinationPort,
                             seq: seq, ack: packet.segment.ack, flags: [.psh], window: packet.segment.window,
                             payload: Array(buffer.bytes[record.start..<record.end]))
        injections.append((TCPPacket(source: packet.source, destination: packet.destination, segment: seg), .applicationData))
        shift = (DirectionKey(source: packet.sourceEndpoint, destination: packet.destinationEndpoint), seq, seg.payload.count)
        replayScheduled = true
        events.append(.replayed(recordBytes: record.end - record.start, seq: seq.rawValue))
    }

    /// Once the whole ClientHello has gone by: a ChangeCipherSpec record (type 20, version 03 03,
    /// length 1, value 1) as new client bytes right after it, long before the keys exist.
    private func planEarlyChangeCipherSpec(buffer: StreamBuffer, packet: TCPPacket) {
        let layout = TLSStreamLayout(buffer.bytes)
        guard let hello = layout.records.first, hello.type == 22, hello.end <= buffer.bytes.count,
              let seq = buffer.seq(ofOffset: buffer.bytes.count) else { return }
        let seg = TCPSegment(sourcePort: packet.segment.sourcePort, destinationPort: packet.segment.destinationPort,
                             seq: seq, ack: packet.segment.ack, flags: [.psh], window: packet.segment.window,
                             payload: [20, 3, 3, 0, 1, 1])
        injections.append((TCPPacket(source: packet.source, destination: packet.destination, segment: seg), .changeCipherSpec))
        shift = (DirectionKey(source: packet.sourceEndpoint, destination: packet.destinationEndpoint), seq, seg.payload.count)
        replayScheduled = true
        events.append(.injectedChangeCipherSpec(seq: seq.rawValue))
    }

    /// When the server first answers on a connection, everything the client sent before: kept when it holds a
    /// protected application-data record — 0-RTT data, sent before any answer (RFC 8446 §2.3).
    private func recordEarlyFlight(_ stream: [UInt8]) {
        let layout = TLSStreamLayout(stream)
        let complete = layout.records.filter { $0.end <= stream.count }
        guard complete.first?.type == 22, complete.contains(where: { $0.type == 23 }), let end = complete.last?.end else { return }
        recordedEarlyFlight = Array(stream[..<end])
        events.append(.recordedEarlyFlight(bytes: end, records: complete.count))
    }

    // MARK: - Helpers

    static func name(_ type: HandshakeType) -> String { type.messageName }

    /// The ClientHello without the given suites, the same length: the freed bytes go into a
    /// padding extension (RFC 7685); when too few bytes are freed for one, each removed suite is
    /// overwritten with a copy of the first kept suite instead.
    static func stripped(_ message: [UInt8], remove: Set<CipherSuite>)
        -> (bytes: [UInt8], removed: [CipherSuite], kept: [CipherSuite], how: SuiteStripping)?
    {
        func be16(_ b: ArraySlice<UInt8>) -> Int { Int(b[b.startIndex]) << 8 | Int(b[b.startIndex + 1]) }
        func put16(_ n: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)] }
        let body = Array(message.dropFirst(4))
        var p = 2 + 32
        guard body.count > p else { return nil }
        p += 1 + Int(body[p])
        guard body.count >= p + 2 else { return nil }
        let suitesLength = be16(body[p..<(p + 2)])
        let suitesStart = p + 2, suitesEnd = suitesStart + suitesLength
        guard body.count >= suitesEnd else { return nil }
        let suites = stride(from: suitesStart, to: suitesEnd, by: 2).map { CipherSuite(rawValue: UInt16(be16(body[$0..<($0 + 2)]))) }
        let kept = suites.filter { !remove.contains($0) }, removed = suites.filter { remove.contains($0) }
        guard !removed.isEmpty, let firstKept = kept.first else { return nil }
        let rest = Array(body[suitesEnd...])  // compression methods, then extensions
        guard let compressionCount = rest.first.map(Int.init), rest.count >= 1 + compressionCount else { return nil }
        let compression = Array(rest[0..<(1 + compressionCount)])
        let extensionsBlock = Array(rest[(1 + compressionCount)...])
        let freed = 2 * removed.count
        let keptBytes = kept.flatMap { put16(Int($0.rawValue)) }
        var newBody: [UInt8]?
        var how = SuiteStripping.nothingToStrip
        if extensionsBlock.count >= 2, freed >= 4 {
            let extensions = Array(extensionsBlock.dropFirst(2))
            let padding = [0x00, 0x15] + put16(freed - 4) + [UInt8](repeating: 0, count: freed - 4)
            newBody = Array(body[0..<p]) + put16(kept.count * 2) + keptBytes + compression
                + put16(extensions.count + padding.count) + extensions + padding
            how = .paddingExtension(freedBytes: freed)
        } else if extensionsBlock.isEmpty, freed >= 6 {
            let padding = [0x00, 0x15] + put16(freed - 6) + [UInt8](repeating: 0, count: freed - 6)
            newBody = Array(body[0..<p]) + put16(kept.count * 2) + keptBytes + compression + put16(padding.count) + padding
            how = .paddingExtensionBlock(freedBytes: freed)
        }
        if newBody?.count != body.count {
            let list = suites.flatMap { remove.contains($0) ? put16(Int(firstKept.rawValue)) : put16(Int($0.rawValue)) }
            newBody = Array(body[0..<suitesStart]) + list + rest
            how = .overwrittenWith(firstKept)
        }
        guard let newBody, newBody.count == body.count else { return nil }
        return (Array(message.prefix(4)) + newBody, removed, kept, how)
    }
}

/// Where records and handshake messages lie in one direction's TCP byte stream.
struct TLSStreamLayout {
    struct Record { var type: UInt8, start: Int, end: Int, protected: Bool }
    struct Message { var type: HandshakeType, start: Int, length: Int }
    /// Stream position of each byte of the plaintext handshake stream (headers of records skipped).
    var handshakePositions: [Int] = []
    var records: [Record] = []
    /// Handshake messages; `start` indexes `handshakePositions`.
    var messages: [Message] = []

    init(_ stream: [UInt8]) {
        var p = 0
        var afterCCS = false
        while p + 5 <= stream.count {
            let type = stream[p]
            let length = Int(stream[p + 3]) << 8 | Int(stream[p + 4])
            records.append(Record(type: type, start: p, end: p + 5 + length, protected: afterCCS))
            if type == 22, !afterCCS {
                for i in 0..<length where p + 5 + i < stream.count { handshakePositions.append(p + 5 + i) }
            }
            if type == 20 { afterCCS = true }
            p += 5 + length
        }
        var i = 0
        while i + 4 <= handshakePositions.count {
            let h = handshakePositions[i..<(i + 4)].map { stream[$0] }
            let length = Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3])
            messages.append(Message(type: HandshakeType(rawValue: h[0]), start: i, length: length))
            i += 4 + length
        }
    }
}
