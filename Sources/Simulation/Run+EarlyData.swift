import TCPSim
import TLSEngine
import Trace

/// 0-RTT in a run (RFC 8446 §2.3, §4.2.10, §8): the server's tickets allow early data, and a
/// resuming client sends its first request in its first flight.
public struct TLS13EarlyDataOptions: Sendable, Hashable {
    /// max_early_data_size in each NewSessionTicket (§4.6.1).
    public var maxEarlyDataSize: UInt32
    /// The server accepts early data offered with a ticket that allows it (§4.2.10).
    public var accepts: Bool
    /// The server uses each ticket once (§8.1): a replayed ClientHello finds it gone.
    public var singleUseTickets: Bool
    /// The resuming client sends its first request as 0-RTT data when its ticket allows it (§2.3);
    /// false: the tickets allow early data but the client never sends any.
    public var clientSends: Bool
    /// ClientHello recording (§8.2) with the freshness check (§8.3): the server records each
    /// ClientHello whose 0-RTT data it accepts for this many milliseconds and refuses 0-RTT for a
    /// recorded one, or for one whose expected arrival time lies outside the window; nil: no recording.
    public var recordingWindowMilliseconds: UInt64?

    public init(maxEarlyDataSize: UInt32 = 16_384, accepts: Bool = true, singleUseTickets: Bool = false, clientSends: Bool = true,
                recordingWindowMilliseconds: UInt64? = nil) {
        self.maxEarlyDataSize = maxEarlyDataSize
        self.accepts = accepts
        self.singleUseTickets = singleUseTickets
        self.clientSends = clientSends
        self.recordingWindowMilliseconds = recordingWindowMilliseconds
    }

    var server: TLS13ServerEarlyData {
        TLS13ServerEarlyData(maxEarlyDataSize: maxEarlyDataSize, accepts: accepts, singleUseTickets: singleUseTickets)
    }
}

extension Run {
    /// Right after a ClientHello that offers 0-RTT: the connection's first request as early data (§2.3).
    func sendEarlyRequest(_ e: Endpoint, leg: Leg) {
        guard e.actor == .client, case .client13(var client) = e.engine, client.canSendEarlyData,
              leg.sent == 0, let request = leg.requests.first else { return }
        leg.sent = 1
        leg.sentEarly = true
        http(.requestSent(request), by: e)
        let step = client.sendEarlyData(Array(request.utf8))
        e.engine = .client13(client)
        record(step.tlsStep(role: .client), by: e)
    }

    /// The 0-RTT facts of a step that the run acts on: a server that accepted early data reads the
    /// request and may answer before the handshake ends (0.5-RTT, §4.4.4); a client whose early data
    /// was rejected sends the request again once connected (§4.2.10); a single-use ticket that was
    /// redeemed leaves the server's store (§8.1).
    func noteEarlyData(_ step: TLS13Step, by e: Endpoint, leg: Leg) {
        for event in step.events {
            switch event {
            case .earlyDataAccepted where e.actor == .server:
                e.readsEarlyData = true
                // Its first flight and the answer to the early request leave together (0.5-RTT, §4.4.4).
                e.heldWrites = e.heldWrites ?? []
            case .earlyDataRejected where e.actor == .client && leg.sentEarly && leg.answered == 0:
                leg.sent = 0
                leg.sentEarly = false
            case .ticketRedeemed(let identity) where e.actor == .server:
                tls13IssuedTickets.removeAll { $0.message.ticket == identity }
            case .clientHelloRecorded(let recorded) where e.actor == .server:
                tls13RecordedClientHellos.append(recorded)
            default:
                break
            }
        }
    }

    /// Writes what `e` gathered as one flight.
    func releaseHeldWrites(_ e: Endpoint) {
        guard let held = e.heldWrites else { return }
        e.heldWrites = nil
        guard !held.isEmpty, let id = e.tcp else { return }
        if e.busyUntil > net.now || !e.pendingWrites.isEmpty {
            e.pendingWrites.append((max(e.busyUntil, net.now), held))
            return
        }
        try? net.write(id, held)
    }

    /// `replayEarlyData`: once the client's last connection is over, the attacker connects to the
    /// server from its own address; the recorded flight is written when that connection is up.
    func replayEarlyFlightIfDue() {
        guard case .replayEarlyData? = setup.attack, !earlyFlightReplayed, let onPath, let flight = onPath.recordedEarlyFlight,
              clientLegs.count == plannedConnections.count, let last = clientLegs.last, last.initiator.closing == .tcpClosed,
              let id = last.initiator.tcp, let state = net.state(of: id), state == .timeWait || state == .closed else { return }
        earlyFlightReplayed = true
        let index = (legs.map(\.index).max() ?? 0) + 1
        net.addHost(setup.attackerAddress, config: setup.tcpConfig)
        net.setLinks(between: setup.attackerAddress, and: setup.serverAddress, setup.link)
        let attacker = Endpoint(actor: .attacker, peer: .server, connection: index, isInitiator: true, engine: .plain)
        let leg = Leg(index: index, initiator: attacker, responder: serverEndpoint(connection: index, peer: .attacker),
                      responderAddress: setup.serverAddress)
        leg.replayedFlight = flight
        legs.append(leg)
        activeLegs.append(leg)
        note(.tcpOpen, connection: index)
        do throws(TCPUserError) {
            let id = try net.connect(from: setup.attackerAddress, to: TCPEndpoint(setup.serverAddress, setup.serverPort))
            attacker.tcp = id
            connectionOfPort[id.local] = index
        } catch {
            note(.failed(.attackerCouldNotReachServer, error: error), connection: index)
        }
    }

    /// The replaying attacker writes the recorded bytes once its connection is established: the
    /// ClientHello in the clear, then the 0-RTT records it cannot read.
    func writeReplayedFlights() {
        for leg in activeLegs {
            guard let flight = leg.replayedFlight, !leg.flightWritten, let id = leg.initiator.tcp, net.state(of: id) == .established else { continue }
            leg.flightWritten = true
            let e = leg.initiator
            events.append(TraceEvent(time: net.now, actor: .attacker, kind: .attack(.replayedEarlyFlight(bytes: flight.count)), connection: leg.index))
            for record in TLSStreamLayout(flight).records where record.end <= flight.count {
                let content: StreamSpan.Content
                switch record.type {
                case 22:
                    content = .handshake(.clientHello)
                    // The copied ClientHello, sent by the attacker: the server's receipt matches this send.
                    let bytes = Array(flight[(record.start + TLSRecord.headerLength)..<record.end])
                    let message = HandshakeMessage.tls13(bytes)
                    events.append(TraceEvent(time: net.now, actor: .attacker, kind: .tls(.handshakeSent(message, bytes: bytes)),
                                             connection: leg.index, peer: .server))
                    e.outgoing.append((.handshake(message, bytes: bytes), record.end))
                case 20:
                    content = .changeCipherSpec
                    events.append(TraceEvent(time: net.now, actor: .attacker, kind: .tls(.changeCipherSpecSent), connection: leg.index, peer: .server))
                    e.outgoing.append((.changeCipherSpec, record.end))
                default:
                    content = .applicationData
                }
                addSpan(content, offset: record.start, length: record.end - record.start, encrypted: record.type == 23, by: e)
            }
            write(flight, from: e)
        }
    }
}
