#if canImport(Glibc)
import Glibc
#endif
@testable import FormdServer
import Synchronization
import XCTest

/// The burst's queue of decoded blocks (`Handoff`): a producer that found it full is woken
/// only once the consumer has taken it down to its low water, so it refills several places
/// per wakeup; nothing is lost, duplicated or reordered on the way.
final class HandoffTests: XCTestCase {
    /// The body of a thread `spawn` starts.
    private final class Body: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Runs `body` on a thread of its own; the returned closure waits for it to end.
    func spawn(_ body: @escaping @Sendable () -> Void) -> () -> Void {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        XCTAssertEqual(pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context), 0)
        return { pthread_join(thread, nil) }
    }

    /// Waits up to two seconds for `condition`.
    func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<2000 {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    func testAProducerWaitingForRoomIsWokenOnlyAtLowWater() {
        let queue = Handoff<Int>(capacity: 8, lowWater: 3)
        let produced = Atomic<Int>(0)
        let join = spawn {
            for i in 0..<9 {
                _ = queue.put(i)
                produced.add(1, ordering: .releasing)
            }
        }
        XCTAssertTrue(eventually { produced.load(ordering: .acquiring) == 8 }, "the queue fills")
        // Taken down to 4 left: the producer, waiting for a ninth place, must sleep on.
        for expected in 0..<4 { XCTAssertEqual(queue.poll(), expected) }
        usleep(100_000)
        XCTAssertEqual(produced.load(ordering: .acquiring), 8, "woken above low water")
        // One more taken leaves 3, the low water: now it is woken and puts the ninth.
        XCTAssertEqual(queue.poll(), 4)
        XCTAssertTrue(eventually { produced.load(ordering: .acquiring) == 9 }, "woken at low water")
        join()
        for expected in 5..<9 { XCTAssertEqual(queue.poll(), expected) }
        XCTAssertNil(queue.poll())
    }

    /// A wakeup asked for (`wakeProducer`) reaches a producer that waits for room above low
    /// water, so it can look at its reason to stop waiting.
    func testWakeProducerReachesAProducerAboveLowWater() {
        let queue = Handoff<Int>(capacity: 4, lowWater: 1)
        let interruptions = Atomic<Int>(0), stop = Atomic<Bool>(false)
        for i in 0..<4 { XCTAssertTrue(queue.put(i)) }
        let join = spawn {
            var item: Int? = 4
            while item != nil {
                switch queue.offer(&item, unless: { stop.load(ordering: .acquiring) }) {
                case .interrupted:
                    interruptions.add(1, ordering: .releasing)
                    stop.store(false, ordering: .releasing)
                case .put, .closed: return
                }
            }
        }
        usleep(50_000)
        stop.store(true, ordering: .releasing)
        queue.wakeProducer()
        XCTAssertTrue(eventually { interruptions.load(ordering: .acquiring) == 1 })
        queue.close()
        join()
    }

    /// Items of a long run arrive once each and in order, whatever the pace of either side.
    func testEveryItemArrivesOnceInOrder() {
        let queue = Handoff<Int>(capacity: 8, lowWater: 3)
        let count = 50_000
        let join = spawn {
            for i in 0..<count {
                _ = queue.put(i)
                if i % 997 == 0 { usleep(200) }
            }
        }
        var next = 0
        while next < count, let item = queue.take() {
            XCTAssertEqual(item, next)
            if item != next { break }
            next += 1
            if next % 1_009 == 0 { usleep(300) }
        }
        XCTAssertEqual(next, count)
        join()
    }
}
