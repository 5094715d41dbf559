/// RFC 5246 §7.2: `struct { AlertLevel level; AlertDescription description; } Alert;`
public struct Alert: TLSCodable, Hashable, CustomStringConvertible {
    public var level: AlertLevel
    public var alertDescription: AlertDescription

    public init(level: AlertLevel, description: AlertDescription) {
        self.level = level
        self.alertDescription = description
    }

    /// A fatal alert.
    public static func fatal(_ description: AlertDescription) -> Alert { Alert(level: .fatal, description: description) }

    /// close_notify, sent as a warning (RFC 5246 §7.2.1).
    public static let closeNotify = Alert(level: .warning, description: .closeNotify)

    public var isFatal: Bool { level == .fatal }

    public var description: String { "\(level) \(alertDescription)" }

    public func encode(to writer: inout ByteWriter) {
        level.encode(to: &writer)
        alertDescription.encode(to: &writer)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        level = try reader.readCodePoint(AlertLevel.self, field: "level")
        alertDescription = try reader.readCodePoint(AlertDescription.self, field: "description")
    }
}
