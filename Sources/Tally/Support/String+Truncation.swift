extension String {
    /// The longest prefix of whole characters whose total size, as `size` measures each character, is at
    /// most `limit`. The input limits measure UTF-8 bytes; vendor limits measure UTF-16 code units.
    package func prefix(wholeCharactersWithin limit: Int, size: (Character) -> Int) -> String {
        var total = 0
        var end = startIndex
        for character in self {
            let width = size(character)
            if total + width > limit { break }
            total += width
            end = index(end, offsetBy: 1)
        }
        return String(self[..<end])
    }
}
