/// Named partial specs that fields list in `configuration`, applied in order.
///
/// The built-ins follow ResponsiveTextField's example configurations; a form file or
/// `defineForm` may add its own or replace a built-in by using its name.
public struct PresetLibrary: Equatable, Sendable {
    public private(set) var presets: [String: FieldOptions]

    public static let builtIn = PresetLibrary(presets: [
        "email": {
            var o = FieldOptions()
            o.hints = ["keyboardType": #""emailAddress""#, "textContentType": #""emailAddress""#,
                       "autocapitalization": #""none""#, "autocorrection": #""no""#]
            return o
        }(),
        "password": {
            var o = FieldOptions()
            o.secure = true
            o.hints = ["textContentType": #""password""#, "autocapitalization": #""none""#, "autocorrection": #""no""#]
            return o
        }(),
        "partOfChain": {
            var o = FieldOptions()
            o.returnAction = .next
            o.hints = ["returnKeyType": #""next""#]
            return o
        }(),
        "lastOfChain": {
            var o = FieldOptions()
            o.returnAction = .resign
            o.hints = ["returnKeyType": #""done""#]
            return o
        }(),
        "autoclears": {
            var o = FieldOptions()
            o.clearsOnBeginEditing = true
            return o
        }(),
    ])

    /// The built-ins plus `custom`; a custom preset with a built-in's name replaces it.
    public func adding(_ custom: [String: FieldOptions]) -> PresetLibrary {
        PresetLibrary(presets: presets.merging(custom) { _, new in new })
    }

    /// The presets named by `configuration`, combined in order, then `own` on top.
    public func resolve(configuration: [String], own: FieldOptions) throws(FormError) -> FieldOptions {
        var combined = FieldOptions()
        for name in configuration {
            guard let preset = presets[name] else {
                let known = presets.keys.sorted().joined(separator: ", ")
                throw .invalidParams("unknown preset \(quoted(name)) in configuration; known presets: \(known)")
            }
            combined = combined.overlaid(with: preset)
        }
        return combined.overlaid(with: own)
    }
}
