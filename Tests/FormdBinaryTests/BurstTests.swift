import Foundation
import XCTest

/// Bursts are read ahead and decoded on a second thread (`BurstIO`), single requests on
/// the serving thread: the answers must not tell the two apart.
final class BurstTests: XCTestCase {
    static let define = #"{"jsonrpc":"2.0","id":0,"method":"defineForm","params":{"fields":[{"id":"a"},{"id":"b"}]}}"# + "\n"

    static func insert(_ id: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"insertText","params":{"field":"a","text":"x"}}"# + "\n"
    }

    func testABurstThenSingleRequestsAreAnsweredInOrderWithTheRightLineNumbers() throws {
        let formd = try SpawnedFormd([])
        let count = 5_000  // about 400 KiB: several full blocks
        var burst = Self.define
        for id in 1...count { burst += Self.insert(id) }
        burst += "\r\n\n" + #"{"method":"nope"}"# + "\n"
        // Written from another thread while the answers are read, faster than formd reads
        // it, so most reads fill a whole block.
        let writer = formd.sendInBackground(Array(burst.utf8))
        var ids: [Int] = []
        var errorLine: Int? = nil
        while errorLine == nil, let line = formd.readLine() {
            let message = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let id = message["id"] as? Int { ids.append(id) }
            if message["method"] as? String == "error" { errorLine = (message["params"] as? [String: Any])?["line"] as? Int }
        }
        XCTAssertEqual(ids, Array(0...count), "every request of the burst answered once, in order")
        XCTAssertEqual(errorLine, count + 4, "lines are counted across blocks, blank ones included")
        XCTAssertEqual(writer.wait(timeout: .now() + 10), .success)
        // After the burst the serving thread reads for itself again.
        for id in count + 1...count + 3 {
            XCTAssertTrue(formd.send(#"{"id":\#(id),"method":"getState"}"# + "\n"))
            let answer = try XCTUnwrap(formd.readLine(), "request \(id) after the burst was answered")
            XCTAssertTrue(answer.hasPrefix(#"{"jsonrpc":"2.0","id":\#(id),"result":"#), answer)
            XCTAssertTrue(answer.contains(#""length":\#(count)"#), "every keystroke of the burst applied")
        }
        formd.closeStdin()
        let status = try XCTUnwrap(formd.waitForExit())
        XCTAssertTrue(WaitStatus.exited(status) && WaitStatus.exitCode(status) == 0, WaitStatus.describe(status))
    }

    func testShutdownInsideABurstLeavesTheRestUnapplied() throws {
        var input = Self.define
        for id in 1...20_000 {
            input += id == 7_000 ? #"{"id":7000,"method":"shutdown"}"# + "\n" : Self.insert(id)
        }
        let out = try FormdProcess.run([], input: input)
        XCTAssertEqual(out.status, 0, out.stderr)
        let ids = FormdProcess.messages(out).compactMap { $0["id"] as? Int }
        XCTAssertEqual(ids, Array(0...7_000), "answered up to shutdown and nothing after it")
        XCTAssertEqual(out.stderr, "")
    }
}

extension BurstTests {
    /// A read that takes exactly all the waiting input fills the block like a burst does;
    /// its answers must still go out at once, with the input left open.
    func testAReadThatTakesExactlyAllTheInputIsAnsweredAtOnce() throws {
        let formd = try SpawnedFormd([])
        let head = #"{"id":1,"method":"getState""#
        let line = head + String(repeating: " ", count: 65_536 - head.utf8.count - 2) + "}\n"
        XCTAssertEqual(line.utf8.count, 65_536)
        XCTAssertTrue(formd.send(line))
        let answer = try XCTUnwrap(formd.readLine(timeout: 5), "no answer while the input stays open")
        XCTAssertTrue(answer.hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":"#), answer)
        // The same for a block of many small requests.
        let request = #"{"id":2,"method":"getState"}"# + "\n"
        var block = String(repeating: request, count: 65_536 / request.utf8.count)
        block += String(repeating: " ", count: 65_536 - block.utf8.count - 1) + "\n"
        XCTAssertEqual(block.utf8.count, 65_536)
        let count = 65_536 / request.utf8.count
        let writer = formd.sendInBackground(Array(block.utf8))
        for i in 0..<count {
            XCTAssertNotNil(formd.readLine(timeout: 5), "answer \(i + 1) of \(count) while the input stays open")
        }
        XCTAssertEqual(writer.wait(timeout: .now() + 5), .success)
        formd.closeStdin()
        XCTAssertNotNil(formd.waitForExit())
    }
}
