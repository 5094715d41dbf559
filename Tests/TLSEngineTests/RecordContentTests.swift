import Testing
@testable import TLSEngine

@Suite("Record contents")
struct RecordContentTests {
    @Test("each content type round-trips through a record")
    func roundTrip() throws {
        let contents: [RecordContent] = [.changeCipherSpec, .alert(.closeNotify), .alert(.fatal(.badRecordMAC)),
                                         .handshake(fragment: [14, 0, 0, 0]), .applicationData(Array("GET / HTTP/1.1\r\n".utf8))]
        for content in contents {
            let record = content.record()
            #expect(record.contentType == content.contentType)
            #expect(try RecordContent(record: TLSRecord(decoding: record.encoded)) == content)
        }
        #expect(decodeError { () throws(DecodeError) in
            try RecordContent(record: TLSRecord(contentType: .alert, fragment: [1, 0, 1, 0]))
        }?.alert == .decodeError)
        #expect(decodeError { () throws(DecodeError) in
            try RecordContent(record: TLSRecord(contentType: ContentType(rawValue: 24), fragment: [1]))
        }?.alert == .unexpectedMessage)
    }
}
