// swift-tools-version:6.0
// formd: a form daemon. No package dependencies: only the toolchain's own libraries.
import PackageDescription

let package = Package(
    name: "formd",
    products: [
        .executable(name: "formd", targets: ["formd"]),
        .library(name: "FormdCore", targets: ["FormdCore"]),
    ],
    targets: [
        // A prefetch hint, in C: Swift has no way to spell one.
        .target(name: "CFormdPrefetch"),
        // JSON string bytes sixteen at a time (SSE2), in C: Swift's SIMD compares go lane by lane.
        .target(name: "CFormdStrings"),
        // Word-at-a-time byte tests and short strings made from their bytes; no JSON.
        .target(name: "FormdBytes", dependencies: ["CFormdPrefetch"]),
        // JSON values, a byte-level parser and a writer; no Foundation.
        .target(name: "FormdJSON", dependencies: ["FormdBytes", "CFormdStrings"]),
        // formd's pattern dialect: a parser and a lazily built automaton, linear in the text.
        .target(name: "FormdPattern"),
        // The form engine: a pure state machine, (state, command) -> (state, result, [event]).
        .target(name: "FormdCore", dependencies: ["FormdBytes", "FormdPattern"]),
        // JSON-RPC messages: decoding requests into engine commands, encoding results and events.
        .target(name: "FormdProtocol", dependencies: ["FormdBytes", "FormdJSON", "FormdCore"]),
        // Framing and connection handling: line reader, output buffer, the line handler.
        .target(name: "FormdServer", dependencies: ["FormdJSON", "FormdCore", "FormdProtocol"]),
        // `--state`: the journal and snapshots that keep forms across restarts.
        .target(name: "FormdStore", dependencies: ["FormdJSON", "FormdCore", "FormdProtocol"]),
        // `formd call` and `formd wait`: a client of a running `formd --listen`, for scripts.
        .target(name: "FormdClient", dependencies: ["FormdServer", "FormdProtocol", "FormdJSON"]),
        // `formd tui`: a terminal front end that renders the form from protocol events only.
        .target(name: "FormdTUI", dependencies: ["FormdClient", "FormdServer", "FormdProtocol", "FormdJSON"]),
        // Thin wiring: command line, signals, stdio.
        .executableTarget(name: "formd", dependencies: ["FormdServer", "FormdProtocol", "FormdCore", "FormdJSON", "FormdTUI", "FormdStore", "FormdClient"]),
        // Helpers shared by the test targets (a seeded random generator).
        .target(name: "FormdTestSupport", path: "Tests/FormdTestSupport"),
        .testTarget(name: "FormdBytesTests", dependencies: ["FormdBytes", "FormdTestSupport"]),
        .testTarget(name: "FormdPatternTests", dependencies: ["FormdPattern", "FormdTestSupport"]),
        .testTarget(name: "FormdJSONTests", dependencies: ["FormdJSON", "FormdTestSupport"]),
        .testTarget(name: "FormdCoreTests", dependencies: ["FormdCore", "FormdTestSupport"]),
        .testTarget(name: "FormdProtocolTests", dependencies: ["FormdProtocol", "FormdJSON", "FormdCore", "FormdTestSupport"]),
        .testTarget(name: "FormdServerTests", dependencies: ["FormdServer", "FormdProtocol", "FormdJSON", "FormdCore", "FormdTestSupport"]),
        .testTarget(name: "FormdBinaryTests", dependencies: ["FormdJSON", "FormdTestSupport"]),
        .testTarget(name: "FormdStoreTests", dependencies: ["FormdStore", "FormdServer", "FormdProtocol", "FormdCore", "FormdJSON", "FormdTestSupport"]),
    ]
)
