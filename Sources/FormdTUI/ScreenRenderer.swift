/// Draws a `FormView` as ANSI text for a terminal of a given size: every field's label,
/// its text (or dimmed placeholder, or mask), the errors of touched invalid fields, a
/// notice for a refused edit and a one-line key help; then puts the terminal's cursor on
/// the caret of the first responder.
///
/// Layout, one block per field:
///
///     Email                         label (bold when focused; dimmed + "(disabled)")
///   › ada@example.com               the text; `›` marks the first responder
///     ✗ Use at least 8 characters.  one line per error (its message), when shown
///                                   a blank line
///
/// Columns are counted with `DisplayWidth`, so wide characters take two cells and
/// combining marks none. A text wider than the field scrolls to keep the caret visible;
/// a form taller than the screen scrolls to keep the first responder visible, its label
/// first. A terminal too small for the first responder's label and text, the notice row
/// and the help shows only "terminal too small: needs at least W×H", never part of a form.
struct ScreenRenderer {
    var title: String?
    /// First visible character of each field's text (horizontal scroll).
    private var offsets: [String: Int] = [:]
    /// First visible line of the form (vertical scroll).
    private var top = 0

    init(title: String?) { self.title = title }

    private enum Style {
        static let reset = "\u{1b}[0m"
        static let bold = "\u{1b}[1m"
        static let dim = "\u{1b}[2m"
        static let italic = "\u{1b}[3m"
        static let reverse = "\u{1b}[7m"
        static let red = "\u{1b}[31m"
        static let yellow = "\u{1b}[33m"
        static let cyan = "\u{1b}[36m"
    }

    /// Column where texts start (after ` › `), 0-based.
    static let indent = 3

    /// One screen line being built: styled text and its width so far.
    private struct Line {
        var text = ""
        var width = 0
        let limit: Int

        init(limit: Int) { self.limit = limit }

        /// Appends `s` in `style`, cut at the line's limit (never halfway through a wide
        /// character).
        mutating func add(_ s: String, _ style: String = "") {
            var piece = ""
            for c in s {
                let (shown, w) = ScreenRenderer.visible(c)
                if width + w > limit { break }
                piece += shown
                width += w
            }
            if piece.isEmpty { return }
            text += style.isEmpty ? piece : style + piece + Style.reset
        }

        mutating func pad(to column: Int) {
            if column > width { add(String(repeating: " ", count: column - width)) }
        }
    }

    /// A character as drawn, and its width: control characters become `?`.
    static func visible(_ c: Character) -> (String, Int) {
        if let v = c.unicodeScalars.first?.value, v < 0x20 || (v >= 0x7F && v < 0xA0) { return ("?", 1) }
        return (String(c), DisplayWidth.of(c))
    }

    /// The least terminal the form can be drawn on.
    struct Size {
        var columns: Int
        var rows: Int

        func fits(rows: Int, columns: Int) -> Bool { rows >= self.rows && columns >= self.columns }
    }

    /// What the form needs: the title, the first responder's label and text (the ` › ` and
    /// room for a wide character and the caret), the notice row and the help with at least
    /// "Esc cancel".
    func neededSize(_ view: FormView) -> Size {
        var columns = 1 + DisplayWidth.of("Esc cancel")
        if let f = view.focused {
            columns = max(columns, 1 + DisplayWidth.of(f.label ?? f.id), Self.indent + 4)
        }
        return Size(columns: columns, rows: (title == nil ? 1 : 2) + 2 + 2)
    }

    /// The whole frame: lines drawn over the previous frame, the rest cleared, the cursor
    /// on the caret (or hidden when no field has focus).
    mutating func render(_ view: FormView, rows: Int, columns: Int) -> [UInt8] {
        let needed = neededSize(view)
        guard needed.fits(rows: rows, columns: columns) else { return Self.tooSmall(needed, rows: rows, columns: columns) }
        var lines: [Line] = []
        var caret: (line: Int, column: Int)? = nil
        var focusedLines: Range<Int>? = nil

        for f in view.fields {
            let isFocused = f.id == view.firstResponder
            let first = lines.count
            // Label.
            var label = Line(limit: columns)
            label.add(" ")
            let name = f.label ?? f.id
            if !f.enabled {
                label.add(name + " (disabled)", Style.dim)
            } else if isFocused {
                label.add(name, Style.bold + Style.cyan)
            } else {
                label.add(name, Style.bold)
            }
            lines.append(label)
            // Text.
            var input = Line(limit: columns)
            input.add(isFocused ? " › " : "   ", isFocused ? Style.bold + Style.cyan : "")
            let column = drawText(f, focused: isFocused, into: &input, width: columns - Self.indent - 1)
            if isFocused { caret = (lines.count, column) }
            lines.append(input)
            // Errors.
            if view.showsErrors(f) {
                for e in f.errors {
                    var line = Line(limit: columns)
                    line.add("   ")
                    line.add("✗ " + e, Style.red)
                    lines.append(line)
                }
            }
            lines.append(Line(limit: columns))
            if isFocused { focusedLines = first..<lines.count }
        }

        // Vertical scroll: the title, then the body; the last two rows are the notice and
        // the help.
        let head = title == nil ? 1 : 2
        let bodyRows = max(rows - head - 2, 1)
        if let r = focusedLines {
            // The whole block if it fits; its label in any case.
            if r.upperBound - 1 >= top + bodyRows { top = r.upperBound - bodyRows }
            if r.lowerBound < top { top = r.lowerBound }
        }
        top = max(0, min(top, max(lines.count - bodyRows, 0)))

        var out = "\u{1b}[?25l"
        func put(_ row: Int, _ line: Line) {
            out += "\u{1b}[\(row);1H" + line.text + Style.reset + "\u{1b}[K"
        }
        var titleLine = Line(limit: columns)
        if let title { titleLine.add(" " + title, Style.bold) }
        put(1, titleLine)
        if head == 2 { put(2, Line(limit: columns)) }
        for r in 0..<bodyRows {
            let i = top + r
            put(head + 1 + r, i < lines.count ? lines[i] : Line(limit: columns))
        }
        var notice = Line(limit: columns)
        if let n = view.notice { notice.add(" " + n, Style.yellow) }
        put(rows - 1, notice)
        put(rows, help(view, columns: columns))

        if let caret, caret.line >= top, caret.line < top + bodyRows {
            out += "\u{1b}[\(head + 1 + caret.line - top);\(caret.column + 1)H\u{1b}[?25h"
        }
        return Array(out.utf8)
    }

    /// The frame for a terminal smaller than `needed`: the message, word-wrapped, in the
    /// longest wording that fits, and nothing of the form.
    static func tooSmall(_ needed: Size, rows: Int, columns: Int) -> [UInt8] {
        let size = "\(needed.columns)×\(needed.rows)"
        let wordings = ["terminal too small: needs at least \(size)", "too small: needs \(size)", "needs \(size)", size]
        var shown: [String] = []
        for wording in wordings {
            if let lines = wrap(wording, columns: columns), lines.count <= rows {
                shown = lines
                break
            }
        }
        var out = "\u{1b}[?25l"
        for row in 1...max(rows, 1) {
            let text = row <= shown.count ? shown[row - 1] : ""
            out += "\u{1b}[\(row);1H" + (text.isEmpty ? "" : Style.yellow + text + Style.reset) + "\u{1b}[K"
        }
        return Array(out.utf8)
    }

    /// `text` broken at spaces into lines of at most `columns`; nil if a word is longer.
    static func wrap(_ text: String, columns: Int) -> [String]? {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let w = DisplayWidth.of(String(word))
            if w > columns { return nil }
            if line.isEmpty {
                line = String(word)
            } else if DisplayWidth.of(line) + 1 + w <= columns {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Draws a field's text (or placeholder) into `line` from column `indent`, at most
    /// `width` columns; returns the caret's column (0-based) for a focused field.
    private mutating func drawText(_ f: FieldView, focused: Bool, into line: inout Line, width: Int) -> Int {
        let start = line.width
        let chars = Array(f.display)
        if chars.isEmpty {
            if let p = f.placeholder { line.add(p, Style.dim + Style.italic) }
            return start
        }
        let caret = min(max(f.caret, 0), chars.count)
        var offset = focused ? offsets[f.id] ?? 0 : 0
        if focused {
            let widths = chars.map { ScreenRenderer.visible($0).1 }
            offset = min(offset, caret)
            // Keep the caret inside the field…
            var before = widths[offset..<caret].reduce(0, +)
            while before >= width && offset < caret {
                before -= widths[offset]
                offset += 1
            }
            // …and use the room on the left when the text got shorter.
            var total = widths[offset...].reduce(0, +)
            while offset > 0 && total + widths[offset - 1] < width {
                offset -= 1
                total += widths[offset]
            }
            offsets[f.id] = offset
        }
        let selection = min(f.selectionStart, f.selectionEnd)..<max(f.selectionStart, f.selectionEnd)
        let style = f.enabled ? "" : Style.dim
        var caretColumn = start
        var i = offset
        while i < chars.count {
            let (shown, w) = ScreenRenderer.visible(chars[i])
            if line.width + w > start + width { break }
            if i == caret { caretColumn = line.width }
            line.add(shown, focused && selection.contains(i) ? Style.reverse : style)
            i += 1
        }
        if caret >= i { caretColumn = line.width }
        return caretColumn
    }

    /// The key help for the first responder, cut to fit.
    private func help(_ view: FormView, columns: Int) -> Line {
        var keys: [(String, String)] = []
        if let f = view.focused {
            keys.append(("Tab/S-Tab", "fields"))
            switch f.returnAction {
            case "next": keys.append(("Enter", "next"))
            case "resign": keys.append(("Enter", "done"))
            case "submit": keys.append(("Enter", "submit"))
            default: break
            }
            if f.secure { keys.append(("^R", f.revealed ? "hide" : "reveal")) }
            keys.append(("^U", "clear"))
            keys.append(("^W", "del word"))
        } else {
            keys.append(("Tab", "go to a field"))
            keys.append(("Enter", "submit"))
        }
        // Escape always shows; the others as long as they fit, in this order.
        let cancel = ("Esc", "cancel")
        var fitting: [(String, String)] = []
        var width = 1 + DisplayWidth.of("Esc cancel")
        for k in keys {
            let needed = 2 + DisplayWidth.of(k.0) + 1 + DisplayWidth.of(k.1)
            if width + needed > columns { break }
            width += needed
            fitting.append(k)
        }
        var line = Line(limit: columns)
        line.add(" ")
        for (i, (key, what)) in (fitting + [cancel]).enumerated() {
            if i > 0 { line.add("  ") }
            line.add(key, Style.bold)
            line.add(" " + what, Style.dim)
        }
        return line
    }
}
