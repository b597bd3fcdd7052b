/// How far one `delete` reaches when nothing is selected.
public enum TextUnit: String, Sendable, CaseIterable {
    case character, word, line
}

/// Which side of the caret `delete` removes. Backward is Backspace, forward is Delete.
public enum DeleteDirection: String, Sendable, CaseIterable {
    case backward, forward
}

/// Where `moveCaret` moves the caret (or, extending, the selection's moving end).
public enum CaretTarget: String, Sendable, CaseIterable {
    case start, end, left, right, wordLeft, wordRight
}
