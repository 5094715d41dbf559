/// How much a run's document holds.
public enum Verbosity: String, Sendable, CaseIterable {
    /// TLS messages and the outcome only.
    case summary
    /// Plus TCP segments, explanations, derived values and the knowledge panel.
    case normal
    /// Plus the annotated bytes of every handshake message.
    case bytes
}

/// How ladder rows are laid out: for print, or for the interactive walkthrough, whose sticky
/// column header carries the time unit, whose rails narrow with the screen, whose rows name no
/// parties in words (the arrow and the header do) and whose detail lines carry no rails (the
/// walkthrough wraps them to the screen itself).
public enum LadderStyle: Sendable, Hashable { case printed, walkthrough }
