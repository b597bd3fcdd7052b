import FormdJSON
import XCTest
@testable import FormdServer

/// `formd attach`'s ending, fed bytes directly: what it keeps of the daemon's output and
/// which `shutdown` requests it finds in the client's input.
final class AttachEndingUnitTests: XCTestCase {
    private func bytes(_ s: String) -> ArraySlice<UInt8> { Array(s.utf8)[...] }

    /// A read longer than the tail replaces it: the old tail joined to the read's suffix
    /// would make a message the daemon never wrote (here a `shutdown` notification).
    func testAReadLongerThanTheTailKeepsOnlyItsSuffix() {
        var ending = AttachEnding()
        ending.received(bytes(#"{"jsonrpc":"2.0","method":"shutdown","params":{"reason":"request"},"pad":""#))
        ending.received(bytes(String(repeating: "a", count: 5000) + "\"}\n"))
        XCTAssertEqual(ending.status(inputEnded: false, path: "/test"), 1)
    }

    func testShutdownIDsAreFoundWhateverTheLayout() {
        var requests = ShutdownRequests()
        requests.read(bytes(#"{"jsonrpc":"2.0","id":1,"method":"setText","params":{"field":"a","text":"shutdown"}}"# + "\n"))
        requests.read(bytes(#"{"jsonrpc":"2.0","id":2,"method":"setText","params":{"field":"a","text":"\"method\":\"shutdown\""}}"# + "\n"))
        XCTAssertEqual(requests.ids, [])
        XCTAssertFalse(requests.notified)
        requests.read(bytes(#"[{"jsonrpc":"2.0","id":3,"method":"getState"},{"method" : "shutdown","id":"#))
        requests.read(bytes(#""four","jsonrpc":"2.0"}]"# + "\n"))
        requests.read(bytes(#"{"jsonrpc":"2.0","method":"shutdown"}"#))
        XCTAssertEqual(requests.ids, [.string("four")])
        XCTAssertTrue(requests.notified)
    }

    /// The scan back to a request's `{` reaches only `window` bytes before the read.
    func testARequestOpenedTooFarBackIsNotRecognised() {
        var requests = ShutdownRequests()
        requests.read(bytes(#"{"jsonrpc":"2.0","id":1,"params":{"form":""# + String(repeating: "f", count: 2 * ShutdownRequests.window) + "\"},"))
        requests.read(bytes(#""method":"shutdown"}"# + "\n"))
        XCTAssertEqual(requests.ids, [])
    }
}
