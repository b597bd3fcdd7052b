@testable import FormdCore
import FormdTestSupport

/// Where a random command of the ledger property tests goes: one of `forms`, a field
/// "x0" to "x4" (the last often missing), and a text of one repeated character, half the
/// time up to `maxText` of them, else up to 3.
struct LedgerTarget {
    var form: String
    var id: String
    var text: String

    init(forms: [String], maxText: Int, _ rng: inout SplitMix64) {
        form = forms.randomElement(using: &rng)!
        id = "x\(Int.random(in: 0..<5, using: &rng))"
        let size = Bool.random(using: &rng) ? Int.random(in: 0...maxText, using: &rng) : Int.random(in: 0...3, using: &rng)
        text = String(repeating: "abcé".randomElement(using: &rng)!, count: size)
    }
}

/// Drives a ledger property test: for each seed, an engine with `limits` whose `forms` are
/// defined by `define`, then `count` random commands (`command` makes each for a target),
/// `check` after each with the engine, the command's number and a label naming it.
func runRandomCommands(limits: EngineLimits, seeds: ClosedRange<UInt64>, count: Int, forms: [String], maxText: Int,
                       define: (inout SplitMix64) -> FormCommand,
                       command: (LedgerTarget, inout SplitMix64) -> FormCommand,
                       check: (FormEngine, Int, String) -> Void) throws {
    for seed in seeds {
        var rng = SplitMix64(seed: seed)
        var engine = FormEngine(limits: limits)
        for name in forms { _ = try engine.perform(define(&rng), on: name) }
        for n in 1...count {
            let target = LedgerTarget(forms: forms, maxText: maxText, &rng)
            let next = command(target, &rng)
            _ = try? engine.perform(next, on: target.form)
            check(engine, n, "seed \(seed), command \(n): \(next)")
        }
    }
}
