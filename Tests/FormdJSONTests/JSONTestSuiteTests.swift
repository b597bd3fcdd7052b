import Foundation
import XCTest
@testable import FormdJSON

/// Runs Nicolas Seriot's JSONTestSuite (test_parsing): y_ files must parse, n_ files must
/// be rejected, i_ files (implementation-defined) must merely finish without crashing or
/// hanging; what the parser did with each i_ file is printed for the record.
final class JSONTestSuiteTests: XCTestCase {
    func testMustAccept() throws {
        let all = try jsonTestSuiteCases(prefix: "y_")
        var failures: [String] = []
        for (name, bytes) in all {
            do {
                _ = try JSONParser.parse(bytes)
            } catch {
                failures.append("\(name): \(error.message)")
            }
        }
        XCTAssertTrue(failures.isEmpty, "y_ files rejected:\n" + failures.joined(separator: "\n"))
        print("JSONTestSuite y_: \(all.count - failures.count)/\(all.count) accepted")
    }

    func testMustReject() throws {
        let all = try jsonTestSuiteCases(prefix: "n_")
        var failures: [String] = []
        for (name, bytes) in all {
            if let value = try? JSONParser.parse(bytes) {
                failures.append("\(name): accepted as \(JSONWriter.serialize(value).prefix(60))")
            }
        }
        XCTAssertTrue(failures.isEmpty, "n_ files accepted:\n" + failures.joined(separator: "\n"))
        print("JSONTestSuite n_: \(all.count - failures.count)/\(all.count) rejected")
    }

    /// Implementation-defined cases: no expectation beyond finishing promptly. The outcome
    /// of each is printed so behaviour changes show up in the test log.
    func testImplementationDefinedFinish() throws {
        let all = try jsonTestSuiteCases(prefix: "i_")
        var accepted = 0
        for (name, bytes) in all {
            let start = DispatchTime.now()
            let outcome: String
            do {
                let value = try JSONParser.parse(bytes)
                accepted += 1
                outcome = "accepted: \(JSONWriter.serialize(value).prefix(60))"
            } catch {
                outcome = "rejected (\(error.kind)): \(error.message)"
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            XCTAssertLessThan(seconds, 1.0, "\(name) took \(seconds)s")
            print("JSONTestSuite \(name): \(outcome)")
        }
        print("JSONTestSuite i_: \(accepted) accepted, \(all.count - accepted) rejected, of \(all.count)")
    }
}
