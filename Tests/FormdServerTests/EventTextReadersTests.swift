import FormdCore
import FormdJSON
@testable import FormdServer
import XCTest

/// Who reads the text a `textChanged` carries, as the daemon decides it before each
/// command (`EventPeers.textsRead`, `FormEngine.setEventTexts`): the sender syncing in
/// full, another client syncing in full, a recount into another encoding, an observer
/// that does not say it reads none. The events the engine emitted are checked exactly.
final class EventTextReadersTests: XCTestCase {
    /// Keeps every event the engine emitted for the sender, as records.
    struct Kept: EventSink {
        var records: [EventRecord] = []
        var kept: [FormEvent] = []
        mutating func emitted(from start: Int, form name: String, for client: inout ClientState, to w: inout JSONWriter) {
            kept += records[start...].map(\.event)
            records.removeAll(keepingCapacity: true)
        }
    }

    /// One other client, which receives every form's events.
    struct Other: EventPeers {
        var client = ClientState()
        func encodings(receiving form: String) -> EncodingSet { EncodingSet(client.positionEncoding) }
        func readTexts(of form: String) -> Bool { client.textSync == .full }
        mutating func deliver(_ events: ArraySlice<EventRecord>, encoding: PositionEncoding) {}
    }

    /// An observer of the journal's kind: says whether it reads texts, or does not say.
    final class Watcher: CommandObserver, @unchecked Sendable {
        func commandChanged(form: String, events: [EventRecord], engine: FormEngine) {}
        func commit(engine: FormEngine) -> Bool { true }
    }

    final class TextlessWatcher: CommandObserver, @unchecked Sendable {
        var readsEventTexts: Bool { false }
        func commandChanged(form: String, events: [EventRecord], engine: FormEngine) {}
        func commit(engine: FormEngine) -> Bool { true }
    }

    private var daemon = Daemon()
    private var client = ClientState()
    private var sink = Kept()

    private func send<Peers: EventPeers>(_ line: String, peers: inout Peers) {
        var bytes = Array(line.utf8)
        var w = JSONWriter()
        bytes.withUnsafeMutableBytes {
            daemon.handle(DecodedLine(UnsafeRawBufferPointer($0), limits: daemon.limits), client: &client, into: &w, peers: &peers, events: &sink)
        }
    }

    private func send(_ line: String) {
        var none = NoPeers()
        send(line, peers: &none)
    }

    /// The events of typing `piece` into field `a`, sent alone, then cleared.
    private func typed<Peers: EventPeers>(_ piece: String, peers: inout Peers) -> [FormEvent] {
        sink.kept = []
        send(#"{"id":9,"method":"insertText","params":{"field":"a","text":"\#(piece)"}}"#, peers: &peers)
        return sink.kept
    }

    private func typed(_ piece: String) -> [FormEvent] {
        var none = NoPeers()
        return typed(piece, peers: &none)
    }

    private func define() {
        send(#"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a","text":"日本"}]}}"#)
    }

    func testStdioKeepsTheTextExactlyWhileTheClientSyncsInFull() {
        define()
        XCTAssertEqual(typed("é"), [.textChanged(field: "a", text: "日本é", length: 3, edit: TextEdit(start: 2, end: 2, text: "é"), selection: .init(start: 3, end: 3, backward: false))])
        send(#"{"id":2,"method":"initialize","params":{"textSync":"incremental"}}"#)
        XCTAssertEqual(typed("x"), [.textChanged(field: "a", text: nil, length: 4, edit: TextEdit(start: 3, end: 3, text: "x"), selection: .init(start: 4, end: 4, backward: false))])
        // initialize without textSync changes nothing.
        send(#"{"id":3,"method":"initialize","params":{"positionEncoding":"utf-8"}}"#)
        XCTAssertEqual(typed("y"), [.textChanged(field: "a", text: nil, length: 5, edit: TextEdit(start: 9, end: 9, text: "y"), selection: .init(start: 10, end: 10, backward: false))])
        send(#"{"id":4,"method":"initialize","params":{"textSync":"full"}}"#)
        XCTAssertEqual(typed("z"), [.textChanged(field: "a", text: "日本éxyz", length: 6, edit: TextEdit(start: 10, end: 10, text: "z"), selection: .init(start: 11, end: 11, backward: false))])
    }

    /// Within one batch, each command is decided with the client's setting as it stands.
    func testABatchSwitchingTextSyncKeepsTheTextForTheCommandsAfterFull() {
        define()
        send(#"{"id":2,"method":"initialize","params":{"textSync":"incremental"}}"#)
        sink.kept = []
        send(#"[{"method":"insertText","params":{"field":"a","text":"1"}},{"method":"initialize","params":{"textSync":"full"}},{"method":"insertText","params":{"field":"a","text":"2"}},{"method":"initialize","params":{"textSync":"incremental"}},{"method":"insertText","params":{"field":"a","text":"3"}}]"#)
        XCTAssertEqual(sink.kept.map(Self.text), [.some(nil), .some("日本12"), .some(nil)])
    }

    func testAnObserverThatDoesNotSayKeepsTheText() {
        define()
        send(#"{"id":2,"method":"initialize","params":{"textSync":"incremental"}}"#)
        daemon.observer = Watcher()
        XCTAssertEqual(typed("a").map(Self.text), [.some("日本a")])
        daemon.observer = TextlessWatcher()
        XCTAssertEqual(typed("b").map(Self.text), [.some(nil)])
    }

    func testAnotherClientSyncingInFullOrCountingOtherwiseKeepsTheText() {
        define()
        send(#"{"id":2,"method":"initialize","params":{"textSync":"incremental"}}"#)
        var other = Other()
        XCTAssertEqual(typed("a", peers: &other).map(Self.text), [.some("日本a")], "the other client syncs in full")
        other.client.textSync = .incremental
        XCTAssertEqual(typed("b", peers: &other).map(Self.text), [.some(nil)], "nobody reads it")
        other.client.positionEncoding = .utf16
        XCTAssertEqual(typed("c", peers: &other).map(Self.text), [.some("日本abc")], "recounted for the other client")
    }

    /// Peers that do not say whether they read texts are taken to read them.
    func testPeersThatDoNotSayKeepTheText() {
        struct Silent: EventPeers {
            func encodings(receiving form: String) -> EncodingSet { EncodingSet() }
            mutating func deliver(_ events: ArraySlice<EventRecord>, encoding: PositionEncoding) {}
        }
        define()
        send(#"{"id":2,"method":"initialize","params":{"textSync":"incremental"}}"#)
        var silent = Silent()
        XCTAssertEqual(typed("a", peers: &silent).map(Self.text), [.some("日本a")])
    }

    /// A `textChanged`'s text (`.some(nil)`: it carries none); nil for another event.
    private static func text(_ event: FormEvent) -> String?? {
        guard case .textChanged(_, let text, _, _, _) = event else { return nil }
        return .some(text)
    }
}
