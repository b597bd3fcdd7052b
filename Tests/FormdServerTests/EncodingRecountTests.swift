import FormdCore
import FormdJSON
import FormdProtocol
import FormdServer
import FormdTestSupport
import XCTest

/// Every client gets a command's events in its own encoding, recounted from the events and
/// the engine after the command. The oracle is how formd served them before: re-running
/// the command in each encoding on a copy of the engine as it was before (the positions a
/// `select` takes recounted first). Random commands over random texts (non-ASCII, astral,
/// combining, CRLF, flags), masked fields, selections, undo/redo, defineForm, reset and
/// addField, from clients in every encoding and both text syncs: byte-identical events.
final class EncodingRecountTests: XCTestCase {
    private static let encodings: [PositionEncoding] = [.character, .utf8, .utf16, .utf32]

    func testRecountedEventsAreTheEventsOfAReRunInEveryEncoding() {
        for seed in UInt64(1)...40 { check(seed: seed, steps: 150) }
    }

    /// With a peer counting in another encoding, a keystroke still edits the form's fields
    /// where they lie: nothing keeps a second reference to the engine across the command
    /// (which made the command copy every field of the form, and a re-run copy them again).
    func testAKeystrokeWithAPeerInAnotherEncodingCopiesNoFields() {
        var run = Run(rng: SplitMix64(seed: 1), seed: 1)
        run.send(0, #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a","text":"x"},{"id":"b"},{"id":"c"}]}}"#)
        run.send(1, #"{"id":1,"method":"initialize","params":{"positionEncoding":"utf-16"}}"#)
        run.send(1, #"{"id":2,"method":"subscribe","params":{}}"#)
        run.send(0, #"{"id":2,"method":"demandFocus","params":{"field":"a","demand":"become"}}"#)
        _ = (run.events(0), run.events(1))
        func fieldStorage() -> UnsafeRawPointer? {
            run.daemon.engine.form("default")!.fields.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        let storage = fieldStorage()
        for (i, text) in ["😀", "é", "y"].enumerated() {
            run.send(0, #"{"id":\#(3 + i),"method":"insertText","params":{"text":"\#(text)"}}"#)
            XCTAssertEqual(fieldStorage(), storage, "after inserting \(text)")
        }
        XCTAssertEqual(run.events(1).last, #"{"jsonrpc":"2.0","method":"textChanged","params":{"form":"default","seq":8,"field":"a","text":"x😀éy","display":"x😀éy","length":4,"edit":{"start":4,"end":4,"text":"y"},"selection":{"start":5,"end":5}}}"#)
    }

    /// Switching masking moves a caret in UTF-8 (a bullet is three bytes) but not in
    /// characters: a `setSecure` from a client counting characters gives a UTF-8 peer the
    /// selection. (Its event has no positions in characters, and the re-run was skipped.)
    func testMaskingSwitchedByACharacterClientGivesAUTF8PeerTheSelection() {
        var run = Run(rng: SplitMix64(seed: 1), seed: 1)
        run.send(1, #"{"id":1,"method":"initialize","params":{"positionEncoding":"utf-8"}}"#)
        run.send(1, #"{"id":2,"method":"subscribe","params":{}}"#)
        run.send(0, #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"pw","text":"ab"}]}}"#)
        _ = (run.events(0), run.events(1))
        run.send(0, #"{"id":2,"method":"setSecure","params":{"field":"pw","secure":true}}"#)
        XCTAssertEqual(run.events(0), [#"{"jsonrpc":"2.0","method":"fieldChanged","params":{"form":"default","seq":2,"field":"pw","changes":{"secure":true,"display":"••"}}}"#])
        XCTAssertEqual(run.events(1), [#"{"jsonrpc":"2.0","method":"fieldChanged","params":{"form":"default","seq":2,"field":"pw","changes":{"secure":true,"display":"••","selection":{"start":6,"end":6}}}}"#])
    }

    private struct Run {
        var daemon = Daemon()
        var hub = DaemonTests.Hub(count: 4)
        var rng: SplitMix64
        let seed: UInt64

        mutating func send(_ i: Int, _ line: String) { hub.send(i, line, to: &daemon) }

        /// The event messages client `i` was sent since the last call.
        mutating func events(_ i: Int) -> [String] {
            defer { hub.outputs[i].removeAll() }
            return EncodingRecountTests.eventLines(hub.outputs[i])
        }
    }

    private static func eventLines(_ w: JSONWriter) -> [String] {
        String(decoding: w.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix(#"{"jsonrpc":"2.0","method":"#) }
    }

    private func check(seed: UInt64, steps: Int) {
        var run = Run(rng: SplitMix64(seed: seed), seed: seed)
        for i in 0..<4 {
            // Two clients may share an encoding; every seed has several in use.
            let encoding = i == 3 && seed % 3 == 0 ? run.hub.clients[0].positionEncoding : Self.encodings[(i + Int(seed)) % 4]
            let sync = run.rng.next(below: 2) == 0 ? "full" : "incremental"
            run.send(i, #"{"id":1,"method":"initialize","params":{"positionEncoding":"\#(encoding.rawValue)","textSync":"\#(sync)"}}"#)
            run.send(i, #"{"id":2,"method":"subscribe","params":{}}"#)
            _ = run.events(i)
        }
        for step in 0..<steps {
            let sender = run.rng.next(below: 4)
            let line = randomLine(&run.rng, run.daemon.engine, encoding: run.hub.clients[sender].positionEncoding)
            // The oracle: the command re-run on a copy of the engine before it, per client.
            let before = run.daemon.engine
            var expected = Array(repeating: [String](), count: 4)
            let from = run.hub.clients[sender].positionEncoding
            var real = before, realEvents: [EventRecord] = []
            // Only a command that emitted events in its sender's encoding was re-run.
            if case .request(let envelope) = decode(line), case .success(.form(let name, let command)) = envelope.call,
               (try? real.perform(command, on: name, encoding: from, events: &realEvents)) != nil, !realEvents.isEmpty {
                for c in 0..<4 {
                    var copy = before
                    let to = run.hub.clients[c].positionEncoding
                    let rerun = Self.command(command, on: name, in: copy, recountedFrom: from, to: to)
                    var events: [EventRecord] = []
                    guard (try? copy.perform(rerun, on: name, encoding: to, events: &events)) != nil else { continue }
                    var w = JSONWriter()
                    ClientEvents.write(events[...], for: run.hub.clients[c], to: &w)
                    expected[c] = Self.eventLines(w)
                    checkThroughOwnText(realEvents, events, from: from, to: to, seed: seed, step: step)
                }
            }
            run.send(sender, line)
            for c in 0..<4 {
                let got = run.events(c)
                guard got == expected[c] else {
                    XCTFail("seed \(seed), step \(step), client \(c) (\(run.hub.clients[c].positionEncoding.rawValue)), from client \(sender): \(line)\n got: \(got)\nwant: \(expected[c])")
                    return
                }
            }
        }
    }

    /// Text and snapshot events recounted without the engine, through their own texts
    /// (what a `textChanged` whose field its command changed again would take).
    private func checkThroughOwnText(_ events: [EventRecord], _ rerun: [EventRecord], from: PositionEncoding,
                                     to: PositionEncoding, seed: UInt64, step: Int) {
        let recount = FormEngine().recount(on: "none", from: from, to: to, basis: RecountBasis())
        for (event, want) in zip(events, rerun) {
            switch event.event {
            case .textChanged, .formDefined, .formReset, .fieldAdded:
                XCTAssertEqual(recount(event.event), want.event, "seed \(seed), step \(step), \(from.rawValue) to \(to.rawValue)")
            default:
                break
            }
        }
    }

    private func decode(_ line: String) -> DecodedLine {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBytes { DecodedLine(UnsafeRawBufferPointer($0), limits: SessionLimits()) }
    }

    /// The oracle's recount of a `select`: its positions resolved in `from` against the
    /// engine before it, counted in `to`.
    static func command(_ command: FormCommand, on formName: String, in engine: FormEngine,
                        recountedFrom from: PositionEncoding, to: PositionEncoding) -> FormCommand {
        guard from != to, case .select(let id, let start, let end) = command, let form = engine.form(formName),
              let fieldID = id ?? form.firstResponderID, let i = try? form.index(of: fieldID) else { return command }
        let buffer = form.fields[i].buffer
        let masked = form.fields[i].attributes.masksText
        guard let s = try? buffer.cursor(at: start, from, masked: masked),
              let e = try? buffer.cursor(at: end, from, masked: masked) else { return command }
        return .select(field: id, start: buffer.position(s, to, masked: masked), end: buffer.position(e, to, masked: masked))
    }

    // MARK: Random requests

    private static let pieces = ["a", "bc", "Z", " ", "é", "e\u{301}", "\u{301}", "漢", "😀", "👍", "🏽", "👍🏽", "🇫", "🇷",
                                 "🇫🇷", "\r", "\n", "\r\n", "x\r\ny", "\u{200D}", "👨\u{200D}👩\u{200D}👧", "क्", "ष", "Ω", "\t"]
    private static let ids = ["a", "b", "c", "d", "e"]

    private func text(_ rng: inout SplitMix64, max: Int = 5) -> String {
        (0..<rng.next(below: max + 1)).map { _ in Self.pieces[rng.next(below: Self.pieces.count)] }.joined()
    }

    private func quoted(_ s: String) -> String {
        var w = JSONWriter()
        w.writeString(s)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    private func options(_ rng: inout SplitMix64) -> [String] {
        var o: [String] = []
        func maybe(_ p: Int, _ s: @autoclosure () -> String) { if rng.next(below: 100) < p { o.append(s()) } }
        maybe(50, "\"text\":\(quoted(text(&rng)))")
        maybe(30, "\"secure\":\(rng.next(below: 2) == 0)")
        maybe(20, "\"revealed\":\(rng.next(below: 2) == 0)")
        maybe(10, "\"enabled\":\(rng.next(below: 3) != 0)")
        maybe(15, "\"maxLength\":\(3 + rng.next(below: 6))")
        maybe(15, "\"clearsOnBeginEditing\":true")
        maybe(15, "\"autoAdvance\":true")
        maybe(20, "\"returnAction\":\"\(["next", "resign", "submit", "none"][rng.next(below: 4)])\"")
        maybe(15, "\"deleteOnEmpty\":\"focusPrevious\"")
        maybe(10, "\"required\":true")
        return o
    }

    private func spec(_ rng: inout SplitMix64, id: String) -> String {
        "{" + (["\"id\":\(quoted(id))"] + options(&rng)).joined(separator: ",") + "}"
    }

    /// A position in `encoding` in field `id`'s text: mostly a character boundary, now and
    /// then any number (inside a character or past the end: refused alike in every encoding).
    private func position(_ rng: inout SplitMix64, _ form: Form?, _ id: String?, _ encoding: PositionEncoding) -> Int {
        guard let form, let fid = id ?? form.firstResponderID, let i = try? form.index(of: fid),
              rng.next(below: 10) != 0 else { return rng.next(below: 12) }
        let b = form.fields[i].buffer
        let masked = form.fields[i].attributes.masksText
        guard let c = try? b.cursor(at: rng.next(below: b.length + 1), .character, masked: false) else { return 0 }
        return b.position(c, encoding, masked: masked)
    }

    private func randomLine(_ rng: inout SplitMix64, _ engine: FormEngine, encoding: PositionEncoding) -> String {
        let formName = rng.next(below: 8) == 0 ? "other" : "default"
        let form = engine.form(formName)
        let known = form?.fields.map(\.id) ?? []
        func pick() -> String { known.isEmpty || rng.next(below: 10) == 0 ? Self.ids[rng.next(below: Self.ids.count)] : known[rng.next(below: known.count)] }
        // The field, or (now and then) none: the first responder.
        func target() -> (String?, String) {
            if rng.next(below: 3) == 0 { return (nil, "") }
            let id = pick()
            return (id, "\"field\":\(quoted(id)),")
        }
        let params: String
        let method: String
        switch rng.next(below: 30) {
        case 0, 1:
            method = "defineForm"
            let count = 1 + rng.next(below: 4)
            params = "\"fields\":[" + Self.ids.prefix(count).map { spec(&rng, id: $0) }.joined(separator: ",") + "]"
        case 2:
            method = "addField"
            params = "\"field\":\(spec(&rng, id: Self.ids[rng.next(below: Self.ids.count)] + String(rng.next(below: 3))))"
                + (known.isEmpty || rng.next(below: 2) == 0 ? "" : ",\"after\":\(quoted(pick()))")
        case 3:
            method = "removeField"
            params = "\"field\":\(quoted(pick()))"
        case 4, 5:
            method = "configureField"
            params = "\"field\":\(quoted(pick()))" + options(&rng).map { "," + $0 }.joined()
        case 6:
            method = ["setSecure", "setRevealed", "setEnabled"][rng.next(below: 3)]
            let key = method == "setSecure" ? "secure" : method == "setRevealed" ? "revealed" : "enabled"
            params = "\"field\":\(quoted(pick())),\"\(key)\":\(rng.next(below: 2) == 0)"
        case 7, 8:
            method = "setText"
            params = "\"field\":\(quoted(pick())),\"text\":\(quoted(text(&rng)))"
        case 9, 10, 11, 12:
            method = "insertText"
            params = target().1 + "\"text\":\(quoted(text(&rng, max: 2)))"
        case 13, 14:
            method = "delete"
            params = target().1 + "\"direction\":\"\(["backward", "forward"][rng.next(below: 2)])\",\"unit\":\"\(["character", "word", "line"][rng.next(below: 3)])\""
        case 15, 16, 17:
            method = "select"
            let (id, field) = target()
            params = field + "\"start\":\(position(&rng, form, id, encoding)),\"end\":\(position(&rng, form, id, encoding))"
        case 18, 19:
            method = "moveCaret"
            params = target().1 + "\"to\":\"\(["start", "end", "left", "right", "wordLeft", "wordRight"][rng.next(below: 6)])\",\"extend\":\(rng.next(below: 2) == 0)"
        case 20, 21:
            method = "editAction"
            let action = ["cut", "copy", "paste", "selectAll", "delete"][rng.next(below: 5)]
            params = target().1 + "\"action\":\"\(action)\"" + (action == "paste" ? ",\"text\":\(quoted(text(&rng, max: 3)))" : "")
        case 22, 23:
            method = rng.next(below: 2) == 0 ? "undo" : "redo"
            params = String(target().1.dropLast())
        case 24:
            method = "pressReturn"
            params = String(target().1.dropLast())
        case 25:
            method = "demandFocus"
            params = "\"field\":\(quoted(pick())),\"demand\":\"\(rng.next(below: 3) == 0 ? "resign" : "become")\""
        case 26:
            method = rng.next(below: 2) == 0 ? "focusNext" : "focusPrevious"
            params = ""
        case 27:
            method = "reset"
            params = ""
        default:
            method = ["submit", "validate", "getState"][rng.next(below: 3)]
            params = ""
        }
        let all = [params, formName == "default" ? "" : "\"form\":\"other\""].filter { !$0.isEmpty }.joined(separator: ",")
        return #"{"jsonrpc":"2.0","id":7,"method":"\#(method)","params":{\#(all)}}"#
    }
}
