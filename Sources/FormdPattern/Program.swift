/// A pattern compiled to a Thompson automaton: a list of instructions whose epsilon moves
/// (`split`, `jump`, the anchors) a simulation follows without consuming a character.
struct Program: Sendable {
    enum Op: UInt8, Sendable {
        /// Consume one character passing `predicates[a]`, go on at the next instruction.
        case character
        /// Go on at both `a` and `b`.
        case split
        /// Go on at `a`.
        case jump
        /// Go on only at the start of the text.
        case start
        /// Go on only at the end of the text.
        case end
        /// The whole text matched, if the text ends here.
        case match
    }

    struct Instruction: Sendable {
        var op: Op
        var a: Int32 = 0
        var b: Int32 = 0
    }

    private(set) var instructions: [Instruction] = []
    /// The distinct character tests, indexed by `character` instructions.
    private(set) var predicates: [CharacterPredicate] = []
    private var predicateIndex: [CharacterPredicate: Int32] = [:]

    /// Compiles `node`; the caller has checked its size.
    init(_ node: PatternNode) {
        instructions.reserveCapacity(node.size + 1)
        emit(node)
        instructions.append(Instruction(op: .match))
    }

    private var next: Int32 { Int32(instructions.count) }

    private mutating func emit(_ node: PatternNode) {
        switch node {
        case .empty:
            break
        case .character(let p):
            let index: Int32
            if let known = predicateIndex[p] {
                index = known
            } else {
                index = Int32(predicates.count)
                predicates.append(p)
                predicateIndex[p] = index
            }
            instructions.append(Instruction(op: .character, a: index))
        case .start:
            instructions.append(Instruction(op: .start))
        case .end:
            instructions.append(Instruction(op: .end))
        case .concatenation(let parts):
            for p in parts { emit(p) }
        case .alternation(let parts):
            var jumps: [Int] = []
            for (k, p) in parts.enumerated() {
                if k < parts.count - 1 {
                    let split = instructions.count
                    instructions.append(Instruction(op: .split, a: next + 1))
                    emit(p)
                    jumps.append(instructions.count)
                    instructions.append(Instruction(op: .jump))
                    instructions[split].b = next
                } else {
                    emit(p)
                }
            }
            for j in jumps { instructions[j].a = next }
        case .repetition(let p, let min, let max):
            if min == 0 && max == nil {
                // L: split body, out; body; jump L
                let split = instructions.count
                instructions.append(Instruction(op: .split, a: next + 1))
                emit(p)
                instructions.append(Instruction(op: .jump, a: Int32(split)))
                instructions[split].b = next
                return
            }
            for _ in 0..<min { emit(p) }
            guard let max else {
                // p{m,} is p{m-1} then p+: one split after the last copy loops back to it.
                let lastCopy = instructions.count - p.size
                instructions.append(Instruction(op: .split, a: Int32(lastCopy), b: next + 1))
                return
            }
            // Each optional copy: split into it or past all of them.
            var splits: [Int] = []
            for _ in min..<max {
                splits.append(instructions.count)
                instructions.append(Instruction(op: .split, a: next + 1))
                emit(p)
            }
            for s in splits { instructions[s].b = next }
        }
    }
}
