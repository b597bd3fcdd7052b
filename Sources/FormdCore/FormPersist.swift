/// What `--state` reads to save a form: the parts of its state that have no public
/// getter elsewhere. Everything else it saves (specs, texts, selections, demands, the
/// visited and touched flags) is already public on `Form` and `Field`.
extension Form {
    /// The presets this form's fields resolve against: the built-ins plus the form's own.
    public var presetLibrary: PresetLibrary { presets }

    /// The field whose `become` demand is pending, if any.
    public var pendingBecomeID: String? { pendingBecome.map { fields[$0].id } }
}

extension Field {
    /// Byte offsets (UTF-8) of the selection's fixed end and moving end: positions that
    /// do not depend on a Unicode version's idea of where characters end.
    public var selectionUTF8: (anchor: Int, head: Int) {
        (buffer.utf8Offset(buffer.anchor.index), buffer.utf8Offset(buffer.head.index))
    }
}
