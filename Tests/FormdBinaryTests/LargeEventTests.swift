import Foundation
import Glibc
import XCTest

/// The `submitted` and `formReset` events are never built whole. On stdio they are
/// streamed in their place under `--max-pending-output`. Over `--listen` they are counted
/// before they are held: a `submit` or `reset` whose event would not fit its sender's
/// `--max-client-buffer` is refused, nothing carried out; another client that cannot take
/// one is disconnected as overflowing before it is built for it.
final class LargeEventTests: XCTestCase {
    static let megabyte = String(repeating: "x", count: 1_000_000)

    /// The lines that build a form of fields `f0`… each given 1 MB, as its text (`setText`)
    /// or its initial text (`configureField`), plus a field `note` and a secure `pin`
    /// holding "4242"; each line is answered with two messages (an event, a response), the
    /// response's id the line's place from 1000 on.
    static func buildLines(fields: Int, initial: Bool) -> [String] {
        let specs = (0..<fields).map { #"{"id":"f\#($0)"}"# } + [#"{"id":"note"}"#, #"{"id":"pin","secure":true}"#]
        var lines = [#"{"id":1000,"method":"defineForm","params":{"fields":[\#(specs.joined(separator: ","))]}}"#,
                     #"{"id":1001,"method":"setText","params":{"field":"pin","text":"4242"}}"#]
        for i in 0..<fields {
            let method = initial ? "configureField" : "setText"
            lines.append(#"{"id":\#(1002 + i),"method":"\#(method)","params":{"field":"f\#(i)","text":"\#(megabyte)"}}"#)
        }
        return lines
    }

    /// Reads `count` lines of stdout (each may be many megabytes), kept when `keep`. Lines
    /// are found with `memchr`: byte by byte, a debug build takes seconds over 80 MB.
    static func readLines(_ formd: SpawnedFormd, count: Int, keep: Bool = true) -> [Data] {
        var lines: [Data] = [], current = Data(), seen = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        let deadline = Date().addingTimeInterval(120)
        while seen < count && Date() < deadline {
            var p = pollfd(fd: formd.stdoutFD, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 1000) <= 0 { continue }
            let n = read(formd.stdoutFD, &chunk, chunk.count)
            if n == 0 { break }
            if n < 0 { continue }
            chunk.withUnsafeBytes { raw in
                var from = 0
                while from < n, let nl = memchr(raw.baseAddress! + from, 0x0A, n - from) {
                    let end = UnsafeRawPointer(nl) - raw.baseAddress!
                    if keep { current.append(raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + from, count: end - from); lines.append(current) }
                    current = Data()
                    seen += 1
                    from = end + 1
                }
                if keep && from < n { current.append(raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + from, count: n - from) }
            }
        }
        XCTAssertEqual(seen, count, "lines of output")
        return lines
    }

    /// formd on stdio, the form built line by line (each answered before the next is sent),
    /// then `request` sent alone: the `answers` lines it wrote for it, and how much its peak
    /// RSS grew (KiB) meanwhile.
    static func stdio(fields: Int, initial: Bool, request: String, answers: Int) throws -> (lines: [Data], growth: Int) {
        let formd = try SpawnedFormd([])
        for line in buildLines(fields: fields, initial: initial) {
            XCTAssertTrue(formd.send(line + "\n"))
            _ = readLines(formd, count: 2, keep: false)
        }
        let before = try XCTUnwrap(formd.peakRSSKiB)
        XCTAssertTrue(formd.send(request + "\n"))
        let lines = readLines(formd, count: answers)
        let growth = try XCTUnwrap(formd.peakRSSKiB) - before
        formd.closeStdin()
        XCTAssertEqual(formd.waitForExit(), 0)
        return (lines, growth)
    }

    static func object(_ line: Data) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: line) as? [String: Any])
    }

    /// 40 fields of 1 MB: the `submitted` event (40 MB) and the answer (40 MB) are streamed.
    /// Built whole, the event alone took 58 MB more (debug build).
    func testASubmitOfFortyMegabytesIsStreamedOnStdio() throws {
        let (lines, growth) = try Self.stdio(fields: 40, initial: false, request: #"{"id":"s","method":"submit"}"#, answers: 2)
        XCTAssertLessThan(growth, 16 << 10, "peak RSS grew \(growth) KiB")
        let event = try Self.object(lines[0])
        XCTAssertEqual(event["method"] as? String, "submitted")
        let params = try XCTUnwrap(event["params"] as? [String: Any])
        let values = try XCTUnwrap(params["values"] as? [String: String])
        XCTAssertEqual(values.count, 41)
        XCTAssertEqual(values["f39"], Self.megabyte)
        XCTAssertEqual(params["withheld"] as? [String], ["pin"])
        XCTAssertFalse(lines.contains { $0.range(of: Data("4242".utf8)) != nil }, "a secure field's text never")
        let answer = try Self.object(lines[1])
        XCTAssertEqual(answer["id"] as? String, "s")
        XCTAssertEqual(((answer["result"] as? [String: Any])?["values"] as? [String: String])?.count, 41)
    }

    /// 30 fields with 1 MB initial texts: the `formReset` event (60 MB: each text and its
    /// display) is streamed. Built whole it took 115 MB more (debug build).
    func testAResetOfThirtyMegabytesIsStreamedOnStdio() throws {
        let (lines, growth) = try Self.stdio(fields: 30, initial: true, request: #"{"id":"r","method":"reset"}"#, answers: 2)
        XCTAssertLessThan(growth, 16 << 10, "peak RSS grew \(growth) KiB")
        let event = try Self.object(lines[0])
        XCTAssertEqual(event["method"] as? String, "formReset")
        let fields = try XCTUnwrap((event["params"] as? [String: Any])?["fields"] as? [[String: Any]])
        XCTAssertEqual(fields.count, 32)
        XCTAssertEqual(fields[29]["text"] as? String, Self.megabyte)
        XCTAssertEqual(fields[29]["display"] as? String, Self.megabyte)
        XCTAssertNil(fields[31]["text"], "a secure field's text never")
        XCTAssertEqual((try Self.object(lines[1]))["id"] as? String, "r")
    }

    /// Sent all at once (a burst, whose events the second thread encodes), by a client whose
    /// rules take only some events: each large event comes whole, once, right before its
    /// command's response; and framed, with its `Content-Length` counted before it is
    /// streamed.
    func testLargeEventsKeepTheirPlaceInABurstAndTheirContentLength() throws {
        let text = String(repeating: #"é\""#, count: 40_000)
        var lines = [#"{"id":0,"method":"defineForm","params":{"fields":[{"id":"a","text":"\#(text)"},{"id":"b","text":"\#(text)"}]}}"#,
                     #"{"id":1,"method":"unsubscribe","params":{"events":["textChanged"]}}"#]
        let rounds = 60
        for i in 0..<rounds {
            lines.append(#"{"id":\#(2 + 3 * i),"method":"insertText","params":{"field":"a","text":"x"}}"#)
            lines.append(#"{"id":\#(3 + 3 * i),"method":"\#(i % 2 == 0 ? "reset" : "submit")"}"#)
            lines.append(#"{"id":\#(4 + 3 * i),"method":"focusNext"}"#)
        }
        let plain = try FormdProcess.run([], input: lines.joined(separator: "\n") + "\n", timeout: 120)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let out = plain.stdoutLines
        let ids = out.compactMap { line in line.hasPrefix(#"{"jsonrpc":"2.0","id":"#) ? Int(line.dropFirst(22).prefix { $0.isNumber }) : nil }
        XCTAssertEqual(ids, Array(0..<(2 + 3 * rounds)), "every response once, in order")
        XCTAssertFalse(out.contains { $0.contains(#""method":"textChanged""#) }, "the rules hold")
        for i in 0..<rounds {
            let response = try XCTUnwrap(out.firstIndex { $0.hasPrefix(#"{"jsonrpc":"2.0","id":\#(3 + 3 * i),"#) })
            let event = try Self.object(Data(out[response - 1].utf8))
            XCTAssertEqual(event["method"] as? String, i % 2 == 0 ? "formReset" : "submitted", "round \(i)")
        }
        XCTAssertEqual(out.filter { $0.hasPrefix(#"{"jsonrpc":"2.0","method":"formReset""#) }.count, rounds / 2)
        XCTAssertEqual(out.filter { $0.hasPrefix(#"{"jsonrpc":"2.0","method":"submitted""#) }.count, rounds / 2)
        let reset = try Self.object(Data(try XCTUnwrap(out.first { $0.hasPrefix(#"{"jsonrpc":"2.0","method":"formReset""#) }).utf8))
        let fields = try XCTUnwrap((reset["params"] as? [String: Any])?["fields"] as? [[String: Any]])
        let value = String(repeating: "é\"", count: 40_000)
        XCTAssertEqual(fields.map { $0["display"] as? String }, [value, value])
        let framed = try FormdProcess.run([], inputData: lines.map { FramedMessages.frame($0) }.reduce(Data(), +), timeout: 120)
        let bodies = try XCTUnwrap(FramedMessages.split(Data(framed.stdout.utf8)), "whole framed messages")
        XCTAssertEqual(bodies.map { String(decoding: $0, as: UTF8.self) }, out, "the same messages, each framed by its length")
    }

    /// SIGTERM while a streamed `formReset` waits for a reader that does not read: formd
    /// still stops at once.
    func testSIGTERMEndsAStreamedEventThatNobodyReads() throws {
        let text = String(repeating: "x", count: 200_000)
        let fields = (0..<4).map { #"{"id":"f\#($0)","text":"\#(text)"}"# }.joined(separator: ",")
        let formd = try SpawnedFormd([])
        XCTAssertTrue(formd.send(#"{"id":1,"method":"defineForm","params":{"fields":[\#(fields)]}}"# + "\n"
                                 + #"{"id":2,"method":"reset"}"# + "\n" + #"{"id":3,"method":"reset"}"# + "\n"))
        try LargeAnswerTests.assertSIGTERMEndsAStreamNobodyReads(formd)
    }

    /// With `--state`, the journal record of a `reset` (the whole form: 20 MB of texts and
    /// initial texts) and the snapshot it brings about are written a piece at a time: peak
    /// RSS stays flat, where both built whole took 71 MB more (release build). Restarted on
    /// that state, the form is as the reset left it.
    func testAResetIsJournaledInPieces() throws {
        let dir = ListenDaemon.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let formd = try SpawnedFormd(["--state", dir + "/state"])
        let note = [#"{"id":1,"method":"configureField","params":{"field":"note","text":"initial"}}"#,
                    #"{"id":2,"method":"setText","params":{"field":"note","text":"typed"}}"#]
        for line in Self.buildLines(fields: 10, initial: true) + note {
            XCTAssertTrue(formd.send(line + "\n"))
            _ = Self.readLines(formd, count: 2, keep: false)
        }
        let before = try XCTUnwrap(formd.peakRSSKiB)
        XCTAssertTrue(formd.send(#"{"id":"r","method":"reset"}"# + "\n"))
        XCTAssertEqual(try Self.object(Self.readLines(formd, count: 2)[1])["id"] as? String, "r")
        let growth = try XCTUnwrap(formd.peakRSSKiB) - before
        XCTAssertLessThan(growth, 16 << 10, "peak RSS grew \(growth) KiB")
        formd.closeStdin()
        XCTAssertEqual(formd.waitForExit(), 0)
        let again = try SpawnedFormd(["--state", dir + "/state"])
        XCTAssertTrue(again.send(#"{"id":3,"method":"insertText","params":{"field":"note","text":"!"}}"# + "\n"))
        let changed = try Self.object(Self.readLines(again, count: 2)[0])
        XCTAssertEqual((changed["params"] as? [String: Any])?["text"] as? String, "initial!", "restored as the reset left it")
        again.closeStdin()
        XCTAssertEqual(again.waitForExit(), 0)
    }

    // MARK: --listen

    /// Builds the form over `client`, reading each line's answer before the next is sent
    /// (and not the `textChanged` events of 1 MB: a debug build reads them slowly).
    static func build(_ client: SocketClient, fields: Int, initial: Bool) {
        XCTAssertNotNil(client.call("unsubscribe", ["events": ["textChanged"]])["result"])
        for (i, line) in buildLines(fields: fields, initial: initial).enumerated() {
            client.send(line)
            XCTAssertNotNil(client.response(to: 1000 + i, timeout: 30)["result"], line.prefix(60) + "…")
        }
        XCTAssertNotNil(client.call("subscribe")["result"], "every event again")
        client.events.removeAll()
    }

    /// A `reset` whose `formReset` event (60 MB) would not fit its sender's
    /// `--max-client-buffer` is refused before it is carried out, as a request and as a
    /// notification: no event for anyone, the sender stays connected, and the form and its
    /// `seq` are as they were. Carried out, the event was built whole for every client.
    func testAResetWhoseEventWouldNotFitItsSenderIsRefusedAndChangesNothing() throws {
        let daemon = try ListenDaemon()
        let a = try SocketClient(daemon.socket, name: "a")
        Self.build(a, fields: 30, initial: true)
        XCTAssertNotNil(a.call("setText", ["field": "note", "text": "typed"])["result"])
        let seq = try XCTUnwrap((a.events.last?["params"] as? [String: Any])?["seq"] as? Int)
        let b = try SocketClient(daemon.socket, name: "b")
        XCTAssertNotNil(b.call("validate")["result"])
        let before = try XCTUnwrap(daemon.peakRSSKiB)
        let error = try XCTUnwrap(a.call("reset", timeout: 30)["error"] as? [String: Any], "refused")
        XCTAssertEqual(error["code"] as? Int, -32003)
        let message = error["message"] as? String ?? ""
        XCTAssertTrue(message.hasPrefix("limit maxClientBuffer exceeded: this reset's formReset event is ")
                      && message.contains("bytes and this client's output may hold ")
                      && message.hasSuffix("so the reset was counted and not carried out; the connection stays open (raise it with --max-client-buffer)"), message)
        a.send(#"{"jsonrpc":"2.0","method":"reset"}"#)
        let typed = a.call("insertText", ["field": "note", "text": "!"], timeout: 30)
        XCTAssertEqual((typed["result"] as? [String: Any])?["applied"] as? Bool, true, "still connected")
        let notified = try XCTUnwrap(a.events.first { $0["method"] as? String == "error" }?["params"] as? [String: Any])
        XCTAssertEqual(notified["code"] as? Int, -32003)
        XCTAssertEqual(notified["message"] as? String, message)
        let changed = try XCTUnwrap(a.events.last?["params"] as? [String: Any])
        XCTAssertEqual(changed["text"] as? String, "typed!", "the text was not reset")
        XCTAssertEqual(changed["seq"] as? Int, seq + 1, "no event came between")
        XCTAssertNotNil(b.call("validate")["result"])
        XCTAssertEqual(b.events.compactMap { $0["method"] as? String }, ["textChanged"])
        let growth = try XCTUnwrap(daemon.peakRSSKiB) - before
        XCTAssertLessThan(growth, 16 << 10, "peak RSS grew \(growth) KiB")
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }

    /// In a batch over `--listen`, whose events are written into the client's output as its
    /// answers wait, a `reset` whose event would take the batch past `--max-line-output` is
    /// refused before it is carried out, with the rest of the batch; alone, it is carried out.
    func testAResetInABatchPastMaxLineOutputIsRefused() throws {
        let daemon = try ListenDaemon(args: ["--max-line-output", "300000"])
        let client = try SocketClient(daemon.socket, name: "c")
        let text = String(repeating: "x", count: 200_000)
        XCTAssertNotNil(client.call("defineForm", ["fields": [["id": "a", "text": text]]], timeout: 30)["result"])
        client.events.removeAll()
        client.send(#"[{"id":10,"method":"reset"},{"id":11,"method":"validate"}]"#)
        let deadline = Date().addingTimeInterval(30)
        let batch = try XCTUnwrap(client.readLine(until: deadline), "the batch's answer")
        let answers = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(batch.utf8)) as? [[String: Any]])
        let errors = answers.compactMap { $0["error"] as? [String: Any] }
        XCTAssertEqual(errors.map { $0["code"] as? Int }, [-32003, -32003], batch)
        let message = errors.first?["message"] as? String ?? ""
        XCTAssertTrue(message.hasPrefix("limit maxLineOutput exceeded: this reset's formReset event is ")
                      && message.contains("so the reset was counted and not carried out; ask for it alone, not in a batch"), message)
        XCTAssertNotNil(client.call("reset", timeout: 30)["result"], "alone, it is carried out")
        let seqs = client.events.compactMap { ($0["params"] as? [String: Any])?["seq"] as? Int }
        XCTAssertEqual(seqs, [2], "one formReset, right after the formDefined: the refused one emitted nothing")
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }

    /// Other clients that cannot take a large event (the `formReset` of 60 MB, the
    /// `submitted` of 30 MB, each past the default 8 MiB `--max-client-buffer`) are
    /// disconnected as overflowing before it is built for them; its sender, which does not
    /// take those events, has its commands carried out. Built whole for two clients, then
    /// dropped, they took the daemon more than 100 MB.
    func testOtherClientsThatCannotTakeALargeEventAreDroppedBeforeItIsBuilt() throws {
        let daemon = try ListenDaemon()
        let a = try SocketClient(daemon.socket, name: "a")
        Self.build(a, fields: 30, initial: true)
        XCTAssertNotNil(a.call("unsubscribe", ["events": ["formReset", "submitted"]])["result"])
        let before = try XCTUnwrap(daemon.peakRSSKiB)
        for (method, event) in [("reset", "formReset"), ("submit", "submitted")] {
            let peers = try ["b", "c"].map { try SocketClient(daemon.socket, name: $0 + method) }
            for p in peers { XCTAssertNotNil(p.call("validate")["result"]) }
            a.send(#"{"jsonrpc":"2.0","method":"\#(method)"}"#)
            XCTAssertNotNil(a.call("validate", timeout: 30)["result"], "\(method) carried out, its sender still here")
            XCTAssertTrue(a.events.isEmpty, "\(a.events)")
            for p in peers {
                let messages = p.readToEnd(timeout: 30)
                XCTAssertTrue(p.atEnd, "\(p.name) was not closed")
                XCTAssertFalse(messages.contains { $0["method"] as? String == event }, p.name)
                let error = messages.last?["params"] as? [String: Any]
                XCTAssertEqual(error?["code"] as? Int, -32003, p.name)
                XCTAssertTrue((error?["message"] as? String ?? "").hasPrefix("limit maxClientBuffer exceeded: more than 8388608 bytes"), "\(messages.last ?? [:])")
            }
        }
        let growth = try XCTUnwrap(daemon.peakRSSKiB) - before
        XCTAssertLessThan(growth, 16 << 10, "peak RSS grew \(growth) KiB")
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }

    /// A large event that fits reaches every client, each in its own position encoding.
    func testALargeEventThatFitsReachesEveryClientInItsEncoding() throws {
        let daemon = try ListenDaemon()
        let text = String(repeating: "👍", count: 20_000)
        let clients = try ["character", "utf-16", "utf-8"].map { encoding in
            let c = try SocketClient(daemon.socket, name: encoding)
            XCTAssertNotNil(c.call("initialize", ["positionEncoding": encoding])["result"])
            return c
        }
        XCTAssertNotNil(clients[0].call("defineForm", ["fields": [["id": "a", "text": text]]])["result"])
        for c in clients.dropFirst() { XCTAssertNotNil(c.call("validate")["result"]) }
        XCTAssertNotNil(clients[0].call("reset")["result"])
        for (c, end) in zip(clients, [20_000, 40_000, 80_000]) {
            if c !== clients[0] { c.readEvents(throughSeq: 2) }
            let reset = try XCTUnwrap(c.events.last { $0["method"] as? String == "formReset" }?["params"] as? [String: Any], c.name)
            let field = try XCTUnwrap((reset["fields"] as? [[String: Any]])?.first)
            XCTAssertEqual(field["text"] as? String, text, c.name)
            XCTAssertEqual((field["selection"] as? [String: Any])?["end"] as? Int, end, c.name)
        }
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }

    /// A client's own large event that no count refused first (a `formDefined` of 74,559
    /// fields from one 1 MiB line: 49.5 MB) and that would not fit its `--max-client-buffer`
    /// is not built: the client is disconnected as overflowing, as it was once the event was
    /// written. The fields and the parse take about 40 MB; built whole, 109 MB in all.
    func testAClientsOwnLargeEventThatWouldNotFitIsNotBuilt() throws {
        let daemon = try ListenDaemon()
        let client = try SocketClient(daemon.socket, name: "c")
        XCTAssertNotNil(client.call("validate")["result"])
        let digits = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let ids = (0..<74_559).map { i in String((0..<4).map { digits[i / [1, 62, 3844, 238_328][$0] % 62] }) }
        let line = #"{"id":1,"method":"defineForm","params":{"fields":[\#(ids.map { #"{"id":"\#($0)"}"# }.joined(separator: ","))]}}"#
        XCTAssertLessThanOrEqual(line.utf8.count, 1 << 20)
        let before = try XCTUnwrap(daemon.peakRSSKiB)
        client.send(line)
        let messages = client.readToEnd(timeout: 30)
        XCTAssertTrue(client.atEnd)
        XCTAssertEqual(messages.count, 1, "only the final error notification")
        let error = messages.last?["params"] as? [String: Any]
        XCTAssertTrue((error?["message"] as? String ?? "").hasPrefix("limit maxClientBuffer exceeded: more than 8388608 bytes"), "\(messages)")
        let growth = try XCTUnwrap(daemon.peakRSSKiB) - before
        XCTAssertLessThan(growth, 72 << 10, "peak RSS grew \(growth) KiB")
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }
}
