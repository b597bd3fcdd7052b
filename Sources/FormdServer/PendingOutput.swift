#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The bytes of a stdio burst's output handed to its second thread (`BurstIO`) and not yet
/// written. Past `limit` (`--max-pending-output`) the serving thread waits for the writes
/// to catch up before it carries out another line, so a reader that stops reading stops
/// formd reading input, however large the answers are.
final class PendingOutput: @unchecked Sendable {
    let limit: Int
    private let bytes = Atomic<Int>(0)
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let drained = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(limit: Int) {
        self.limit = limit
        pthread_mutex_init(lock, nil)
        pthread_cond_init(drained, nil)
    }

    deinit {
        pthread_cond_destroy(drained)
        pthread_mutex_destroy(lock)
        drained.deallocate()
        lock.deallocate()
    }

    var isOver: Bool { bytes.load(ordering: .acquiring) > limit }

    /// `n` bytes were handed over.
    func add(_ n: Int) { bytes.add(n, ordering: .releasing) }

    /// `n` bytes were written (or dropped): wakes a waiter once they are within the limit.
    func remove(_ n: Int) {
        let after = bytes.subtract(n, ordering: .acquiringAndReleasing).newValue
        if after <= limit && after + n > limit {
            pthread_mutex_lock(lock)
            pthread_cond_broadcast(drained)
            pthread_mutex_unlock(lock)
        }
    }

    /// Waits while more than `limit` bytes are pending, unless `stop()` says the writes
    /// will not catch up (the output is gone); `stop` is looked at again every few
    /// milliseconds.
    func waitForRoom(unless stop: () -> Bool) {
        guard isOver else { return }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while isOver && !stop() {
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_nsec += 20_000_000
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            pthread_cond_timedwait(drained, lock, &deadline)
        }
    }
}
