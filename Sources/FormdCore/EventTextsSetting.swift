/// Whether a form's `textChanged` events carry their field's text (`FormEngine.setEventTexts`).
/// A setting of delivery, not part of the form's value: forms that differ only in it are
/// equal, so a request that fails after the server switched it has changed nothing.
struct EventTextsSetting: Equatable, Sendable {
    var on: Bool

    init(_ on: Bool) { self.on = on }

    static func == (_: EventTextsSetting, _: EventTextsSetting) -> Bool { true }
}
