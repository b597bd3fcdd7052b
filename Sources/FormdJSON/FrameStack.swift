/// The parser's stack of open containers, kept on the machine stack while shallow.
///
/// Why not just `[Int]`: a heap array costs an allocation on every parse of every request,
/// and real requests nest two or three levels. The first `inlineCapacity` frames live in
/// caller-provided stack memory (`withUnsafeTemporaryAllocation`); only documents nested
/// deeper than that, and only when the caller's `maxDepth` allows it, spill to the heap.
/// Either way the depth is bounded by `maxDepth`, so memory use is too.
struct FrameStack {
    static let inlineCapacity = 32

    private let inline: UnsafeMutablePointer<Int>
    private var spill: [Int] = []
    private(set) var count = 0

    /// `storage` must hold `inlineCapacity` elements and outlive this stack.
    init(storage: UnsafeMutableBufferPointer<Int>) {
        precondition(storage.count >= Self.inlineCapacity)
        inline = storage.baseAddress!
    }

    @inline(__always)
    mutating func push(_ frame: Int) {
        if count < Self.inlineCapacity {
            inline[count] = frame
        } else {
            spill.append(frame)
        }
        count &+= 1
    }

    /// The innermost frame, or nil when no container is open.
    @inline(__always)
    var top: Int? {
        if count == 0 { return nil }
        if count <= Self.inlineCapacity { return inline[count &- 1] }
        return spill[spill.count &- 1]
    }

    @inline(__always)
    mutating func pop() {
        count &-= 1
        if count >= Self.inlineCapacity { spill.removeLast() }
    }
}
