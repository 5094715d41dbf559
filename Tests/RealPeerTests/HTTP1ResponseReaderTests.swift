import Testing
import Trace
@testable import RealPeer

/// The client's HTTP/1.x response framing (RFC 9112 §6.3), byte by byte as a hostile server may send it.
@Suite("HTTP/1.x response framing as the bytes come")
struct HTTP1ResponseReaderTests {
    /// Feeds `text` one byte at a time; the reader's verdicts at the end.
    static func read(_ text: String, head: Bool = false) -> HTTP1ResponseReader {
        var reader = HTTP1ResponseReader(headRequest: head)
        for byte in text.utf8 { reader.append([byte]) }
        return reader
    }

    @Test func framings() {
        #expect(Self.read("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc").isComplete)
        #expect(Self.read("HTTP/1.1 200 OK\r\ncontent-length:  3 \r\n\r\nab").truncation(closeNotify: true)
                == .shorterThanContentLength(received: 2, expected: 3))
        #expect(Self.read("HTTP/1.1 204 No Content\r\n\r\n").isComplete)
        #expect(Self.read("HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n").isComplete)
        #expect(Self.read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", head: true).isComplete, "a response to HEAD has no body")
        // A 100 Continue before the final response is skipped.
        let interim = Self.read("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        #expect(interim.isComplete)
        #expect(!Self.read("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\no").isComplete)
        // Until the close: whole only with close_notify.
        let untilClose = Self.read("HTTP/1.0 200 OK\r\n\r\nbody")
        #expect(!untilClose.isComplete)
        #expect(untilClose.truncation(closeNotify: true) == nil)
        #expect(untilClose.truncation(closeNotify: false) == .notClosedProperly(bytes: 23))
        #expect(Self.read("HTTP/1.1 200 OK\r\nContent-").truncation(closeNotify: true) == .headIncomplete(bytes: 25))
    }

    @Test func chunked() {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
        #expect(Self.read(head + "4\r\nwiki\r\n5;ext=1\r\npedia\r\n0\r\n\r\n").isComplete)
        #expect(Self.read(head + "4\r\nwiki\r\n0\r\nExpires: never\r\n\r\n").isComplete, "trailer fields")
        #expect(!Self.read(head + "4\r\nwiki\r\n0\r\nExpires: never\r\n").isComplete)
        #expect(!Self.read(head + "a\r\n0123456789").isComplete)
        let malformed = Self.read(head + "zz\r\nabc\r\n0\r\n\r\n")
        #expect(!malformed.isComplete && malformed.truncation(closeNotify: true) == .chunkedUnterminated(bytes: malformed.count))
        // Transfer-Encoding whose last coding is not chunked: the body runs to the close.
        #expect(Self.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\nxyz").truncation(closeNotify: false) != nil)
    }
}
