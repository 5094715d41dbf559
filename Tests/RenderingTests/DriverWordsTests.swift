import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTP2
@testable import Rendering
@testable import Simulation
import TCPSim
import TLSEngine
import Testing
import Trace

/// What the drivers report is typed (which secret was learned, how a stripped ClientHello kept its
/// length, which public-key operation was timed, which user call the simulated network refused);
/// the catalogue words it, in English and in Chinese.
@Suite("Driver facts worded by the catalogue")
struct DriverWordsTests {
    static func trace(_ run: BuiltInRun, seed: UInt64 = 1) throws -> Trace { Simulation(try run.setup(seed: seed)).run() }

    static func text(_ trace: Trace, _ explanations: Explanations, verbosity: TextRenderer.Verbosity = .normal) -> String {
        TextRenderer(verbosity: verbosity, width: 100_000, color: false, explanations: explanations).render(trace).joined(separator: "\n")
    }

    // MARK: Learned secrets

    @Test func everySecretHasANameInBothLanguages() {
        let renderers = [TextRenderer(), TextRenderer(explanations: .chinese)]
        for secret in Secret.allCases {
            for r in renderers {
                let key = "secret.\(secret.rawValue.replacing(" ", with: "_"))"
                #expect(r.explanations(key) != nil, "\(r.explanations.language) \(secret)")
                #expect(r.secretName(secret) == r.explanations(key))
            }
        }
        #expect(TextRenderer(explanations: .chinese).secretName(.preMasterSecret) == "预主密钥")
        #expect(Secret.allCases.filter(\.isHTTPText) == [.httpCookie, .httpRequest, .httpResponse])
    }

    @Test func theEavesdropperLearnsTypedSecretsWordedInEachLanguage() throws {
        let trace = try Self.trace(.keyTheftRSA)
        let learned = trace.learned(by: .eavesdropper).map(\.secret)
        #expect(learned.starts(with: [.preMasterSecret, .masterSecret, .clientWriteKey, .serverWriteKey, .httpRequest, .httpCookie]))
        let english = Self.text(trace, .english), chinese = Self.text(trace, .chinese)
        #expect(english.contains("eavesdropper LEARNS the premaster secret: "), "\(english)")
        #expect(english.contains("LEARNS the HTTP request: GET /profile HTTP/1.1"), "the first line of the request, not its hex")
        #expect(chinese.contains("得知了预主密钥："))
        #expect(chinese.contains("得知了HTTP 请求：GET /profile HTTP/1.1") || chinese.contains("得知了 HTTP 请求：GET /profile HTTP/1.1"), "\(chinese)")
        #expect(!chinese.contains("premaster secret"))
        // JSON Lines keeps the identifiers it always wrote.
        let json = JSONLinesRenderer().render(trace).joined(separator: "\n")
        #expect(json.contains("\"secret\":\"premaster secret\"") && json.contains("\"secret\":\"HTTP cookie\""))
    }

    @Test func theHTMLKnowledgeTableNamesSecretsFromTheCatalogue() throws {
        let trace = try Self.trace(.rsa)
        let table = HTMLRenderer(explanations: .chinese).knowledgeTable(trace.knowledge)
        #expect(table.contains("<th scope=\"row\">预主密钥</th>") && table.contains("<th scope=\"row\">主密钥</th>"), "\(table)")
        #expect(!table.contains("premaster secret"))
        #expect(HTMLRenderer().knowledgeTable(trace.knowledge).contains("<th scope=\"row\">premaster secret</th>"))
    }

    /// A random changed in flight: its copy's row is the same secret, marked; the scenario facts list
    /// each secret once, as before.
    @Test func aChangedCopyIsMarkedNotRenamed() throws {
        let trace = try Self.trace(.tamperServerHello)
        let rows = trace.knowledge.rows.filter { $0.secret == .serverRandom }
        #expect(rows.count == 2 && rows.filter(\.changedInFlight).count == 1)
    }

    // MARK: The strip attack

    @Test func everyWayOfKeepingTheLengthIsWordedInBothLanguages() {
        let cases: [(SuiteStripping, String, String)] = [
            (.nothingToStrip, "the ClientHello offers none of the suites to strip", "ClientHello 里没有要删掉的密码套件"),
            (.paddingExtension(freedBytes: 4), "the 4 freed bytes went into a padding extension so the message kept its length",
             "腾出的 4 个字节放进了一个填充扩展（padding），消息长度因此不变"),
            (.paddingExtensionBlock(freedBytes: 6), "the freed bytes became a padding extension so the message kept its length",
             "腾出的字节成了一个填充扩展（padding），消息长度因此不变"),
            (.overwrittenWith(.TLS_RSA_WITH_AES_128_GCM_SHA256),
             "each removed suite was overwritten with TLS_RSA_WITH_AES_128_GCM_SHA256 so the message kept its length",
             "每个被删掉的密码套件都改写成了 TLS_RSA_WITH_AES_128_GCM_SHA256，消息长度因此不变"),
        ]
        for (how, english, chinese) in cases {
            #expect(Explanations.english.stripping(how) == english)
            #expect(Explanations.chinese.stripping(how) == chinese)
        }
    }

    @Test func theStripRunSaysHowInTheReadersLanguage() throws {
        let trace = try Self.trace(.strip)
        let how = try #require(trace.events.lazy.compactMap { e -> SuiteStripping? in
            if case .attack(.strippedSuites(_, _, let how)) = e.kind { return how } else { return nil }
        }.first)
        #expect(how == .paddingExtension(freedBytes: 4))
        #expect(Self.text(trace, .english).contains("(the 4 freed bytes went into a padding extension so the message kept its length)"))
        #expect(Self.text(trace, .chinese).contains("（腾出的 4 个字节放进了一个填充扩展（padding），消息长度因此不变）"))
        let json = try #require(JSONLinesRenderer().render(trace).first { $0.contains("\"strip_suites\"") })
        #expect(json.contains("\"detail\":\"the 4 freed bytes went into a padding extension so the message kept its length\""))
        #expect(json.contains("\"how\":\"padding_extension\""))
    }

    /// The strip detail is no longer exempt from the Chinese scan (ChineseLayoutTests.engineText): the
    /// scan would catch the old English line, and the Chinese strip run has none.
    @Test func theChineseScanWouldCatchTheOldStripDetail() throws {
        let old = "│  （the 4 freed bytes went into a padding extension so the message kept its length）"
        #expect(!ChineseLayoutTests.englishRuns(in: old).isEmpty)
        let trace = try Self.trace(.strip)
        #expect(!ChineseLayoutTests.engineText(trace).contains { $0.contains("freed bytes") })
        for line in Self.text(trace, .chinese).split(separator: "\n") where line.contains("填充扩展") {
            #expect(ChineseLayoutTests.englishRuns(in: String(line)).isEmpty, "\(line)")
        }
    }

    @Test func theStrippingPlanReportsHowItKeptTheLength() throws {
        let suites: [CipherSuite] = [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_128_GCM_SHA256]
        func how(remove: [CipherSuite], extensions: Bool) throws -> SuiteStripping {
            let hello = ClientHello(random: Random([UInt8](repeating: 7, count: 32)), cipherSuites: suites,
                                    extensions: extensions ? [.extendedMasterSecret] : nil)
            return try #require(OnPathAttacker.stripped(HandshakeMessage.clientHello(hello).encoded, remove: Set(remove))).how
        }
        #expect(try how(remove: [suites[0], suites[1]], extensions: true) == .paddingExtension(freedBytes: 4))
        #expect(try how(remove: [suites[0]], extensions: true) == .overwrittenWith(suites[1]))
        #expect(try how(remove: [suites[0], suites[1]], extensions: false) == .overwrittenWith(suites[2]))
    }

    // MARK: Compute operations

    @Test func everyOperationIsNamedInBothLanguages() {
        let all: [ComputeOperation] = [.rsaPublicKeyEncryption, .rsaPrivateKeyDecryption, .dhAgreement, .ecdhAgreement,
                                       .rsaSignature, .rsaSignatureCheck, .ecdsaSignature, .ecdsaSignatureCheck,
                                       .certificateSignatureChecks(count: 3)]
        for operation in all {
            for catalogue in [Explanations.english, Explanations.chinese] {
                let name = catalogue.operationName(operation)
                #expect(catalogue(operation.key, ["count": "3"]) == name && !name.contains("{"), "\(operation)")
            }
        }
        #expect(Explanations.english.operationName(.certificateSignatureChecks(count: 3)) == "3 certificate signature check(s)")
        #expect(Explanations.chinese.operationName(.certificateSignatureChecks(count: 3)) == "3 次证书签名验证")
        #expect(Explanations.chinese.operationName(.rsaPrivateKeyDecryption) == "RSA 私钥解密")
    }

    @Test func theComputeLineAndJSONNameTheOperations() throws {
        // The RSA run with the measured costs: the server decrypts the premaster with its private key.
        var setup = try BuiltInRun.rsa.setup(seed: 1)
        setup.cpu = .measured
        let trace = Simulation(setup).run()
        #expect(Self.text(trace, .english).contains(": RSA private-key decryption"))
        #expect(Self.text(trace, .chinese).contains("RSA 私钥解密"))
        let json = try #require(JSONLinesRenderer().render(trace).first { $0.contains("\"event\":\"compute\"") && $0.contains("decryption") })
        #expect(json.contains("\"operations\":[\"RSA private-key decryption\"]"), "\(json)")
        #expect(json.contains("\"operation_ids\":[\"rsaPrivateKeyDecryption\"]"), "\(json)")
    }

    // MARK: A real peer's socket

    /// Each socket note in English is the line the driver used to write itself (the JSON Lines
    /// `phase` name keeps it); in Chinese only the socket API's names, numbers and addresses stay.
    @Test func everySocketNoteIsWordedInBothLanguages() {
        let refused = SocketError.system(call: "connect", errno: ECONNREFUSED)
        let cases: [(SocketNote, String)] = [
            (.connectFailed(host: "example.com", port: 443, .timeout(.connect(host: "example.com", port: 443), milliseconds: 500)),
             "connect() to example.com:443 failed: timed out after 500 ms waiting for connect() to example.com:443"),
            (.connectFailed(host: "example.com", port: 443, refused), "connect() to example.com:443 failed: connect failed: Connection refused"),
            (.connected(local: "127.0.0.1:5000", remote: "127.0.0.1:443"),
             "connect() returned: 127.0.0.1:5000 → 127.0.0.1:443 (the kernel did the three-way handshake)"),
            (.accepted(remote: "127.0.0.1:5000", local: "127.0.0.1:443"),
             "accept() returned: 127.0.0.1:5000 → 127.0.0.1:443 (the kernel did the three-way handshake)"),
            (.writeFailed(bytes: 9, .system(call: "send", errno: EPIPE)), "write of 9 bytes failed: send failed: Broken pipe"),
            (.notSentAfterPeerClosed(frames: ["SETTINGS", "GOAWAY"], bytes: 26), "not sent: SETTINGS, GOAWAY — the peer had already closed the TLS connection"),
            (.notSentAfterPeerClosed(frames: [], bytes: 26), "not sent: 26 bytes — the peer had already closed the TLS connection"),
            (.stoppedDraining(peer: .server, bytes: 65_536), "the server kept sending: stopped draining after 65536 bytes"),
            (.stoppedDraining(peer: .client, bytes: 10), "the client kept sending after we were done: stopped draining after 10 bytes"),
            (.closed(written: 10, read: 20, reads: 2), "close(): 10 bytes written, 20 bytes read in 2 read(s)"),
            (.handshakeDeadlinePassed(milliseconds: 300), "handshake deadline of 300 ms passed"),
            (.requestDeadlinePassed(milliseconds: 300), "request deadline of 300 ms passed"),
            (.responseDeadlinePassed(milliseconds: 300), "response deadline of 300 ms passed"),
            (.responseLimitReached(bytes: 1024), "the response reached the limit of 1024 bytes: stopped reading"),
            (.readFailed(.timeout(.data(from: "127.0.0.1:443"), milliseconds: 50)), "timed out after 50 ms waiting for data from 127.0.0.1:443"),
            (.readFailed(.timeout(.deadline, milliseconds: 0)), "the deadline had passed"),
            (.readFailed(.resolve(host: "x", .noAddress)), "cannot resolve x: no address"),
            (.readFailed(.resolve(host: "x", .notIPv4)), "cannot resolve x: not an IPv4 address"),
            (.peerClosed(.server), "read() returned 0: the server closed the connection"),
            (.peerClosed(.client), "read() returned 0: the client closed the connection"),
        ]
        for (note, english) in cases {
            #expect(Explanations.english.socketNote(note) == english)
            #expect(Explanations.english.phaseName(.socket(note)) == "socket-level (what the kernel lets us see): \(english)")
            // The C library's own text (strerror) is a value, not the catalogue's sentence.
            let chinese = Explanations.chinese.phaseName(.socket(note))
                .replacing("Connection refused", with: " ").replacing("Broken pipe", with: " ")
            #expect(ChineseLayoutTests.englishRuns(in: chinese).isEmpty, "\(note): \(chinese)")
            #expect(!chinese.contains("socket.") && !chinese.contains("socketError."), "\(chinese)")
        }
        #expect(Explanations.chinese.socketNote(.closed(written: 10, read: 20, reads: 2)) == "close()：写出 10 字节，读入 20 字节，共 2 次读取")
        #expect(Explanations.chinese.socketNote(.notSentAfterPeerClosed(frames: ["SETTINGS", "GOAWAY"], bytes: 26))
                == "没有发出：SETTINGS、GOAWAY——对方已经关闭了 TLS 连接")
    }

    @Test func aManInTheMiddleWithoutAServerNameIsWordedInBothLanguages() throws {
        var setup = try BuiltInRun.mitm.setup(seed: 1)
        setup.client.serverName = nil
        let trace = Simulation(setup).run()
        let position = try #require(trace.events.lazy.compactMap { e -> AttackPosition? in
            if case .attack(.position(let p)) = e.kind { return p } else { return nil }
        }.first)
        #expect(position == .manInTheMiddle(host: nil, address: setup.attackerAddress))
        #expect(Explanations.english.attackPosition(position).hasPrefix("the client's connection to the server ends at the attacker \(setup.attackerAddress) "))
        #expect(Explanations.chinese.attackPosition(position).hasPrefix("客户端到服务器的连接终止在攻击者 \(setup.attackerAddress) 处"))
    }

    // MARK: A refused user call

    @Test func aRefusedUserCallIsWordedInBothLanguages() {
        let phase = Phase.failed(.connectionNotOpened, error: .unknownHost(IPv4Address(10, 0, 0, 9)))
        #expect(Explanations.english.phaseName(phase) == "the TCP connection could not be opened: no host 10.0.0.9 on the simulated network")
        let chinese = Explanations.chinese.phaseName(phase)
        #expect(chinese.contains("模拟网络上没有主机 10.0.0.9"), "\(chinese)")
        for error: TCPUserError in [.connectionDoesNotExist, .connectionClosing, .connectionAlreadyExists, .portInUse(443)] {
            #expect(!Explanations.english.userError(error).contains("tcpUserError"))
            #expect(ChineseLayoutTests.englishRuns(in: Explanations.chinese.userError(error)).isEmpty, "\(error)")
        }
    }
}
