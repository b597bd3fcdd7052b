import CFormdStrings
import FormdBytes

/// Writes JSON pieces straight into memory the caller has reserved: no capacity or
/// uniqueness check per piece, so a message whose size is bounded up front (see
/// `JSONWriter.write(upTo:_:)`) costs one check in all. Every `JSONWriter` method that
/// writes a string or an integer goes through here, so there is one implementation of
/// quoting and of decimal digits.
///
/// Quoting escapes `"` and `\` (grammar) and U+0000..U+001F (RFC 8259 forbids them raw),
/// with the short forms `\b \f \n \r \t` where they exist and lowercase `\u00xx` otherwise.
/// Not escaped: `/`, DEL, U+2028/U+2029 and all other non-ASCII, written as raw UTF-8; the
/// output is read by JSON parsers, not embedded in JavaScript source.
///
/// A cursor knows the end of its reservation: in a debug build every write checks that it
/// stays within it (`claim`), so a reservation sized too small stops the test that makes
/// it, where it is written, instead of being caught only after the write (`commit`).
public struct JSONCursor {
    @usableFromInline var p: UnsafeMutablePointer<UInt8>
    #if DEBUG
    @usableFromInline let end: UnsafeMutablePointer<UInt8>
    #endif

    @inlinable
    init(_ p: UnsafeMutablePointer<UInt8>, room: Int) {
        self.p = p
        #if DEBUG
        end = p + room
        #endif
    }

    /// Checks, in a debug build, that the next `n` bytes are within the reservation.
    @inline(__always) @inlinable
    func claim(_ n: Int) {
        #if DEBUG
        precondition(n <= end - p, "JSONCursor: a write of \(n) bytes with \(end - p) left of its reservation")
        #endif
    }

    /// Room for these literals, written through a cursor: a reservation is the sum of its
    /// literals' room and its values' bounds, so it follows the literals when they change.
    @inline(__always) @inlinable
    public static func room(_ a: StaticString, _ b: StaticString = "", _ c: StaticString = "", _ d: StaticString = "",
                            _ e: StaticString = "", _ f: StaticString = "") -> Int {
        a.utf8CodeUnitCount + b.utf8CodeUnitCount + c.utf8CodeUnitCount + d.utf8CodeUnitCount
            + e.utf8CodeUnitCount + f.utf8CodeUnitCount
    }

    /// Room a quoted `s` needs: every byte escaped as `\u00xx`, the quotes, and 16 bytes
    /// more, as a short string is stored whole as its two inline words (`string`).
    @inlinable
    public static func bound(_ s: String) -> Int { bound(utf8Count: s.utf8.count) }

    /// `bound` of a string of `n` UTF-8 bytes.
    @inlinable
    public static func bound(utf8Count n: Int) -> Int { 6 &* n &+ 18 }

    /// Bytes a decimal integer takes at most (20 digits of |Int.min| and a sign).
    public static let intBound = 21

    /// Constant text verbatim (no quoting, no escaping, no validation).
    @inline(__always) @inlinable
    public mutating func raw(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        claim(n)
        JSONCursor.copy(text.utf8Start, to: p, count: n)
        p += n
    }

    /// Copies `n` bytes. A literal chosen at run time (an event's name) is short: 4 to 16
    /// bytes are copied as two overlapping words, each read and written within the `n`
    /// bytes, where a call to `memcpy` costs more than the copy.
    @inline(__always) @inlinable
    static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count n: Int) {
        if n >= 8 && n <= 16 {
            let head = UnsafeRawPointer(source).loadUnaligned(as: UInt64.self)
            let tail = UnsafeRawPointer(source + (n &- 8)).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(target).storeBytes(of: head, as: UInt64.self)
            UnsafeMutableRawPointer(target + (n &- 8)).storeBytes(of: tail, as: UInt64.self)
        } else if n >= 4 && n < 8 {
            let head = UnsafeRawPointer(source).loadUnaligned(as: UInt32.self)
            let tail = UnsafeRawPointer(source + (n &- 4)).loadUnaligned(as: UInt32.self)
            UnsafeMutableRawPointer(target).storeBytes(of: head, as: UInt32.self)
            UnsafeMutableRawPointer(target + (n &- 4)).storeBytes(of: tail, as: UInt32.self)
        } else {
            target.initialize(from: source, count: n)
        }
    }

    /// `v` in decimal. Below 10^8 (every count, position and `seq` an event carries) the
    /// digits are made side by side in one word (`eightDigits`) and stored whole; beyond,
    /// two digits per division.
    @inline(__always) @inlinable
    public mutating func int(_ v: Int) {
        claim(JSONCursor.intBound)
        if UInt(bitPattern: v) < 10 {
            p.initialize(to: UInt8(truncatingIfNeeded: v) &+ UInt8(ascii: "0"))
            p += 1
            return
        }
        guard UInt(bitPattern: v) < 100_000_000 else { return longInt(v) }
        let (digits, count) = JSONCursor.eightDigits(UInt64(truncatingIfNeeded: v))
        UnsafeMutableRawPointer(p).storeBytes(of: digits.littleEndian, as: UInt64.self)
        p += count
    }

    /// The decimal digits of `x` < 10^8 as ASCII bytes in one word, the first digit in the
    /// lowest byte and zero bytes after the last, and how many there are. The number is
    /// split into two halves of four digits, each half into two pairs, each pair into two
    /// digits, every split done in all lanes of the word by one multiplication (the
    /// quotients by 100 and 10 as a multiply and a shift, exact for these ranges).
    @inline(__always) @inlinable
    static func eightDigits(_ x: UInt64) -> (digits: UInt64, count: Int) {
        let high = x / 10_000
        var lanes = high | (x &- high &* 10_000) &<< 32                       // 2 x 4 digits, in 32-bit lanes
        let hundreds = ((lanes &* 10_486) &>> 20) & 0x0000_007F_0000_007F
        lanes = hundreds | (lanes &- hundreds &* 100) &<< 16                  // 4 x 2 digits, in 16-bit lanes
        let tens = ((lanes &* 103) &>> 10) & 0x000F_000F_000F_000F
        lanes = tens | (lanes &- tens &* 10) &<< 8                            // 8 digits, in bytes
        // Leading zeros are the low zero bytes; the last digit is kept (x == 0 writes "0").
        let leading = (lanes | 1 &<< 56).trailingZeroBitCount &>> 3
        return ((lanes &+ 0x3030_3030_3030_3030) &>> UInt64(8 &* leading), 8 &- leading)
    }

    /// `int` beyond 10^8 and below zero: two digits per division from a table of the pairs
    /// 00...99, written from the last digit back straight into place once the count is known.
    @usableFromInline
    mutating func longInt(_ v: Int) {
        var magnitude = v.magnitude
        if v < 0 {
            p.initialize(to: UInt8(ascii: "-"))
            p += 1
        }
        let count = JSONCursor.digitCount(magnitude)
        let pairs = JSONCursor.digitPairs.utf8Start
        var i = count
        while magnitude >= 100 {
            let (q, r) = magnitude.quotientAndRemainder(dividingBy: 100)
            i &-= 2
            p[i] = pairs[Int(r) &* 2]
            p[i &+ 1] = pairs[Int(r) &* 2 &+ 1]
            magnitude = q
        }
        if magnitude >= 10 {
            p[0] = pairs[Int(magnitude) &* 2]
            p[1] = pairs[Int(magnitude) &* 2 &+ 1]
        } else {
            p[0] = UInt8(truncatingIfNeeded: magnitude) &+ UInt8(ascii: "0")
        }
        p += count
    }

    /// Decimal digits of `x`: a few compares for the counts and positions events carry
    /// (a keystroke's `seq` has seven digits after a million commands), a loop beyond.
    @inlinable
    static func digitCount(_ x: UInt) -> Int {
        if x < 10_000 { return x < 100 ? (x < 10 ? 1 : 2) : (x < 1000 ? 3 : 4) }
        if x < 100_000_000 {
            return x < 1_000_000 ? (x < 100_000 ? 5 : 6) : (x < 10_000_000 ? 7 : 8)
        }
        var count = 9
        var limit: UInt = 1_000_000_000
        while count < 20 && x >= limit {
            count &+= 1
            limit = limit &* 10
        }
        return count
    }

    @usableFromInline
    static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// `s` quoted and escaped; needs `bound(s)` bytes of room.
    @inline(__always) @inlinable
    public mutating func string(_ s: String) {
        // Most strings written are short ids and texts, held inline (`ShortUTF8`): written
        // straight from their two words. Reaching the bytes of an inline string the usual
        // way copies them out first.
        if let words = ShortUTF8.inlineWords(of: s), quoteInline(words) { return }
        quoteStored(s)
    }

    /// `string` of a string not held inline, or needing escapes.
    @usableFromInline
    mutating func quoteStored(_ s: String) {
        // Native strings (always, on Linux) expose their UTF-8 in place: no copy, no retain.
        if s.utf8.withContiguousStorageIfAvailable({ quote($0) }) == nil {
            var copy = s
            copy.withUTF8 { quote($0) }
        }
    }

    /// `s` quoted, or `null`; needs `bound(s ?? "")` bytes of room.
    @inline(__always) @inlinable
    public mutating func optionalString(_ s: String?) {
        if let s { string(s) } else { raw("null") }
    }

    /// Verbatim UTF-8 (a number literal, already valid JSON).
    @inlinable
    public mutating func verbatim(_ utf8: UnsafeBufferPointer<UInt8>) {
        claim(utf8.count)
        if let base = utf8.baseAddress { p.initialize(from: base, count: utf8.count) }
        p += utf8.count
    }

    /// A string held inline quoted from its two words, when none of its bytes needs
    /// escaping; false, writing nothing, otherwise. Stores both words whole (`bound`). The
    /// bytes past its count are zero, which the escape test flags as control characters:
    /// the string is clean when its first flagged byte is at or past the count. Bytes of
    /// non-ASCII characters are never flagged, so those strings take this path too.
    @inline(__always) @inlinable
    mutating func quoteInline(_ words: (UInt64, UInt64)) -> Bool {
        let count = ShortASCII.count(words)
        let clean = SWAR.escapeMask(words.0).trailingZeroBitCount &>> 3
        // Most ids and typed texts fit the first word: the second is not looked at.
        if count <= 8 {
            guard clean >= count else { return false }
        } else {
            guard clean == 8, SWAR.escapeMask(words.1).trailingZeroBitCount &>> 3 >= count &- 8 else { return false }
        }
        claim(max(17, count &+ 2))
        p.initialize(to: UInt8(ascii: "\""))
        UnsafeMutableRawPointer(p + 1).storeBytes(of: words.0.littleEndian, as: UInt64.self)
        UnsafeMutableRawPointer(p + 9).storeBytes(of: words.1.littleEndian, as: UInt64.self)
        p += count &+ 1
        p.initialize(to: UInt8(ascii: "\""))
        p += 1
        return true
    }

    /// A number literal's text (already valid JSON) verbatim; needs its length and 16
    /// bytes more of room (a short one is stored as its two inline words).
    @inlinable
    public mutating func number(_ literal: String) {
        if let words = ShortASCII.words(of: literal) {
            claim(16)
            UnsafeMutableRawPointer(p).storeBytes(of: words.0.littleEndian, as: UInt64.self)
            UnsafeMutableRawPointer(p + 8).storeBytes(of: words.1.littleEndian, as: UInt64.self)
            p += ShortASCII.count(words)
        } else {
            verbatim(literal)
        }
    }

    /// A string's UTF-8 verbatim (a number literal's text, already valid JSON).
    @inlinable
    public mutating func verbatim(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ verbatim($0) }) == nil {
            var copy = s
            copy.withUTF8 { verbatim($0) }
        }
    }

    /// Texts are mostly escape-free: the bytes are copied as they are checked, a word at a
    /// time (`SWAR.escapeMask`), up to the first byte needing work, so a clean string is
    /// read once; only a string that really contains escapes takes the run-by-run path
    /// from there. Swift strings are always valid UTF-8, so nothing needs validating on
    /// this side.
    @usableFromInline
    mutating func quote(_ utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        claim(count &+ 2)
        p.initialize(to: UInt8(ascii: "\""))
        p += 1
        if let base = utf8.baseAddress, count > 0 {
            let clean = JSONCursor.copyClean(base, count: count, to: p)
            p += clean
            if clean < count { escapeTail(utf8, from: clean) }
        }
        p.initialize(to: UInt8(ascii: "\""))
        p += 1
    }

    /// Copies `count` > 0 bytes from `source` to `target` as far as none needs escaping, and
    /// returns how far that is. It may copy further, within `count`: words are stored
    /// before they are checked, and the escaping writes over the rest. Sixteen bytes at a
    /// time where the processor compares them so (`formd_copy_clean16`), else a word.
    @inline(__always) @usableFromInline
    static func copyClean(_ source: UnsafePointer<UInt8>, count: Int, to target: UnsafeMutablePointer<UInt8>) -> Int {
        guard count >= 8 else {
            var clean = 0
            while clean < count && !needsEscape(source[clean]) {
                target[clean] = source[clean]
                clean &+= 1
            }
            return clean
        }
        #if arch(x86_64)
        if count >= 16 { return formd_copy_clean16(source, count, target) }
        #endif
        var i = 0
        // Two words a turn: one test of both masks.
        while count &- i >= 16 {
            let first = SWAR.load(source + i), second = SWAR.load(source + (i &+ 8))
            UnsafeMutableRawPointer(target + i).storeBytes(of: first.littleEndian, as: UInt64.self)
            UnsafeMutableRawPointer(target + (i &+ 8)).storeBytes(of: second.littleEndian, as: UInt64.self)
            let firstMask = SWAR.escapeMask(first), secondMask = SWAR.escapeMask(second)
            if firstMask | secondMask != 0 {
                return i &+ (firstMask != 0 ? SWAR.firstFlaggedByte(firstMask) : 8 &+ SWAR.firstFlaggedByte(secondMask))
            }
            i &+= 16
        }
        if count &- i > 8 {
            let word = SWAR.load(source + i)
            UnsafeMutableRawPointer(target + i).storeBytes(of: word.littleEndian, as: UInt64.self)
            let mask = SWAR.escapeMask(word)
            if mask != 0 { return i &+ SWAR.firstFlaggedByte(mask) }
        }
        // The last word ends with the string, overlapping bytes already found clean.
        if i < count {
            let last = count &- 8, word = SWAR.load(source + last)
            UnsafeMutableRawPointer(target + last).storeBytes(of: word.littleEndian, as: UInt64.self)
            let mask = SWAR.escapeMask(word)
            if mask != 0 { return last &+ SWAR.firstFlaggedByte(mask) }
        }
        return count
    }

    @inline(__always) @usableFromInline
    static func needsEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\")
    }

    /// From the first byte needing an escape: copy clean runs in bulk, escape the rest.
    @usableFromInline
    mutating func escapeTail(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int) {
        let count = utf8.count
        let base = utf8.baseAddress!
        var runStart = start
        var i = start
        while i < count {
            if i &+ 8 <= count {
                let mask = SWAR.escapeMask(SWAR.load(base + i))
                if mask == 0 {
                    i &+= 8
                    continue
                }
                i &+= SWAR.firstFlaggedByte(mask)
            }
            let b = utf8[i]
            if !Self.needsEscape(b) {
                i &+= 1
                continue
            }
            claim(i &- runStart)
            p.initialize(from: base + runStart, count: i &- runStart)
            p += i &- runStart
            escape(b)
            i &+= 1
            runStart = i
        }
        claim(count &- runStart &+ 1)  // and the closing quote
        p.initialize(from: base + runStart, count: count &- runStart)
        p += count &- runStart
    }

    @usableFromInline
    mutating func escape(_ b: UInt8) {
        claim(6)
        p[0] = UInt8(ascii: "\\")
        let short: UInt8
        switch b {
        case UInt8(ascii: "\""): short = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): short = UInt8(ascii: "\\")
        case 0x08: short = UInt8(ascii: "b")
        case 0x09: short = UInt8(ascii: "t")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x0D: short = UInt8(ascii: "r")
        default:
            let hex = JSONCursor.hexDigits.utf8Start
            p[1] = UInt8(ascii: "u")
            p[2] = UInt8(ascii: "0")
            p[3] = UInt8(ascii: "0")
            p[4] = hex[Int(b >> 4)]
            p[5] = hex[Int(b & 0x0F)]
            p += 6
            return
        }
        p[1] = short
        p += 2
    }

    @usableFromInline
    static let hexDigits: StaticString = "0123456789abcdef"
}
