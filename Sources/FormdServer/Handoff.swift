#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A bounded queue from one producer thread to one consumer thread.
///
/// The consumer spins a little before it sleeps: in a conversation the next request
/// arrives within microseconds of the last answer, sooner than a sleeping thread can be
/// woken. Past the spin it waits on a condition variable, so an idle daemon uses no CPU.
/// A full queue makes the producer wait, which bounds how far it reads ahead; it is woken
/// only once the queue is down to its low water, so it fills several places a wakeup. A waiting
/// thread is signalled after the lock is released: woken while it is still held, it would
/// sleep again at once on the lock (two context switches for one wakeup).
final class Handoff<Item: Sendable>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let notEmpty = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let notFull = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Guarded by `lock`.
    private var items: [Item] = []
    private var closed = false
    /// `items.count`, readable without the lock, for the spin.
    private let count = Atomic<Int>(0)
    private let capacity: Int
    /// A producer waiting for room is woken only once no more than this many items are
    /// left, so it fills several places per wakeup instead of one.
    private let lowWater: Int
    /// The producer waits for room. Guarded by `lock`.
    private var producerWaits = false
    private let spinNanoseconds: Int

    init(capacity: Int, lowWater: Int = Int.max, spinMicroseconds: Int = 50) {
        self.capacity = max(capacity, 1)
        self.lowWater = min(max(lowWater, 0), self.capacity - 1)
        spinNanoseconds = spinMicroseconds * 1000
        pthread_mutex_init(lock, nil)
        pthread_cond_init(notEmpty, nil)
        pthread_cond_init(notFull, nil)
    }

    deinit {
        pthread_cond_destroy(notFull)
        pthread_cond_destroy(notEmpty)
        pthread_mutex_destroy(lock)
        notFull.deallocate()
        notEmpty.deallocate()
        lock.deallocate()
    }

    /// Nothing is waiting to be taken.
    var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

    /// Appends `item`, waiting while the queue is full. False once the queue is closed:
    /// the consumer has stopped and the item is dropped. Consumed: the consumer gets the
    /// only reference, or its first change to what the item holds would copy it whole.
    func put(_ item: consuming Item) -> Bool {
        pthread_mutex_lock(lock)
        while items.count >= capacity && !closed { waitForRoom() }
        if closed {
            pthread_mutex_unlock(lock)
            return false
        }
        items.append(consume item)
        count.store(items.count, ordering: .releasing)
        pthread_mutex_unlock(lock)
        pthread_cond_signal(notEmpty)
        return true
    }

    /// What `offer` did with its item.
    enum Offer { case put, closed, interrupted }

    /// `put`, but while it waits for room it gives up (`.interrupted`, the item left in
    /// `item`) as soon as `interrupted()` holds; `wakeProducer` makes it look again. Once
    /// put, `item` is nil before the consumer can see it.
    func offer(_ item: inout Item?, unless interrupted: () -> Bool) -> Offer {
        pthread_mutex_lock(lock)
        while items.count >= capacity && !closed {
            if interrupted() {
                pthread_mutex_unlock(lock)
                return .interrupted
            }
            waitForRoom()
        }
        if closed {
            pthread_mutex_unlock(lock)
            return .closed
        }
        items.append(item.take()!)
        count.store(items.count, ordering: .releasing)
        pthread_mutex_unlock(lock)
        pthread_cond_signal(notEmpty)
        return .put
    }

    /// Wakes a producer waiting in `offer`, to look at its reason to stop waiting, which
    /// the caller changed first: taking the lock, it waits for a producer that looked at the
    /// reason before the change to be waiting, so the wakeup is not lost.
    func wakeProducer() {
        pthread_mutex_lock(lock)
        let waits = producerWaits
        pthread_mutex_unlock(lock)
        if waits { pthread_cond_broadcast(notFull) }
    }

    /// With `lock` held: waits once for room.
    private func waitForRoom() {
        producerWaits = true
        pthread_cond_wait(notFull, lock)
        producerWaits = false
    }

    /// The oldest item, waiting for one if there is none; nil once the queue is closed.
    func take() -> Item? {
        spinWhileEmpty()
        pthread_mutex_lock(lock)
        while items.isEmpty && !closed { pthread_cond_wait(notEmpty, lock) }
        return removeOldest()
    }

    /// The oldest item if there is one, without waiting.
    func poll() -> Item? {
        if isEmpty { return nil }
        pthread_mutex_lock(lock)
        return removeOldest()
    }

    /// With `lock` held: the oldest item, or nil if there is none or the queue is closed.
    /// Releases the lock, then wakes a producer waiting for room.
    private func removeOldest() -> Item? {
        guard !items.isEmpty && !closed else {
            pthread_mutex_unlock(lock)
            return nil
        }
        let item = items.removeFirst()
        count.store(items.count, ordering: .releasing)
        let wake = producerWaits && items.count <= lowWater
        pthread_mutex_unlock(lock)
        if wake { pthread_cond_signal(notFull) }
        return item
    }

    /// Ends the queue: a waiting or later `put` returns false, `take` nil.
    func close() {
        pthread_mutex_lock(lock)
        closed = true
        items.removeAll()
        count.store(0, ordering: .releasing)
        pthread_mutex_unlock(lock)
        pthread_cond_broadcast(notEmpty)
        pthread_cond_broadcast(notFull)
    }

    private func spinWhileEmpty() {
        if !isEmpty { return }
        let deadline = Handoff.now() + spinNanoseconds
        while isEmpty && Handoff.now() < deadline {}
    }

    private static func now() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return t.tv_sec * 1_000_000_000 + t.tv_nsec
    }
}
