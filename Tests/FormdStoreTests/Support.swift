import Foundation
import FormdCore
import FormdJSON
import FormdServer
import FormdStore
import FormdTestSupport
import XCTest

extension StateStore: CommandObserver {}

/// A fresh directory under the system's temporary directory, removed by the test's teardown.
func temporaryDirectory(_ test: XCTestCase) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("formd-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url.path
}

/// A session journaling into a state directory, as `formd --state` runs one.
struct StoredSession {
    var session: Session
    let store: StateStore

    init(_ options: StoreOptions, initial: FormEngine = FormEngine()) throws {
        let opened = try StateStore.open(options, initial: initial)
        store = opened.store
        session = Session(engine: opened.engine)
        session.observer = store
    }

    /// Handles one line and commits, as the server does before it flushes.
    @discardableResult
    mutating func send(_ line: String) -> String {
        let out = handle(line)
        XCTAssertTrue(store.commit(engine: session.engine))
        return out
    }

    /// Handles one line without committing (the output would still be in the buffer).
    mutating func handle(_ line: String) -> String {
        var w = JSONWriter()
        var l = line
        l.withUTF8 { session.handleLine(UnsafeRawBufferPointer($0), into: &w) }
        return String(decoding: w.bytes, as: UTF8.self)
    }

    var engine: FormEngine { session.engine }

    func close() { store.close() }
}

/// Every form's state, secrets included: what a restore must reproduce (undo history aside).
func states(_ engine: FormEngine) -> [String: FormSnapshot] {
    engine.forms.mapValues { $0.snapshot(includeSecrets: true) }
}

func readBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

func writeBytes(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func jsonString(_ s: String) -> String { JSONWriter.serialize(.string(s)) }
