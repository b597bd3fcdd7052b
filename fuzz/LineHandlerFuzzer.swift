// libFuzzer target over formd's line handling; built and run by `scripts/fuzz SECONDS`.
//
// Each input is split on newlines and fed, line by line, to one `Session` that lives
// across inputs, so state built by one input (forms, fields, texts, undo history, the
// client's position encoding) is what the next one attacks. Beyond "no crash, no hang,
// no sanitizer report", every input is checked against the daemon's promises:
//
// - every output line is one complete JSON object or array (the writer never emits
//   anything else), each `\n`-terminated;
// - a request that fails changes nothing: when a single (non-batch) line is answered by
//   an error, that error is its only output and the engine equals the engine before it;
// - `MessageReader` splits the same bytes, read through a pipe in small blocks with a small
//   line limit, exactly as a plain split does: short lines byte for byte, long ones
//   either whole or refused with a prefix of the real line;
// - `LeadingID`, which reads ids out of unparseable lines, finishes on any bytes;
// - a line `Envelope(plainRequest:)` decodes without a value tree, or
//   `Envelope(keystroke:)` without a parser, decodes the same through `JSONParser`
//   and `Envelope(_:)`;
// - the engine limits hold (forms, fields per form and in all forms, characters per field,
//   bytes of text in all forms, what the undo histories of all fields cost, the automata
//   patterns keep between matches), and, on every
//   16th input, each field's kept length and caret offsets agree with a recount.
//
// The engine runs with small limits so state stays bounded over a long run; the session
// starts afresh after `shutdown` (the server stops reading then) and every 20000 inputs.

#if canImport(Glibc)
import Glibc
#endif
import FormdCore
import FormdJSON
import FormdPattern
import FormdProtocol
import FormdServer

enum Fuzz {
    nonisolated(unsafe) static var session = freshSession()
    nonisolated(unsafe) static var inputs = 0

    static func freshSession() -> Session {
        var limits = SessionLimits()
        limits.maxLineBytes = 4096
        limits.maxDepth = 24
        // Small enough that a batch of a few getStates passes it.
        limits.maxLineOutput = maxLineOutput
        let engine = FormEngine(limits: EngineLimits(maxUndoSteps: 16, maxFields: maxFields, maxForms: maxForms, maxTextLength: maxTextLength,
                                                     maxTotalText: maxTotalText, maxUndoText: maxUndoText,
                                                     maxTotalFields: maxTotalFields))
        return Session(engine: engine, limits: limits)
    }

    /// What `freshSession` allows, for the invariants.
    static let maxForms = 6, maxFields = 48, maxTextLength = 1024
    /// Below what the other limits allow (6 × 48 fields × 2 × 1024 characters), so the
    /// text budget is what refuses texts, presets given to many fields, undo and reset.
    static let maxTotalText = 16_384
    /// Below what 16 steps of every field could hold, so old steps are dropped across the
    /// daemon; and fewer fields in all than 6 forms of 48 could have.
    static let maxUndoText = 4096, maxTotalFields = 100
    static let maxLineOutput = 8192

    static func checkEngine(recount: Bool, _ input: UnsafeRawBufferPointer) {
        let engine = session.engine
        if engine.forms.count > maxForms { fail("\(engine.forms.count) forms", input) }
        if engine.heldTextBytes > maxTotalText { fail("the forms hold \(engine.heldTextBytes) bytes of text", input) }
        if engine.countedTextBytes != engine.heldTextBytes {
            fail("the forms hold \(engine.heldTextBytes) bytes of text, counted at \(engine.countedTextBytes)", input)
        }
        if engine.heldHistoryBytes > maxUndoText { fail("the undo histories cost \(engine.heldHistoryBytes) bytes", input) }
        if engine.countedHistoryBytes != engine.heldHistoryBytes {
            fail("the undo histories cost \(engine.heldHistoryBytes) bytes, counted at \(engine.countedHistoryBytes)", input)
        }
        if engine.fieldCount > maxTotalFields { fail("the forms hold \(engine.fieldCount) fields", input) }
        if Pattern.keptBytes > Pattern.keptBudget { fail("patterns keep \(Pattern.keptBytes) bytes of automata", input) }
        for (name, form) in engine.forms {
            if form.fields.count > maxFields { fail("form \(name) has \(form.fields.count) fields", input) }
            if let r = form.responder, !form.fields.indices.contains(r) { fail("form \(name): responder \(r) out of range", input) }
            for field in form.fields {
                let b = field.buffer
                if b.length > maxTextLength { fail("field \(field.id) holds \(b.length) characters", input) }
                guard recount else { continue }
                if b.text.count != b.length { fail("field \(field.id): kept length \(b.length), counted \(b.text.count)", input) }
                for c in [b.anchor, b.head] {
                    if b.text.distance(from: b.text.startIndex, to: c.index) != c.offset {
                        fail("field \(field.id): cursor offset \(c.offset) does not match its index", input)
                    }
                }
            }
        }
    }

    static func fail(_ message: String, _ line: UnsafeRawBufferPointer) -> Never {
        let text = "\n*** formd fuzz invariant broken: \(message)\n*** line: \(String(decoding: line.prefix(400), as: UTF8.self))\n"
        _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        abort()
    }

    static func handle(_ line: UnsafeRawBufferPointer) {
        _ = LeadingID.scan(line)
        for (name, shortcut) in [("plain-request", Envelope(plainRequest: line, maxDepth: 64)),
                                 ("keystroke", Envelope(keystroke: line, maxDepth: 64))] {
            guard let fast = shortcut else { continue }
            guard case .object? = try? JSONParser.parse(line, maxDepth: 64) else { fail("the \(name) shortcut took a line the parser reads as no single request", line) }
            if Envelope(try! JSONParser.parse(line, maxDepth: 64)) != fast { fail("the \(name) shortcut decoded a line otherwise than the parser", line) }
        }
        let before = session.engine
        var w = JSONWriter(reservingCapacity: 256)
        session.handleLine(line, into: &w)
        if w.bytes.isEmpty { return }
        guard w.bytes.last == 0x0A else { fail("output does not end with a newline", line) }
        var messages: [JSONValue] = []
        w.bytes.withUnsafeBytes { out in
            var start = 0
            while start < out.count {
                let nl = out[start...].firstIndex(of: 0x0A)!
                let text = UnsafeRawBufferPointer(rebasing: out[start..<nl])
                guard let value = try? JSONParser.parse(text, maxDepth: 1000) else {
                    fail("output line is not JSON: \(String(decoding: text.prefix(300), as: UTF8.self))", line)
                }
                switch value {
                case .object, .array: messages.append(value)
                default: fail("output line is neither an object nor a batch", line)
                }
                start = nl + 1
            }
        }
        // A batch stops being carried out past `maxLineOutput`: its answers are bounded
        // by that, one more answer (a state, at most the text budget six times over, plus
        // each field's members) and one refusal per request.
        if w.bytes.count > maxLineOutput + 6 * maxTotalText + maxForms * maxFields * 1024 + 300 * line.count {
            fail("a line produced \(w.bytes.count) bytes of output", line)
        }
        // A batch may mix requests that succeed with ones that fail.
        if line.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "[") { return }
        guard case .object(let last) = messages.last! else { return }
        let isError = last["error"] != nil || last["method"] == .string("error")
        if isError {
            if messages.count != 1 { fail("a failed request also wrote \(messages.count - 1) other messages", line) }
            if session.engine != before { fail("a failed request changed the engine", line) }
        }
    }

    /// The same bytes through `MessageReader` (blocks of 1 KiB, lines of at most 200 bytes)
    /// against a plain split.
    static func checkReader(_ bytes: UnsafeRawBufferPointer) {
        let maxLine = 200
        var fds: [Int32] = [-1, -1]
        guard bytes.count <= 60_000, pipe(&fds) == 0 else { return }
        var off = 0
        while off < bytes.count {
            let n = write(fds[1], bytes.baseAddress! + off, bytes.count - off)
            if n <= 0 { break }
            off += n
        }
        close(fds[1])
        defer { close(fds[0]) }
        var expected: [ArraySlice<UInt8>] = Array(bytes).split(separator: 0x0A, omittingEmptySubsequences: false)
        if bytes.last == 0x0A || bytes.isEmpty { expected.removeLast() }
        var reader = MessageReader(fd: fds[0], maxLineBytes: maxLine, blockSize: 1024, prefixBytes: 64)
        defer { reader.close() }
        // A `Content-Length` input has no plain split to compare with: it is read to its end
        // (bounded, never crashing), and its bodies are checked by the framing tests.
        if ContentLengthHeader.framing(of: bytes, final: true) == .contentLength {
            while reader.fill() == .data { reader.drain(final: false) { _ in true } }
            reader.drain(final: true) { _ in true }
            return
        }
        var got = 0
        var done = false
        while !done {
            let result = reader.fill()
            if result == .endOfInput { done = true } else if result != .data { fail("reader: \(result)", bytes) }
            reader.drain(final: done) { item in
                guard got < expected.count else { fail("reader: more lines than the input has", bytes) }
                let want = expected[got]
                switch item {
                case .message(let line):
                    if !line.elementsEqual(want) { fail("reader: line \(got) differs", bytes) }
                case .tooLong(let prefix):
                    if want.count <= maxLine { fail("reader: line \(got) of \(want.count) bytes refused as too long", bytes) }
                    if !prefix.elementsEqual(want.prefix(prefix.count)) { fail("reader: wrong prefix of line \(got)", bytes) }
                case .unreadableHeader(let reason):
                    fail("reader: a line-framed input read as a header block (\(reason))", bytes)
                }
                got += 1
                return true
            }
        }
        if got != expected.count { fail("reader: \(got) lines of \(expected.count)", bytes) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLineHandler(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    Fuzz.inputs += 1
    if Fuzz.inputs % 20_000 == 0 { Fuzz.session = Fuzz.freshSession() }
    Fuzz.checkReader(bytes)
    var start = 0
    while start < bytes.count {
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        Fuzz.handle(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        if Fuzz.session.isShutDown { Fuzz.session = Fuzz.freshSession() }
        start = end + 1
    }
    Fuzz.checkEngine(recount: Fuzz.inputs % 16 == 0, bytes)
    return 0
}
