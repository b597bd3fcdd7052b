import XCTest
@testable import FormdCore

/// `maxPatternSize` bounds what a pattern may compile to, wherever it comes from (a field's
/// own keys, a preset, `configureField`), before it is first matched; a refused pattern
/// changes nothing.
final class PatternLimitTests: XCTestCase {
    private let limits = EngineLimits(maxPatternSize: 20)

    private func tooBig(_ key: String, _ field: String, size: Int) -> FormError {
        .limitExceeded(limit: "maxPatternSize", message: "limit maxPatternSize exceeded: the \(key) of field \"\(field)\" compiles to \(size) instructions, at most 20 (raise it with --max-pattern-size)")
    }

    private func options(pattern p: FieldPattern) -> FieldOptions {
        var o = FieldOptions()
        o.pattern = .some(p)
        return o
    }

    func testAPatternOverTheLimitIsRefusedOnEveryWayIn() {
        var h = FormHarness(fields: [field("a") { $0.pattern = pattern("a{19}") }], limits: limits)
        // a{19} and the final match: 20 instructions, at the limit.
        XCTAssertEqual(pattern("a{19}").size, 20)
        h.sendFailing(.defineForm(fields: [field("b") { $0.pattern = pattern("a{20}") }], presets: [:]),
                      throws: tooBig("pattern", "b", size: 21))
        h.sendFailing(.addField(field("b") { $0.inputFilter = pattern("(a|b){7}") }, after: nil),
                      throws: tooBig("inputFilter", "b", size: 29))
        h.sendFailing(.configureField("a", options: options(pattern: pattern("x{1000}")), configuration: nil),
                      throws: tooBig("pattern", "a", size: 1001))
        h.sendFailing(.defineForm(fields: [field("c", ["long"])], presets: ["long": options(pattern: pattern("[a-z]{30}"))]),
                      throws: tooBig("pattern", "c", size: 31))
    }

    func testNestedCountsAreMeasuredWithoutBeingBuilt() {
        // 10^12 instructions if built: measured arithmetically, refused at once.
        var h = FormHarness(fields: [field("a")], limits: limits)
        let huge = pattern("((((a{1000}){1000}){1000}){1000})")
        h.sendFailing(.configureField("a", options: options(pattern: huge), configuration: nil),
                      throws: .limitExceeded(limit: "maxPatternSize", message: "limit maxPatternSize exceeded: the pattern of field \"a\" compiles to 2147483647 or more instructions, at most 20 (raise it with --max-pattern-size)"))
    }
}
