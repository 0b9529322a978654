import Tally

/// The event every client benchmark tracks and the naive reference builds: five properties, one of each
/// common type (string, int, double, bool, string), as an app would track when an item is ordered.
public enum SampleEvent {
    /// The event's name.
    public static let name = "menu_item_ordered"

    /// Builds the event. `index` varies one property so the compiler cannot hoist the construction out of a
    /// benchmark's loop; the dictionary is built, and allocated, on every call, as in app code.
    @inlinable
    public static func menuItemOrdered(_ index: Int) -> Event {
        Event(
            "menu_item_ordered",
            [
                "item_name": "Pizza",
                "quantity": .int(index),
                "price": 9.5,
                "is_vegetarian": true,
                "category": "mains",
            ]
        )
    }
}
