// With Foundation imported, `contains` is Foundation's, available everywhere we ship.
import Foundation

func hasPart(_ text: String, _ part: String) -> Bool {
    text.contains(part)
}
