#if canImport(Glibc)
import Glibc
#endif
import FormdJSON
import Foundation
@testable import FormdServer
import FormdTestSupport
import XCTest

/// In a burst the serving thread holds events as records and the reading thread writes
/// them (`HeldOutput`); answered one line at a time, a `Session` writes them at once. The
/// output must be the same bytes either way, whatever the lines: batches, notifications,
/// errors, subscriptions that let only some events through, a second form, `textSync`
/// switching, and a `shutdown` mid-burst after which nothing more is applied.
final class BurstOutputTests: XCTestCase {
    static func lines(count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        let fields = (0..<6).map { #"{"id":"f\#($0)"}"# }.joined(separator: ",")
        var lines = [
            #"{"jsonrpc":"2.0","id":0,"method":"defineForm","params":{"fields":[\#(fields)]}}"#,
            #"{"id":1,"method":"defineForm","params":{"form":"other","fields":[\#(fields)]}}"#,
        ]
        func keystroke(_ id: String) -> String {
            let field = "f\(rng.next(below: 7))"  // f6 does not exist: an error
            let form = rng.next(below: 4) == 0 ? #""form":"other","# : ""
            switch rng.next(below: 5) {
            case 0: return #"{"jsonrpc":"2.0",\#(id)"method":"insertText","params":{\#(form)"field":"\#(field)","text":"ab"}}"#
            case 1: return #"{\#(id)"method":"setText","params":{\#(form)"field":"\#(field)","text":"hello wörld"}}"#
            case 2: return #"{\#(id)"method":"delete","params":{\#(form)"field":"\#(field)"}}"#
            case 3: return #"{\#(id)"method":"pressReturn","params":{\#(form)"field":"\#(field)"}}"#
            default: return #"{\#(id)"method":"demandFocus","params":{\#(form)"field":"\#(field)","demand":"become"}}"#
            }
        }
        for n in 2..<count {
            switch rng.next(below: 40) {
            case 0: lines.append("[" + keystroke(#""id":"b\#(n)a","#) + "," + keystroke("") + "," + keystroke(#""id":"b\#(n)c","#) + "]")
            case 1: lines.append(keystroke(""))  // a notification: events, no response
            case 2: lines.append(#"{"id":\#(n),"method":"subscribe","params":{"events":["textChanged","changeRejected"],"fields":["f1","f2"]}}"#)
            case 3: lines.append(#"{"id":\#(n),"method":"unsubscribe","params":{}}"#)
            case 4: lines.append(#"{"id":\#(n),"method":"initialize","params":{"textSync":"\#(rng.next(below: 2) == 0 ? "full" : "incremental")"}}"#)
            case 5: lines.append(#" { "id" : \#(n) , "method" : "getState" } "#)
            case 6: lines.append(#"{"id":\#(n),"method":"nope"}"#)
            case 7: lines.append("not json")
            // Ids of every kind a held response keeps or leaves to be written at once:
            // strings short and long, beyond ASCII, needing escapes, null, number literals.
            case 8: lines.append(keystroke(#""id":"k\#(n)","#))
            case 9: lines.append(keystroke(#""id":"a-request-id-longer-than-fifteen-\#(n)","#))
            case 10: lines.append(keystroke(#""id":"é\#(n % 100)","#))
            case 11: lines.append(keystroke(#""id":"q\"\#(n % 100)","#))
            case 12: lines.append(keystroke(#""id":null,"#))
            case 13: lines.append(keystroke(#""id":\#(n).5e-3,"#))
            default: lines.append(keystroke(#""id":\#(n),"#))
            }
        }
        return lines
    }

    /// The bytes formd's stdio server writes for `input`, read from a file so that every
    /// read fills a block and the burst path serves it.
    func served(_ input: String, sharing: StdioServer.WorkSharing = .adaptive) throws -> [UInt8] {
        let inPath = NSTemporaryDirectory() + "formd-burst-in-\(getpid())", outPath = NSTemporaryDirectory() + "formd-burst-out-\(getpid())"
        defer { unlink(inPath); unlink(outPath) }
        try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))
        let inFD = open(inPath, O_RDONLY), outFD = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(inFD, 0)
        XCTAssertGreaterThanOrEqual(outFD, 0)
        var server = StdioServer(session: Session(), input: inFD, output: outFD)
        server.workSharing = sharing
        server.run()
        close(inFD)
        close(outFD)
        return Array(try Data(contentsOf: URL(fileURLWithPath: outPath)))
    }

    /// The same lines through a `Session`, one at a time, until `shutdown`.
    func answeredOneByOne(_ lines: [String]) -> [UInt8] {
        var session = Session()
        var out: [UInt8] = []
        for line in lines where !session.isShutDown {
            var w = JSONWriter()
            Array(line.utf8).withUnsafeBytes { session.handleLine($0, into: &w) }
            out += w.bytes
        }
        return out
    }

    func testABurstIsAnsweredByteForByteAsLineByLine() throws {
        let lines = Self.lines(count: 30_000, seed: 0xB0B)
        let expected = answeredOneByOne(lines)
        for sharing in [StdioServer.WorkSharing.adaptive, .toBurstThread, .toServingThread] {
            let output = try served(lines.joined(separator: "\n") + "\n", sharing: sharing)
            XCTAssertGreaterThan(output.count, 1 << 20, "several blocks of input and output")
            XCTAssertEqual(output, expected, "work shared \(sharing)")
        }
    }

    /// With `Content-Length` framing, a held response gets its header where the serving
    /// thread would have written it.
    func testHeldResponsesAreFramedByContentLength() throws {
        let framed = Self.lines(count: 8_000, seed: 0xF4A).filter { $0 != "not json" }.map { line in
            "Content-Length: \(line.utf8.count)\r\n\r\n" + line
        }.joined()
        let held = try served(framed, sharing: .toBurstThread), written = try served(framed, sharing: .toServingThread)
        XCTAssertGreaterThan(held.count, 1 << 19)
        XCTAssertTrue(String(decoding: held.prefix(40), as: UTF8.self).hasPrefix("Content-Length: "))
        XCTAssertEqual(held, written)
    }

    func testAShutdownMidBurstWritesEverythingBeforeItAndAppliesNothingAfter() throws {
        var lines = Self.lines(count: 20_000, seed: 0x5EED)
        lines.insert(#"{"id":"bye","method":"shutdown"}"#, at: 12_345)
        let expected = answeredOneByOne(lines)
        XCTAssertTrue(String(decoding: expected.suffix(60), as: UTF8.self).hasSuffix(#"{"jsonrpc":"2.0","id":"bye","result":{}}"# + "\n"))
        for sharing in [StdioServer.WorkSharing.adaptive, .toBurstThread, .toServingThread] {
            let output = try served(lines.joined(separator: "\n") + "\n", sharing: sharing)
            XCTAssertEqual(output, expected, "work shared \(sharing)")
        }
    }
}
