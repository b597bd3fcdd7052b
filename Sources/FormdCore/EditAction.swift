/// The standard edit menu, as ResponsiveTextField lets a field customise it.
public enum EditAction: String, Sendable, CaseIterable {
    case cut, copy, paste, selectAll, delete
}
