/// A binary min-heap of items ordered by (time, insertion order), so equal times stay FIFO and runs
/// are deterministic. Push and pop are O(log n).
struct TimedQueue<Item> {
    private struct Entry {
        var time: TCPTime
        var order: UInt64
        var item: Item
        func precedes(_ other: Entry) -> Bool { time != other.time ? time < other.time : order < other.order }
    }
    private var heap: [Entry] = []
    private var counter: UInt64 = 0

    var count: Int { heap.count }
    var nextTime: TCPTime? { heap.first?.time }

    mutating func push(_ item: Item, at time: TCPTime) {
        counter += 1
        heap.append(Entry(time: time, order: counter, item: item))
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].precedes(heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (time: TCPTime, item: Item)? {
        guard let top = heap.first else { return nil }
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
