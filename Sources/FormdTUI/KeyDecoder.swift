/// A key press (or a paste) as read from a terminal in raw mode.
enum Key: Equatable {
    /// Printable text typed, one grapheme cluster or more (a fast typist or a terminal
    /// without bracketed paste delivers several at once).
    case text(String)
    /// Text between bracketed-paste markers (`ESC [200~` … `ESC [201~`).
    case paste(String)
    case enter, tab, backTab, escape
    case backspace, delete
    /// Alt-Backspace, Ctrl-W: delete the word before the caret; Alt-D, Ctrl-Delete: after it.
    case deleteWordBackward, deleteWordForward
    /// Ctrl-K: delete from the caret to the end.
    case deleteToEnd
    case left(extend: Bool), right(extend: Bool)
    case wordLeft(extend: Bool), wordRight(extend: Bool)
    case home(extend: Bool), end(extend: Bool)
    case up, down
    /// Ctrl-_ (readline's undo; also sent by Ctrl-/ and Ctrl-7 in many terminals).
    case undo
    /// Alt-_ or Ctrl-Alt-_ (Emacs's undo-redo is C-M-_).
    case redo
    /// Ctrl-Z: stop, as job control does (raw mode turns the terminal's own Ctrl-Z off).
    case suspend
    /// A control character not covered above (Ctrl-A is 0x01 … Ctrl-Z is 0x1A).
    case control(UInt8)
    /// A sequence the front end has no use for (function keys, Alt-letters, …).
    case unknown
}

/// Turns the bytes a terminal sends into keys: UTF-8 text, control characters, CSI and
/// SS3 escape sequences (xterm, VT220, rxvt and Linux console variants of the arrows,
/// Home/End, Delete, Shift-Tab, with modifiers), Alt-prefixed keys and bracketed paste.
///
/// Input arrives in arbitrary chunks, so an incomplete tail (half a UTF-8 sequence, an
/// escape sequence cut short, an unfinished paste) is kept for the next `feed`. A lone
/// ESC is ambiguous — the Escape key, or the start of a sequence still in flight — so the
/// caller waits briefly for more bytes and then calls `flush`, which reads it as Escape.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// True when what is held back starts with ESC but is not a paste: the caller waits a
    /// little for the rest, then flushes. (An unfinished paste is waited for to its end.)
    var wantsFlush: Bool {
        pending.first == 0x1B && !pending.starts(with: KeyDecoder.pasteStart)
    }

    private static let pasteStart: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E]

    /// Appends bytes and returns the keys they complete.
    mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        return decode(final: false)
    }

    /// Decodes what is held back as it stands: a lone ESC is the Escape key.
    mutating func flush() -> [Key] {
        decode(final: true)
    }

    private mutating func decode(final: Bool) -> [Key] {
        var keys: [Key] = []
        var i = 0
        let b = pending
        var textStart: Int? = nil
        func endText(_ at: Int) {
            if let s = textStart {
                keys.append(.text(String(decoding: b[s..<at], as: UTF8.self)))
                textStart = nil
            }
        }
        decoding: while i < b.count {
            let c = b[i]
            if c >= 0x20 && c != 0x7F {
                // Printable text: gather whole UTF-8 sequences.
                let need = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
                if i + need > b.count && !final { break decoding }
                if textStart == nil { textStart = i }
                i = min(i + need, b.count)
                continue
            }
            endText(i)
            if c == 0x1B {
                switch escapeSequence(b, at: i, final: final) {
                case .incomplete:
                    break decoding
                case .key(let key, let length):
                    keys.append(key)
                    i += length
                }
                continue
            }
            keys.append(controlKey(c))
            i += 1
        }
        endText(i)
        pending = Array(b[i...])
        return keys
    }

    private func controlKey(_ c: UInt8) -> Key {
        switch c {
        case 0x0D, 0x0A: .enter
        case 0x09: .tab
        case 0x7F, 0x08: .backspace
        case 0x17: .deleteWordBackward
        case 0x0B: .deleteToEnd
        case 0x01: .home(extend: false)
        case 0x05: .end(extend: false)
        case 0x02: .left(extend: false)
        case 0x06: .right(extend: false)
        case 0x04: .delete
        case 0x0E: .down
        case 0x10: .up
        case 0x1F: .undo
        case 0x1A: .suspend
        default: .control(c)
        }
    }

    private enum Escape {
        case incomplete
        case key(Key, length: Int)
    }

    /// Decodes the sequence starting with ESC at `i`.
    private func escapeSequence(_ b: [UInt8], at i: Int, final: Bool) -> Escape {
        guard i + 1 < b.count else { return final ? .key(.escape, length: 1) : .incomplete }
        let next = b[i + 1]
        switch next {
        case UInt8(ascii: "["):
            return csi(b, at: i, final: final)
        case UInt8(ascii: "O"):
            guard i + 2 < b.count else { return final ? .key(.unknown, length: 2) : .incomplete }
            let key: Key = switch b[i + 2] {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right(extend: false)
            case UInt8(ascii: "D"): .left(extend: false)
            case UInt8(ascii: "H"): .home(extend: false)
            case UInt8(ascii: "F"): .end(extend: false)
            case UInt8(ascii: "M"): .enter
            default: .unknown
            }
            return .key(key, length: 3)
        case 0x7F, 0x08:
            return .key(.deleteWordBackward, length: 2)
        case UInt8(ascii: "b"): return .key(.wordLeft(extend: false), length: 2)
        case UInt8(ascii: "f"): return .key(.wordRight(extend: false), length: 2)
        case UInt8(ascii: "B"): return .key(.wordLeft(extend: true), length: 2)
        case UInt8(ascii: "F"): return .key(.wordRight(extend: true), length: 2)
        case UInt8(ascii: "d"): return .key(.deleteWordForward, length: 2)
        case UInt8(ascii: "_"), 0x1F: return .key(.redo, length: 2)
        case 0x1B:
            // ESC ESC: a double Escape, or Alt plus a sequence; read the first as Escape.
            return .key(.escape, length: 1)
        default:
            if next >= 0x80 {
                // Alt with a non-ASCII character: skip the whole UTF-8 sequence.
                let need = next >= 0xF0 ? 4 : next >= 0xE0 ? 3 : next >= 0xC0 ? 2 : 1
                if i + 1 + need > b.count && !final { return .incomplete }
                return .key(.unknown, length: min(1 + need, b.count - i))
            }
            return .key(.unknown, length: 2)
        }
    }

    /// `ESC [ params intermediates final`, and bracketed paste.
    private func csi(_ b: [UInt8], at i: Int, final: Bool) -> Escape {
        var j = i + 2
        while j < b.count, (0x30...0x3F).contains(b[j]) { j += 1 }
        let paramsEnd = j
        while j < b.count, (0x20...0x2F).contains(b[j]) { j += 1 }
        guard j < b.count else { return final ? .key(.unknown, length: b.count - i) : .incomplete }
        let finalByte = b[j]
        guard (0x40...0x7E).contains(finalByte) else {
            // Not a well-formed sequence: drop ESC [ and go on.
            return .key(.unknown, length: 2)
        }
        let params = String(decoding: b[(i + 2)..<paramsEnd], as: UTF8.self)
            .split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        let length = j + 1 - i
        let modifier = params.count > 1 ? params[1] : 1
        // xterm modifier parameter: 1 + (shift 1, alt 2, ctrl 4).
        let shift = modifier > 1 && (modifier - 1) & 1 != 0
        let word = modifier > 1 && (modifier - 1) & 6 != 0
        switch finalByte {
        case UInt8(ascii: "A"): return .key(.up, length: length)
        case UInt8(ascii: "B"): return .key(.down, length: length)
        case UInt8(ascii: "C"):
            return .key(word ? .wordRight(extend: shift) : .right(extend: shift), length: length)
        case UInt8(ascii: "D"):
            return .key(word ? .wordLeft(extend: shift) : .left(extend: shift), length: length)
        case UInt8(ascii: "H"): return .key(.home(extend: shift), length: length)
        case UInt8(ascii: "F"): return .key(.end(extend: shift), length: length)
        case UInt8(ascii: "Z"): return .key(.backTab, length: length)
        case UInt8(ascii: "~"):
            switch params.first ?? 0 {
            case 1, 7: return .key(.home(extend: shift), length: length)
            case 4, 8: return .key(.end(extend: shift), length: length)
            case 3: return .key(word ? .deleteWordForward : .delete, length: length)
            case 200: return paste(b, contentFrom: i + length, sequenceStart: i, final: final)
            default: return .key(.unknown, length: length)
            }
        default:
            return .key(.unknown, length: length)
        }
    }

    /// The text up to `ESC [201~`; waits for the end marker unless `final`.
    private func paste(_ b: [UInt8], contentFrom start: Int, sequenceStart: Int, final: Bool) -> Escape {
        let marker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
        var k = start
        while k + marker.count <= b.count {
            if b[k] == 0x1B && Array(b[k..<(k + marker.count)]) == marker {
                let text = String(decoding: b[start..<k], as: UTF8.self)
                return .key(.paste(text), length: k + marker.count - sequenceStart)
            }
            k += 1
        }
        if final { return .key(.paste(String(decoding: b[start...], as: UTF8.self)), length: b.count - sequenceStart) }
        return .incomplete
    }
}
