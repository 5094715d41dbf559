/// Items ordered by (time, insertion order), so equal times stay FIFO and runs are deterministic.
///
/// Most of a network's items arrive in time order — a link's latency is constant, so each delivery
/// is due after the ones queued before it; a flood's retransmission timers are all "now + RTO" —
/// so an item due no earlier than the last one in `fifo` is appended there, O(1), and only items
/// due earlier go to a binary min-heap, O(log n). The next item is the earlier of the two heads.
/// A SYN flood of n connections therefore costs O(n), not O(n log n).
struct TimedQueue<Item> {
    private struct Entry {
        var time: TCPTime
        var order: UInt64
        var item: Item
        func precedes(_ other: Entry) -> Bool { time != other.time ? time < other.time : order < other.order }
    }
    /// Sorted by (time, order); `fifo[head...]` are waiting, the slots before `head` are spent.
    private var fifo: [Entry] = []
    private var head = 0
    private var heap: [Entry] = []
    private var counter: UInt64 = 0

    var count: Int { fifo.count - head + heap.count }

    var nextTime: TCPTime? {
        switch (head < fifo.count ? fifo[head] : nil, heap.first) {
        case (let a?, let b?): return a.precedes(b) ? a.time : b.time
        case (let a?, nil): return a.time
        case (nil, let b?): return b.time
        case (nil, nil): return nil
        }
    }

    mutating func push(_ item: Item, at time: TCPTime) {
        counter += 1
        let entry = Entry(time: time, order: counter, item: item)
        // `order` grows with every push, so an entry not earlier than the FIFO's last keeps it sorted.
        if head == fifo.count || fifo[fifo.count - 1].time <= time {
            if head == fifo.count, head > 0 {
                fifo.removeAll(keepingCapacity: true)
                head = 0
            }
            fifo.append(entry)
            return
        }
        heap.append(entry)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].precedes(heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (time: TCPTime, item: Item)? {
        let fromFIFO: Bool
        switch (head < fifo.count ? fifo[head] : nil, heap.first) {
        case (let a?, let b?): fromFIFO = a.precedes(b)
        case (.some, nil): fromFIFO = true
        case (nil, .some): fromFIFO = false
        case (nil, nil): return nil
        }
        if fromFIFO {
            let entry = fifo[head]
            head += 1
            // Drop the spent prefix once it is most of the array (amortised O(1) per item).
            if head == fifo.count {
                fifo.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 4096, head * 2 >= fifo.count {
                fifo.removeFirst(head)
                head = 0
            }
            return (entry.time, entry.item)
        }
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count && heap[l].precedes(heap[m]) { m = l }
                if r < heap.count && heap[r].precedes(heap[m]) { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
        }
        return (top.time, top.item)
    }
}
