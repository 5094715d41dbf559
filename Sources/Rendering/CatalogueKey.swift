import PKI
import TCPSim
import TLSEngine
import Trace

/// The catalogue keys of typed values, one literal per case, so "where does this sentence come
/// from" is one search for the key. No key is built by string interpolation
/// (`CatalogueKeyLiteralTests` reads the sources); a value with no key of its own gives nil.
enum CatalogueKey {
    /// A party's name as a column or a sentence's subject ("party.client").
    static func party(_ actor: Actor) -> String {
        switch actor {
        case .client: "party.client"
        case .server: "party.server"
        case .network: "party.network"
        case .eavesdropper: "party.eavesdropper"
        case .attacker: "party.attacker"
        }
    }

    /// A party's name inside a sentence ("actor.client").
    static func actor(_ actor: Actor) -> String {
        switch actor {
        case .client: "actor.client"
        case .server: "actor.server"
        case .network: "actor.network"
        case .eavesdropper: "actor.eavesdropper"
        case .attacker: "actor.attacker"
        }
    }

    /// A kind of chain check's short name.
    static func chainKind(_ kind: ChainCheck.Kind) -> String {
        switch kind {
        case .algorithmStrength: "chain.kind.algorithmStrength"
        case .anchor: "chain.kind.anchor"
        case .caFlag: "chain.kind.caFlag"
        case .chainDepth: "chain.kind.chainDepth"
        case .criticalExtensions: "chain.kind.criticalExtensions"
        case .endEntity: "chain.kind.endEntity"
        case .extendedKeyUsage: "chain.kind.extendedKeyUsage"
        case .keyCertSign: "chain.kind.keyCertSign"
        case .keyUsage: "chain.kind.keyUsage"
        case .name: "chain.kind.name"
        case .nameConstraints: "chain.kind.nameConstraints"
        case .pathBuilding: "chain.kind.pathBuilding"
        case .pathLength: "chain.kind.pathLength"
        case .profile: "chain.kind.profile"
        case .signature: "chain.kind.signature"
        case .validity: "chain.kind.validity"
        }
    }

    /// What a kind of chain check checks and why.
    static func chainWhy(_ kind: ChainCheck.Kind) -> String {
        switch kind {
        case .algorithmStrength: "chain.why.algorithmStrength"
        case .anchor: "chain.why.anchor"
        case .caFlag: "chain.why.caFlag"
        case .chainDepth: "chain.why.chainDepth"
        case .criticalExtensions: "chain.why.criticalExtensions"
        case .endEntity: "chain.why.endEntity"
        case .extendedKeyUsage: "chain.why.extendedKeyUsage"
        case .keyCertSign: "chain.why.keyCertSign"
        case .keyUsage: "chain.why.keyUsage"
        case .name: "chain.why.name"
        case .nameConstraints: "chain.why.nameConstraints"
        case .pathBuilding: "chain.why.pathBuilding"
        case .pathLength: "chain.why.pathLength"
        case .profile: "chain.why.profile"
        case .signature: "chain.why.signature"
        case .validity: "chain.why.validity"
        }
    }

    /// A trust evaluation's result in Apple's vocabulary.
    static func trust(_ result: TrustResult) -> String {
        switch result {
        case .proceed: "trust.proceed"
        case .unspecified: "trust.unspecified"
        case .recoverableTrustFailure: "trust.recoverableTrustFailure"
        case .fatalTrustFailure: "trust.fatalTrustFailure"
        }
    }

    /// A certificate's role in its chain.
    static func chainRole(_ role: ChainRole) -> String {
        switch role {
        case .leaf: "chain.role.leaf"
        case .ca: "chain.role.ca"
        case .top: "chain.role.top"
        case .anchor: "chain.role.anchor"
        }
    }

    /// A lesson's kind as its file spells it (`tls`, `tcp`, `dh`, `ats`).
    static func lessonKind(_ kind: String) -> String? {
        switch kind {
        case "tls": "lesson.kind.tls"
        case "tcp": "lesson.kind.tcp"
        case "dh": "lesson.kind.dh"
        case "ats": "lesson.kind.ats"
        default: nil
        }
    }

    /// A secret's name in the knowledge table and the attack lines.
    static func secret(_ secret: Secret) -> String {
        switch secret {
        case .clientRandom: "secret.client_random"
        case .serverRandom: "secret.server_random"
        case .preMasterSecret: "secret.premaster_secret"
        case .masterSecret: "secret.master_secret"
        case .clientWriteKey: "secret.client_write_key"
        case .serverWriteKey: "secret.server_write_key"
        case .sharedSecret: "secret.tls13_shared_secret"
        case .handshakeSecret: "secret.tls13_handshake_secret"
        case .clientHandshakeTrafficSecret: "secret.tls13_client_handshake_traffic_secret"
        case .serverHandshakeTrafficSecret: "secret.tls13_server_handshake_traffic_secret"
        case .tls13MasterSecret: "secret.tls13_master_secret"
        case .clientApplicationTrafficSecret: "secret.tls13_client_application_traffic_secret_0"
        case .serverApplicationTrafficSecret: "secret.tls13_server_application_traffic_secret_0"
        case .clientEarlyTrafficSecret: "secret.tls13_client_early_traffic_secret"
        case .httpCookie: "secret.HTTP_cookie"
        case .httpRequest: "secret.HTTP_request"
        case .httpResponse: "secret.HTTP_response"
        }
    }

    /// A TCP connection error's name.
    static func tcpError(_ error: TCPConnectionError) -> String {
        switch error {
        case .refused: "tcp.errorName.refused"
        case .reset: "tcp.errorName.reset"
        case .timedOut: "tcp.errorName.timedOut"
        case .aborted: "tcp.errorName.aborted"
        }
    }

    /// A TCP connection error's name as a lesson's end facts spell it ("reset"; "none" has none).
    static func tcpErrorName(_ error: String) -> String? {
        switch error {
        case "refused": "tcp.errorName.refused"
        case "reset": "tcp.errorName.reset"
        case "timedOut": "tcp.errorName.timedOut"
        case "aborted": "tcp.errorName.aborted"
        default: nil
        }
    }

    /// Why the network dropped a segment.
    static func dropReason(_ reason: TCPDropReason) -> String {
        switch reason {
        case .scriptedLoss: "tcp.dropReason.scriptedLoss"
        case .randomLoss: "tcp.dropReason.randomLoss"
        case .noRoute: "tcp.dropReason.noRoute"
        case .backlogFull: "tcp.dropReason.backlogFull"
        case .malformed: "tcp.dropReason.malformed"
        }
    }

    /// A TCP timer that fired (the delayed ACK has no sentence: nil).
    static func timerFired(_ kind: TCPTimerKind) -> String? {
        switch kind {
        case .retransmission: "tcp.timerFired.retransmission"
        case .persist: "tcp.timerFired.persist"
        case .timeWait: "tcp.timerFired.timeWait"
        case .delayedACK: nil
        }
    }

    /// What a signature signs.
    static func signaturePurpose(_ purpose: SignatureTrace.Purpose) -> String {
        switch purpose {
        case .serverKeyExchange: "signature.purpose.serverKeyExchange"
        case .certificateVerify: "signature.purpose.certificateVerify"
        }
    }

    /// Why a server refused a session ticket.
    static func ticketRefusal(_ reason: SessionTicketRefusal) -> String {
        switch reason {
        case .malformed: "ticket.refusal.malformed"
        case .unknownKeyName: "ticket.refusal.unknownKeyName"
        case .macMismatch: "ticket.refusal.macMismatch"
        case .sessionMismatch: "ticket.refusal.sessionMismatch"
        }
    }

    /// What the client offered to resume.
    static func sessionOffer(_ offer: ResumptionOffer) -> String {
        switch offer {
        case .sessionID: "session.offer.sessionID"
        case .ticket: "session.offer.ticket"
        }
    }

    /// A connection's outcome word in the multi-connection summary.
    static func outcomeWord(_ outcome: String) -> String? {
        switch outcome {
        case "success": "outcome.word.success"
        case "failed": "outcome.word.failed"
        case "incomplete": "outcome.word.incomplete"
        default: nil
        }
    }

    /// The plain-language line of an alert that has one.
    static func alert(_ name: String) -> String? {
        switch name {
        case "no_application_protocol": "alert.no_application_protocol"
        case "no_renegotiation": "alert.no_renegotiation"
        default: nil
        }
    }

    /// The AFNetworking release whose behaviour a policy reproduces.
    static func afNetworkingRelease(_ release: AFSecurityPolicy.Behaviour) -> String {
        switch release {
        case .current: "afNetworking.release.current"
        case .v2_5_1: "afNetworking.release.v2_5_1"
        case .v2_5_2: "afNetworking.release.v2_5_2"
        }
    }

    /// An ATS rule's result word.
    static func atsResult(_ result: ATSRuleCheck.Result) -> String {
        switch result {
        case .passed: "ats.result.passed"
        case .failed: "ats.result.failed"
        case .relaxed: "ats.result.relaxed"
        case .applies: "ats.result.applies"
        }
    }

    /// The kind of load ATS decides for, as the lesson file spells it.
    static func atsLoad(_ load: String) -> String? {
        switch load {
        case "app": "ats.load.app"
        case "media": "ats.load.media"
        case "webContent": "ats.load.webContent"
        default: nil
        }
    }

    /// A topic heading of the lesson index (the lesson folder's name).
    static func indexTopic(_ topic: String) -> String? {
        switch topic {
        case "": "html.index.topic."
        case "afnetworking": "html.index.topic.afnetworking"
        case "ats": "html.index.topic.ats"
        case "attacks": "html.index.topic.attacks"
        case "certs": "html.index.topic.certs"
        case "challenge": "html.index.topic.challenge"
        case "http": "html.index.topic.http"
        case "mtls": "html.index.topic.mtls"
        case "tcp": "html.index.topic.tcp"
        case "tls": "html.index.topic.tls"
        case "tls13": "html.index.topic.tls13"
        default: nil
        }
    }
}
