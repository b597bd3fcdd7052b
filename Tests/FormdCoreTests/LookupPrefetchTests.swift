@testable import FormdCore
import FormdBytes
import XCTest

/// The lookup prefetch (`FieldIndex.prefetchSlot`, `likelyPosition`, `Form.prefetchSlot`,
/// `prefetchField`, `FormEngine.prefetchSlot(field:on:)`, `prefetchField`) is a hint: on
/// unknown, long, non-ASCII and empty ids, any hash, an empty index, a missing form and a
/// stale hint it reads nothing out of bounds, names only positions that exist, and changes
/// nothing.
final class LookupPrefetchTests: XCTestCase {
    func testEmptyIndexHintsNothing() {
        let index = FieldIndex(seed: 7)
        for id in ["", "f1", "a-much-longer-field-id-1", "é1", "K", "\u{212A}"] {
            XCTAssertNil(index.prefetchSlot(of: id), id)
        }
        for hash: UInt32 in [0, 1, 0xFFFF_FFFF, 0x8000_0000] {
            XCTAssertNil(index.likelyPosition(hash: hash))
        }
    }

    func testHeldShortIdsNameTheirOwnPositions() {
        var index = FieldIndex(seed: 11)
        let ids = (0..<2000).map { "f\($0)" }
        for id in ids { XCTAssertTrue(index.append(id, idAt: { ids[$0] })) }
        var named = 0
        for (p, id) in ids.enumerated() {
            guard let hash = index.prefetchSlot(of: id) else { return XCTFail("no hint for \(id)") }
            XCTAssertEqual(hash, index.hash(ShortASCII.words(of: id)!))
            // The first slot of its hash in its run names this id: never another's.
            if let q = index.likelyPosition(hash: hash) {
                XCTAssertEqual(q, p, id)
                named += 1
            }
        }
        // Nearly every id sits within a cache line of slots from its home (the table is at
        // most three quarters full); the home slot alone held about two thirds of them.
        XCTAssertGreaterThan(named, ids.count * 98 / 100)
    }

    func testUnknownAndEdgeIdsStayInBounds() {
        var index = FieldIndex(seed: 3)
        for n in 0..<100 { _ = index.append("f\(n)", idAt: { "f\($0)" }) }
        // Ids the table does not hold as short ones: no hint at all.
        for id in ["a-much-longer-field-id-1", "é1", "e\u{301}", String(repeating: "x", count: 16)] {
            XCTAssertNil(index.prefetchSlot(of: id), id)
        }
        // Short ids it does not hold, and every kind of hash: a hint names a held position
        // or none.
        var hashes: [UInt32] = [0, 1, 0xFFFF_FFFF, 0x8000_0000, 0x7FFF_FFFF]
        for id in ["", "zz", "f100", "f-1", "\u{212A}", "K"] {
            if let hash = index.prefetchSlot(of: id) { hashes.append(hash) }
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<10_000 { hashes.append(UInt32.random(in: .min ... .max, using: &rng)) }
        for hash in hashes {
            if let p = index.likelyPosition(hash: hash) { XCTAssertTrue((0..<100).contains(p), "\(hash) -> \(p)") }
        }
    }

    func testEngineHintsAreSafeAndChangeNothing() throws {
        var engine = FormEngine()
        XCTAssertNil(engine.prefetchSlot(field: "a", on: "nowhere"))
        XCTAssertNil(engine.prefetchSlot(field: "a", on: FormEngine.defaultForm), "a form without fields")
        _ = try engine.perform(.defineForm(fields: (0..<50).map { FieldSpec(id: "f\($0)") }, presets: [:]))
        let before = engine
        let hint = try XCTUnwrap(engine.prefetchSlot(field: "f7", on: FormEngine.defaultForm))
        XCTAssertNil(engine.prefetchSlot(field: "a-much-longer-field-id", on: FormEngine.defaultForm))
        engine.prefetchField(hint)
        if let unknown = engine.prefetchSlot(field: "nope", on: FormEngine.defaultForm) { engine.prefetchField(unknown) }
        // Hints that went stale: the form redefined smaller, and a form that is not there.
        _ = try engine.perform(.defineForm(fields: [FieldSpec(id: "g")], presets: [:]))
        let after = engine
        engine.prefetchField(hint)
        engine.prefetchField(LookupHint(form: 5, hash: 1))
        engine.prefetchField(LookupHint(form: Int.max, hash: .max))
        XCTAssertEqual(engine, after)
        XCTAssertNotEqual(before, after)
        XCTAssertEqual(try engine.perform(.insertText(field: "g", text: "x")).events.count > 0, true)
    }
}
