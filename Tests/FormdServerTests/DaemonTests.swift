import FormdCore
import FormdJSON
import FormdServer
import XCTest

/// The shared line handler with several clients and no sockets: who receives which event,
/// in which encoding, and what subscriptions do.
final class DaemonTests: XCTestCase {
    /// Clients of one daemon; each line is handled for one of them with the others as peers.
    struct Hub: EventPeers {
        var clients: [ClientState]
        var outputs: [JSONWriter]
        var asker = 0

        init(count: Int) {
            clients = Array(repeating: ClientState(), count: count)
            outputs = Array(repeating: JSONWriter(), count: count)
        }

        func encodings(receiving form: String) -> EncodingSet {
            var set = EncodingSet()
            for i in clients.indices where i != asker {
                if case .nothing = clients[i].subscription.reach(form) { continue }
                set.insert(EncodingSet(clients[i].positionEncoding))
            }
            return set
        }

        mutating func deliver(_ events: ArraySlice<EventRecord>, encoding: PositionEncoding) {
            for i in clients.indices where i != asker && clients[i].positionEncoding == encoding {
                ClientEvents.write(events, for: clients[i], to: &outputs[i])
            }
        }

        /// `daemon` handles `line` from client `i`, the others its peers.
        mutating func send(_ i: Int, _ line: String, to daemon: inout Daemon) {
            asker = i
            var client = clients[i]
            var out = outputs[i]
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { daemon.handleLine(UnsafeRawBufferPointer($0), client: &client, into: &out, peers: &self) }
            clients[i] = client
            outputs[i] = out
        }
    }

    private var daemon = Daemon()
    private var hub = Hub(count: 3)

    /// Sends `line` from client `i`.
    private func send(_ i: Int, _ line: String) { hub.send(i, line, to: &daemon) }

    /// Everything client `i` was sent since the last call.
    private func take(_ i: Int) -> [String] {
        defer { hub.outputs[i].removeAll() }
        return String(decoding: hub.outputs[i].bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private func events(_ i: Int) -> [String] { take(i).filter { $0.hasPrefix(#"{"jsonrpc":"2.0","method":"#) } }

    /// `handle(spent:)` (the stdio burst's) answers as `handle` does, and gives a request's
    /// line back whole for its block to free; any other line is used up.
    func testHandlingASpentLineAnswersTheSameAndGivesTheRequestBack() {
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"defineForm","params":{"fields":[{"id":"a"},{"id":"b"}]}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"insertText","params":{"field":"a","text":"xy"}}"#,
            #"{"method":"pressReturn","params":{"field":"a"}}"#,
            #"[{"id":3,"method":"delete","params":{"field":"a"}},{"id":4,"method":"nope"}]"#,
            "   ", "{not json", #"{"id":5,"method":"setText","params":{"field":"zz","text":"q"}}"#,
        ]
        var plain = Daemon(), spending = Daemon()
        var plainClient = ClientState(), spendingClient = ClientState()
        for line in lines {
            var a = JSONWriter(), b = JSONWriter()
            var peers = NoPeers(), sink = ImmediateEvents()
            let decoded = { Array(line.utf8).withUnsafeBytes { DecodedLine($0, limits: SessionLimits()) } }
            plain.handle(decoded(), client: &plainClient, into: &a, peers: &peers)
            let spent = spending.handle(spent: decoded(), client: &spendingClient, into: &b, peers: &peers, events: &sink)
            XCTAssertEqual(String(decoding: b.bytes, as: UTF8.self), String(decoding: a.bytes, as: UTF8.self), line)
            XCTAssertEqual(spendingClient.lineNumber, plainClient.lineNumber, line)
            switch (decoded(), spent) {
            case (.request(let sent), .request(let back)): XCTAssertEqual(back, sent, line)
            case (.request, _): XCTFail("a request is given back: \(line)")
            case (_, .blank): break
            default: XCTFail("any other line is used up: \(line)")
            }
        }
    }

    func testEveryClientAttachedToAFormGetsItsEventsInItsOwnEncoding() {
        send(1, #"{"id":1,"method":"initialize","params":{"positionEncoding":"utf-8"}}"#)
        send(2, #"{"id":1,"method":"initialize","params":{"positionEncoding":"utf-16","textSync":"incremental"}}"#)
        for i in 0..<3 { send(i, #"{"id":2,"method":"getState"}"#); _ = take(i) }
        send(0, #"{"id":3,"method":"defineForm","params":{"fields":[{"id":"a","text":"👍🏽é"},{"id":"p","secure":true,"text":"日本"}]}}"#)
        // 👍🏽 is 1 character, 8 bytes, 4 UTF-16 units; é 1, 2, 1.
        send(1, #"{"id":4,"method":"select","params":{"field":"a","start":8,"end":10}}"#)
        send(2, #"{"id":5,"method":"select","params":{"field":"p","start":1,"end":2}}"#)
        let zero = events(0), one = events(1), two = events(2)
        XCTAssertEqual(zero.count, 3)
        XCTAssertEqual(one.count, 3)
        XCTAssertEqual(two.count, 3)
        XCTAssertTrue(zero[1].hasSuffix(#""field":"a","selection":{"start":1,"end":2}}}"#), zero[1])
        XCTAssertTrue(one[1].hasSuffix(#""field":"a","selection":{"start":8,"end":10}}}"#), one[1])
        XCTAssertTrue(two[1].hasSuffix(#""field":"a","selection":{"start":4,"end":5}}}"#), two[1])
        // A masked field counts over its display: one • is 3 bytes, one unit otherwise.
        XCTAssertTrue(zero[2].hasSuffix(#""field":"p","selection":{"start":1,"end":2}}}"#), zero[2])
        XCTAssertTrue(one[2].hasSuffix(#""field":"p","selection":{"start":3,"end":6}}}"#), one[2])
        XCTAssertTrue(two[2].hasSuffix(#""field":"p","selection":{"start":1,"end":2}}}"#), two[2])
        // The definition's field states carry selections too, recounted.
        XCTAssertTrue(zero[0].contains(#""selection":{"start":2,"end":2}"#), zero[0])
        XCTAssertTrue(one[0].contains(#""selection":{"start":10,"end":10}"#), one[0])
        XCTAssertTrue(two[0].contains(#""selection":{"start":5,"end":5}"#), two[0])
        // textSync is the receiver's: only client 2 gets incremental textChanged.
        send(0, #"{"id":6,"method":"setText","params":{"field":"a","text":"x"}}"#)
        XCTAssertTrue(events(0)[0].contains(#""display":"x""#))
        XCTAssertTrue(events(1)[0].contains(#""display":"x""#))
        XCTAssertFalse(events(2)[0].contains(#""display""#))
    }

    func testResponsesAndErrorNotificationsGoOnlyToTheAsker() {
        for i in 0..<3 { send(i, #"{"id":1,"method":"getState"}"#); _ = take(i) }
        send(1, #"{"method":"setText","params":{"field":"nope","text":"x"}}"#)
        send(1, #"{"id":2,"method":"validate"}"#)
        XCTAssertEqual(take(0), [])
        XCTAssertEqual(take(2), [])
        let mine = take(1)
        XCTAssertEqual(mine.count, 2)
        XCTAssertTrue(mine[0].contains(#""method":"error""#) && mine[0].contains(#""line":2"#), mine[0])
    }

    func testAClientIsAttachedOnlyToTheFormsItNamed() {
        send(0, #"{"id":1,"method":"defineForm","params":{"form":"f","fields":[{"id":"a"}]}}"#)
        send(1, #"{"id":1,"method":"getState"}"#)
        send(0, #"{"id":2,"method":"setText","params":{"form":"f","field":"a","text":"x"}}"#)
        XCTAssertEqual(events(1), [], "client 1 only named the default form")
        XCTAssertEqual(events(0).count, 2)
        send(1, #"{"id":2,"method":"validate","params":{"form":"f"}}"#)
        _ = take(1)
        send(0, #"{"id":3,"method":"setText","params":{"form":"f","field":"a","text":"y"}}"#)
        XCTAssertEqual(events(1).count, 1, "naming it in any request attaches it")
        // A failing request names the form too.
        send(2, #"{"id":1,"method":"setText","params":{"form":"f","field":"zz","text":"y"}}"#)
        _ = take(2)
        send(0, #"{"id":4,"method":"setText","params":{"form":"f","field":"a","text":"z"}}"#)
        XCTAssertEqual(events(2).count, 1)
    }

    func testSubscriptionRules() {
        send(0, #"{"id":1,"method":"defineForm","params":{"form":"f","fields":[{"id":"a"},{"id":"b"}]}}"#)
        send(0, #"{"id":1,"method":"defineForm","params":{"form":"g","fields":[{"id":"a"}]}}"#)
        _ = take(0)
        // Client 1: attached to f by naming it; a subscribe to g's submissions takes over g only.
        send(1, #"{"id":1,"method":"getState","params":{"form":"f"}}"#)
        send(1, #"{"id":2,"method":"subscribe","params":{"forms":["g"],"events":["submitted"]}}"#)
        send(1, #"{"id":3,"method":"setText","params":{"form":"g","field":"a","text":"own edit"}}"#)
        _ = take(1)
        send(0, #"{"id":2,"method":"setText","params":{"form":"f","field":"a","text":"1"}}"#)
        send(0, #"{"id":3,"method":"setText","params":{"form":"g","field":"a","text":"2"}}"#)
        send(0, #"{"id":4,"method":"submit","params":{"form":"g"}}"#)
        XCTAssertEqual(events(1).map(method), ["textChanged", "submitted"])

        // Last rule wins: unsubscribe from field b, then subscribe to its validity again.
        send(1, #"{"id":4,"method":"unsubscribe","params":{"forms":["f"],"fields":["b"]}}"#)
        send(1, #"{"id":5,"method":"subscribe","params":{"forms":["f"],"fields":["b"],"events":["validityChanged"]}}"#)
        _ = take(1)
        send(0, #"{"id":5,"method":"configureField","params":{"form":"f","field":"b","required":true}}"#)
        send(0, #"{"id":6,"method":"setText","params":{"form":"f","field":"b","text":"z"}}"#)
        send(0, #"{"id":7,"method":"reset","params":{"form":"f"}}"#)
        // subscribe {forms:[f], …} took f over: its reset only reaches client 1 through a rule.
        XCTAssertEqual(events(1).map(method), ["validityChanged", "validityChanged"])

        // unsubscribe {} is quiet; an unsubscribe by field never drops whole-form events.
        send(2, #"{"id":1,"method":"subscribe"}"#)
        send(2, #"{"id":2,"method":"unsubscribe","params":{"fields":["a","b"]}}"#)
        _ = take(2)
        send(0, #"{"id":8,"method":"setText","params":{"form":"f","field":"a","text":"q"}}"#)
        send(0, #"{"id":9,"method":"reset","params":{"form":"g"}}"#)
        XCTAssertEqual(events(2).map(method), ["formReset"])
        send(2, #"{"id":3,"method":"unsubscribe"}"#)
        _ = take(2)
        send(0, #"{"id":10,"method":"reset","params":{"form":"g"}}"#)
        XCTAssertEqual(events(2), [])
    }

    func testSubscribeParamsAreChecked() {
        send(0, #"{"id":1,"method":"subscribe","params":{"events":["submitted","typed"]}}"#)
        send(0, #"{"id":2,"method":"subscribe","params":{"forms":"f"}}"#)
        send(0, #"{"id":3,"method":"unsubscribe","params":{"field":["a"]}}"#)
        send(0, #"{"id":4,"method":"subscribe","params":{"events":["error"]}}"#)
        let out = take(0)
        XCTAssertEqual(out.count, 4)
        XCTAssertTrue(out.allSatisfy { $0.contains("-32602") }, "\(out)")
        XCTAssertTrue(out[0].contains(#"unknown event \"typed\""#), out[0])
        XCTAssertTrue(out[1].contains(#"\"forms\" in subscribe params must be an array"#), out[1])
        XCTAssertTrue(out[2].contains(#"unknown key \"field\" in unsubscribe params (did you mean \"fields\"?); allowed keys: form, forms, fields, events"#), out[2])
        // Rules are bounded; repeating one does not count twice.
        for _ in 0..<300 { send(0, #"{"id":5,"method":"subscribe","params":{"forms":["f"]}}"#) }
        XCTAssertTrue(take(0).allSatisfy { $0 == #"{"jsonrpc":"2.0","id":5,"result":{}}"# })
        for i in 0..<300 { send(0, #"{"id":6,"method":"subscribe","params":{"forms":["f\#(i)"]}}"#) }
        XCTAssertTrue(take(0).last!.contains("-32003"))
    }

    private func method(_ line: String) -> String {
        guard let r = line.range(of: #""method":""#) else { return "" }
        return String(line[r.upperBound...].prefix { $0 != "\"" })
    }
}
