/// Octets that join at the back and leave from the front (a send or receive buffer). Removing from
/// the front only moves a start index, compacting once half the storage is consumed, so it costs
/// O(1) amortised — `Array.removeFirst` would move every octet behind, and a bulk transfer would
/// move its whole window on each ACK.
struct ByteQueue: Hashable, Sendable, ExpressibleByArrayLiteral {
    private var storage: [UInt8] = []
    private var head = 0

    init(arrayLiteral elements: UInt8...) { storage = elements }

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }

    /// Octets `range` counted from the front.
    subscript(range: Range<Int>) -> ArraySlice<UInt8> {
        storage[(head + range.lowerBound)..<(head + range.upperBound)]
    }

    /// The first `n` octets (fewer if there are fewer).
    func prefix(_ n: Int) -> ArraySlice<UInt8> { storage[head..<(head + min(max(0, n), count))] }

    mutating func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count, "removing more octets than queued")
        head += n
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 4096 && 2 * head >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }

    static func += (queue: inout ByteQueue, bytes: [UInt8]) { queue.storage += bytes }

    // Equal when they hold the same octets, wherever the start index is.
    static func == (a: ByteQueue, b: ByteQueue) -> Bool { a.storage[a.head...] == b.storage[b.head...] }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for byte in storage[head...] { hasher.combine(byte) }
    }
}
