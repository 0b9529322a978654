// Our names that contain a standard substitution's letters (`Sch` is TaskExecutor, iOS 18) are not it.
struct SchemaNumber {
    var value: Int
}

func parse(_ text: String) -> SchemaNumber? {
    Int(text).map { SchemaNumber(value: $0) }
}
