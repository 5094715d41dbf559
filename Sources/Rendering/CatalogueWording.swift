import Trace

/// What every surface that words a run shares: the catalogue, and the few ways it is asked — a
/// sentence by key, a party's name, a list, a secret's name, an operation's name.
protocol CatalogueWording {
    var explanations: Explanations { get }
}

extension CatalogueWording {
    /// The catalogue's text for `key` with its placeholders filled in (the key itself when missing).
    func say(_ key: String, _ values: [String: String] = [:]) -> String { explanations(key, values) ?? key }

    /// An actor's name in the catalogue's language ("client", "客户端").
    func name(_ actor: Actor) -> String { explanations.actorName(actor.rawValue) }

    /// "a", "a and b", "a, b and c" (nothing: "no protocol"), in the catalogue's words.
    func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return say("list.none")
        case 1: return items[0]
        default: return items.dropLast().joined(separator: say("list.separator")) + say("list.lastSeparator") + (items.last ?? "")
        }
    }

    /// A public-key operation the simulation timed, in the catalogue's words.
    func operationName(_ operation: ComputeOperation) -> String { explanations.operationName(operation) }

    /// A secret's name in the knowledge table and the attack lines ("premaster secret", "预主密钥").
    /// A name that is no secret's (a message's, "ClientHello") stays as it is.
    func secretName(_ secret: String) -> String {
        Secret(rawValue: secret).map(secretName) ?? secret
    }

    /// A secret's name in the reader's language (the catalogue's `secret.*` keys).
    func secretName(_ secret: Secret) -> String { explanations(CatalogueKey.secret(secret)) ?? secret.rawValue }

}
