import FormdProtocol
import XCTest

/// `initialize` reports the Unicode version that decides characters, canonical equivalence
/// and letters: it must be the one of the standard library formd runs on.
final class UnicodeVersionTests: XCTestCase {
    func testTheReportedUnicodeVersionIsTheStandardLibrarys() {
        var newest = (major: 0, minor: 0)
        for value in 0...0x10FFFF {
            guard let age = Unicode.Scalar(value)?.properties.age else { continue }
            if (age.major, age.minor) > newest { newest = (age.major, age.minor) }
        }
        XCTAssertEqual(ServerInfo.unicodeVersion, "\(newest.major).\(newest.minor)")
        // What the version decides, as the spec's examples say: क्ष is one character since
        // Unicode 15.1 (Indic conjuncts), and Swift's letters are Alphabetic scalars.
        XCTAssertEqual("\u{0915}\u{094D}\u{0937}".count, 1)
        XCTAssertTrue(Character("Ⓐ").isLetter && Character("Ⅰ").isLetter && Character("〇").isLetter)
    }
}
