/// A scripted fault: "the `nth` segment sent from `from` to `to` (counting from 1) is dropped /
/// duplicated / delayed".
public struct TCPFaultRule: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        case drop
        case duplicate
        case delay(TCPTime)
    }
    public var from: IPv4Address
    public var to: IPv4Address
    public var nth: Int
    public var action: Action
    public init(from: IPv4Address, to: IPv4Address, nth: Int, _ action: Action) {
        self.from = from
        self.to = to
        self.nth = nth
        self.action = action
    }
}
