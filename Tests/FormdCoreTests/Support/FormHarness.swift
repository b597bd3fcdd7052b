import XCTest
@testable import FormdCore

/// A TestStore for the form engine.
///
/// The harness keeps its own model of every form's state (`expected`, with secrets, as
/// `getState includeSecrets` would show it) and its own count of each form's events. Each
/// `send` runs one command and then checks, exhaustively:
///  - the result, exactly;
///  - the events, exactly and in order, all stamped with the form and with seq numbers
///    that continue the harness's own count (+1 each, no gaps);
///  - the state of *every* form against the model, after the test's `state` closure has
///    described the change (no closure: nothing but seq may change).
/// A failing command must name its error and leave the whole engine untouched.
struct FormHarness {
    private(set) var engine = FormEngine()
    /// How this client counts positions: every command is sent, and every state read, in
    /// this encoding. A test may switch it (as a second client would) and then restates
    /// the selections of its model.
    var encoding = PositionEncoding.character
    /// The model: what each form's `getState(includeSecrets: true)` must say.
    private(set) var expected: [String: FormSnapshot] = [
        FormEngine.defaultForm: FormSnapshot(form: FormEngine.defaultForm, seq: 0, firstResponder: nil, fields: []),
    ]
    /// Every event seen, per form, in order.
    private(set) var log: [String: [EventRecord]] = [:]

    /// A harness whose default form is already defined with `fields`.
    init(fields: [FieldSpec], presets: [String: FieldOptions] = [:], encoding: PositionEncoding = .character,
         limits: EngineLimits = EngineLimits(), file: StaticString = #filePath, line: UInt = #line) {
        self.encoding = encoding
        engine = FormEngine(limits: limits)
        define(fields: fields, presets: presets, file: file, line: line)
    }

    /// A harness holding only the engine's initial state.
    init(encoding: PositionEncoding = .character) { self.encoding = encoding }

    /// The seq the next event of `form` must carry, by the harness's own count.
    func nextSeq(_ form: String = FormEngine.defaultForm) -> Int { (log[form]?.last?.seq ?? 0) + 1 }

    /// Setup step: defines (or redefines) `form`. Checks that the one event is a
    /// `formDefined` whose snapshot is the new state without secrets, then adopts the new
    /// state as the model. Tests of `defineForm` itself use `sendDefine` with literal fields.
    mutating func define(_ form: String = FormEngine.defaultForm, fields: [FieldSpec],
                         presets: [String: FieldOptions] = [:],
                         file: StaticString = #filePath, line: UInt = #line) {
        let outcome: CommandOutcome
        do {
            outcome = try engine.perform(.defineForm(fields: fields, presets: presets), on: form, encoding: encoding)
        } catch {
            return XCTFail("defineForm threw \(error)", file: file, line: line)
        }
        XCTAssertEqual(outcome.result, .done, file: file, line: line)
        guard let withSecrets = state(of: form, includeSecrets: true) else {
            return XCTFail("defineForm did not create form \(form)", file: file, line: line)
        }
        var public_ = withSecrets
        for i in public_.fields.indices where public_.fields[i].attributes.masksText {
            public_.fields[i].text = nil
        }
        checkEvents(outcome.events, form: form, expected: [.formDefined(public_)], file: file, line: line)
        expected[form] = withSecrets
    }

    /// Runs `command` on `form` and checks result, events and the whole engine state.
    @discardableResult
    mutating func send(_ command: FormCommand, on form: String = FormEngine.defaultForm,
                       _ result: CommandResult = .done, events: [FormEvent],
                       state update: (inout FormSnapshot) -> Void = { _ in },
                       file: StaticString = #filePath, line: UInt = #line) -> [EventRecord] {
        let outcome: CommandOutcome
        do {
            outcome = try engine.perform(command, on: form, encoding: encoding)
        } catch {
            XCTFail("\(command) threw \(error)", file: file, line: line)
            return []
        }
        if outcome.result != result {
            XCTFail("result differs:\n" + diff(expected: result, actual: outcome.result), file: file, line: line)
        }
        checkEvents(outcome.events, form: form, expected: events, file: file, line: line)
        var model = expected[form] ?? FormSnapshot(form: form, seq: 0, firstResponder: nil, fields: [])
        update(&model)
        model.seq = log[form]?.last?.seq ?? 0
        expected[form] = model
        checkState(file: file, line: line)
        return outcome.events
    }

    /// Runs `command` without expectations, for scenarios that are checked as a whole
    /// afterwards (e.g. scanned for leaks). Seq stamps are still checked; the model adopts
    /// the engine's state.
    mutating func run(_ command: FormCommand, on form: String = FormEngine.defaultForm,
                      file: StaticString = #filePath, line: UInt = #line) {
        do {
            let outcome = try engine.perform(command, on: form, encoding: encoding)
            checkEvents(outcome.events, form: form, expected: outcome.events.map(\.event), file: file, line: line)
            expected[form] = state(of: form, includeSecrets: true)
        } catch {
            XCTFail("\(command) threw \(error)", file: file, line: line)
        }
    }

    /// Runs a command that must fail with `error` and change nothing at all.
    mutating func sendFailing(_ command: FormCommand, on form: String = FormEngine.defaultForm,
                              throws error: FormError,
                              file: StaticString = #filePath, line: UInt = #line) {
        let before = engine
        do {
            let outcome = try engine.perform(command, on: form, encoding: encoding)
            XCTFail("\(command) succeeded with \(outcome), expected \(error)", file: file, line: line)
        } catch let thrown {
            if thrown != error {
                XCTFail("wrong error:\n" + diff(expected: error, actual: thrown), file: file, line: line)
            }
        }
        if engine != before {
            XCTFail("a failed command changed the engine:\n" + diff(expected: before, actual: engine), file: file, line: line)
        }
    }

    /// The state as `getState` reports it, checked to cause no events and no change.
    mutating func getState(_ form: String = FormEngine.defaultForm, includeSecrets: Bool,
                           file: StaticString = #filePath, line: UInt = #line) -> FormSnapshot? {
        let before = engine
        do {
            let outcome = try engine.perform(.getState(includeSecrets: includeSecrets), on: form, encoding: encoding)
            XCTAssertEqual(outcome.events, [], "getState emitted events", file: file, line: line)
            XCTAssert(engine == before, "getState changed the engine", file: file, line: line)
            guard case .state(let snapshot) = outcome.result else {
                XCTFail("getState answered \(outcome.result)", file: file, line: line)
                return nil
            }
            return snapshot
        } catch {
            XCTFail("getState threw \(error)", file: file, line: line)
            return nil
        }
    }

    // MARK: Checks

    /// What `getState` would answer this client, read from a copy so that reading
    /// leaves the engine exactly as it was.
    func state(of form: String, includeSecrets: Bool) -> FormSnapshot? {
        var copy = engine
        guard case .state(let s)? = try? copy.perform(.getState(includeSecrets: includeSecrets), on: form, encoding: encoding).result
        else { return nil }
        return s
    }

    private mutating func checkEvents(_ records: [EventRecord], form: String, expected events: [FormEvent],
                                      file: StaticString, line: UInt) {
        var seq = log[form]?.last?.seq ?? 0
        for r in records {
            seq += 1
            if r.form != form || r.seq != seq {
                XCTFail("event \(r.event) stamped (\(r.form), seq \(r.seq)), expected (\(form), seq \(seq))",
                        file: file, line: line)
            }
        }
        let actual = records.map(\.event)
        if actual != events {
            XCTFail("events differ (- expected, + actual):\n" + listDiff(expected: events, actual: actual),
                    file: file, line: line)
        }
        log[form, default: []] += records
    }

    private func checkState(file: StaticString, line: UInt) {
        let names = Set(expected.keys).union(engine.forms.keys)
        for name in names.sorted() {
            let actual = state(of: name, includeSecrets: true)
            let model = expected[name]
            if actual != model {
                XCTFail("state of form \(name) differs:\n" + diff(expected: model as Any, actual: actual as Any), file: file, line: line)
            }
        }
    }
}

// MARK: - Readable diffs

/// An LCS diff, one line per element: two spaces for common, `-` expected only, `+`
/// actual only. A replaced element (a `-` directly followed by a `+`) also lists the
/// paths where the two differ.
func listDiff<T: Equatable>(expected: [T], actual: [T]) -> String {
    let n = expected.count, m = actual.count
    var lcs = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
            lcs[i][j] = expected[i] == actual[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
        }
    }
    var out: [String] = []
    var i = 0, j = 0
    func line(_ mark: String, _ v: T) -> String {
        let s = short(v)
        return "\(mark) \(s.count > 200 ? caseName(s) + "(...)" : s)"
    }
    while i < n || j < m {
        if i < n, j < m, expected[i] == actual[j] {
            out.append(line(" ", expected[i])); i += 1; j += 1
        } else if i < n, j < m, lcs[i + 1][j] == lcs[i][j + 1], lcs[i + 1][j + 1] == lcs[i][j] {
            // Replaced in place.
            out.append(line("-", expected[i])); out.append(line("+", actual[j]))
            out.append(contentsOf: diff(expected: expected[i], actual: actual[j]).split(separator: "\n").map { "      \($0)" })
            i += 1; j += 1
        } else if j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.append(line("-", expected[i])); i += 1
        } else {
            out.append(line("+", actual[j])); j += 1
        }
    }
    return out.joined(separator: "\n")
}

/// The paths where two values differ, found by reflection; only used for messages.
func diff(expected: Any, actual: Any) -> String {
    var lines: [String] = []
    mirrorDiff(expected, actual, path: "", into: &lines)
    return lines.isEmpty ? "(values print the same)" : lines.joined(separator: "\n")
}

private func mirrorDiff(_ e: Any, _ a: Any, path: String, into lines: inout [String]) {
    if String(reflecting: e) == String(reflecting: a) { return }
    let me = Mirror(reflecting: e), ma = Mirror(reflecting: a)
    let ce = Array(me.children), ca = Array(ma.children)
    let sameShape = !ce.isEmpty && ce.count == ca.count && zip(ce, ca).allSatisfy { $0.label == $1.label }
        && me.displayStyle != .enum && caseName(e) == caseName(a)
    if sameShape {
        for (i, (x, y)) in zip(ce, ca).enumerated() {
            let key = x.label.map { ".\($0)" } ?? "[\(i)]"
            mirrorDiff(x.value, y.value, path: path + key, into: &lines)
        }
    } else if me.displayStyle == .enum, caseName(e) == caseName(a), ce.count == 1, ca.count == 1 {
        mirrorDiff(ce[0].value, ca[0].value, path: path + "." + caseName(e), into: &lines)
    } else {
        lines.append("\(path.isEmpty ? "value" : path): expected \(short(e)), got \(short(a))")
    }
}

func caseName(_ v: Any) -> String {
    let s = String(describing: v)
    return String(s.prefix { $0 != "(" })
}

/// A value printed without module prefixes, for compact messages.
func short(_ v: Any) -> String {
    String(reflecting: v).replacingOccurrences(of: "FormdCore.", with: "")
        .replacingOccurrences(of: "FormdJSON.", with: "").replacingOccurrences(of: "Swift.", with: "")
}

/// Failure messages list only the keys that are set, not a screenful of nils.
extension FieldOptions: CustomDebugStringConvertible {
    public var debugDescription: String { "FieldOptions(\(setKeys(of: self)))" }
}

extension FieldChanges: CustomDebugStringConvertible {
    public var debugDescription: String { "FieldChanges(\(setKeys(of: self)))" }
}

private func setKeys(of value: Any) -> String {
    Mirror(reflecting: value).children.compactMap { child -> String? in
        let s = String(reflecting: child.value)
        if s == "nil" || s.hasSuffix("FieldOptions()") { return nil }
        return "\(child.label ?? "?"): \(short(child.value))"
    }.joined(separator: ", ")
}
