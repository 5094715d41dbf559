import Testing
@testable import TCPSim

/// The time queue against a reference: whatever the mix of in-order and out-of-order pushes, items
/// come out by (time, insertion order).
@Suite("TimedQueue")
struct TimedQueueTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func matchesASortedReference(seed: UInt64) {
        var state = seed &* 0x9e37_79b9_7f4a_7c15
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        var queue = TimedQueue<Int>()
        var reference: [(time: TCPTime, order: Int)] = []
        var popped: [Int] = [], expected: [Int] = []
        var clock: TCPTime = 0
        for i in 0..<4_000 {
            // Mostly monotone (a link's deliveries), sometimes earlier (a shorter timer), some ties.
            let r = next() % 10
            if r < 6 { clock += TCPTime(next() % 3) }
            let time = r < 8 ? clock : max(0, clock - TCPTime(next() % 50))
            queue.push(i, at: time)
            reference.append((time, i))
            if next() % 3 == 0 {
                let out = queue.pop()
                let best = reference.indices.min { reference[$0].time != reference[$1].time ? reference[$0].time < reference[$1].time : reference[$0].order < reference[$1].order }
                if let b = best { expected.append(reference.remove(at: b).order) }
                if let out { popped.append(out.item) }
                if popped.count != expected.count { break }
            }
            #expect(queue.count == reference.count)
        }
        while let out = queue.pop() { popped.append(out.item) }
        expected += reference.sorted { $0.time != $1.time ? $0.time < $1.time : $0.order < $1.order }.map(\.order)
        #expect(popped == expected)
        #expect(queue.count == 0 && queue.nextTime == nil)
    }
}
