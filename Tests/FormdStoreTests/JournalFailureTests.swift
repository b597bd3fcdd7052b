import Foundation
import FormdCore
import FormdJSON
import FormdServer
@testable import FormdStore
import XCTest

/// When the journal cannot be written, nothing it does not hold is answered.
final class JournalFailureTests: XCTestCase {
    /// The descriptor this process has open on `path`, found through /proc.
    func descriptor(of path: String) throws -> Int32 {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        for name in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name), target == real {
                return Int32(name)!
            }
        }
        throw XCTSkip("no descriptor open on \(path)")
    }

    func testADiskFullJournalStopsTheServerBeforeItAnswers() throws {
        let dir = try temporaryDirectory(self)
        let opened = try StateStore.open(StoreOptions(path: dir), initial: FormEngine())
        defer { opened.store.close() }
        // The journal's descriptor now writes to /dev/full: every write fails with ENOSPC.
        let full = open("/dev/full", O_WRONLY)
        XCTAssertGreaterThanOrEqual(full, 0)
        let journal = try descriptor(of: dir + "/journal")
        XCTAssertEqual(dup2(full, journal), journal)
        close(full)

        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&input), 0)
        XCTAssertEqual(pipe(&output), 0)
        let lines = #"{"id":1,"method":"validate"}"# + "\n" + #"{"id":2,"method":"defineForm","params":{"fields":[{"id":"a"}]}}"# + "\n"
        _ = Array(lines.utf8).withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
        close(input[1])
        var session = Session(engine: opened.engine)
        session.observer = opened.store
        var server = StdioServer(session: session, input: input[0], output: output[1])
        server.run()
        close(output[1])
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
        close(output[0])
        XCTAssertTrue(server.halted)
        XCTAssertEqual(n, 0, "nothing answered: \(String(decoding: buffer[..<max(n, 0)], as: UTF8.self))")
        XCTAssertNotNil(opened.store.failure)
        XCTAssertFalse(opened.store.commit(engine: server.session.engine), "stays failed")
    }
}
