import Foundation
import Speech

/// A one-line progress bar on standard error, redrawn in place with `\r`:
/// `label [##########..........]  50%`.
///
/// It draws only when standard error is a terminal; otherwise it stays
/// silent so logs and pipes get no control characters. Safe to update from
/// any thread (the engine reports progress from its worker).
final class ProgressBar: Sendable {
    /// Characters between the brackets.
    static let width = 30

    private let console: Console
    private let label: String
    private let enabled: Bool
    /// The last percentage and note drawn, so repeated updates do not redraw.
    private let lastDrawn = LockedState((percent: -1, note: ""))

    /// Creates a bar; `enabled` defaults to whether stderr is a terminal.
    init(label: String, console: Console, enabled: Bool? = nil) {
        self.label = label
        self.console = console
        self.enabled = enabled ?? console.errorIsTerminal
    }

    /// Draws `fraction` (clamped to [0, 1]) and an optional note after the
    /// percentage (e.g. the current step).
    func update(_ fraction: Double, note: String = "") {
        guard enabled else { return }
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        let percent = Int((clamped * 100).rounded(.down))
        let changed = lastDrawn.withLock { last in
            defer { last = (percent, note) }
            return last.percent != percent || last.note != note
        }
        if changed {
            let text = Self.render(label: label, fraction: clamped) + (note.isEmpty ? "" : "  \(note)")
            // "\r" returns to the line start; ESC [K erases what a longer line left.
            console.writeError("\r" + text + "\u{1B}[K")
        }
    }

    /// Completes the line (100 %, then a newline).
    func finish() {
        guard enabled else { return }
        let note = lastDrawn.withLock { $0.note }
        update(1, note: note)
        console.writeError("\n")
    }

    /// The bar's text for `fraction` in [0, 1].
    static func render(label: String, fraction: Double) -> String {
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = String(format: "%3d%%", Int((fraction * 100).rounded(.down)))
        return "\(label) [\(bar)] \(percent)"
    }
}
