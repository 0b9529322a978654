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
    /// The name of the wide event.
    public static let wideName = "menu_viewed"

    /// A track event with 50 properties (the five kinds of ``menuItemOrdered(_:)`` in turn), for the cost of
    /// wide events. Built from a literal, as app code would write it.
    @inlinable
    public static func wide(_ index: Int) -> Event {
        Event(
            "menu_viewed",
            [
                "property_00": "Pizza",
                "property_01": .int(index),
                "property_02": 9.5,
                "property_03": true,
                "property_04": "mains",
                "property_05": "Pizza",
                "property_06": .int(index),
                "property_07": 9.5,
                "property_08": true,
                "property_09": "mains",
                "property_10": "Pizza",
                "property_11": .int(index),
                "property_12": 9.5,
                "property_13": true,
                "property_14": "mains",
                "property_15": "Pizza",
                "property_16": .int(index),
                "property_17": 9.5,
                "property_18": true,
                "property_19": "mains",
                "property_20": "Pizza",
                "property_21": .int(index),
                "property_22": 9.5,
                "property_23": true,
                "property_24": "mains",
                "property_25": "Pizza",
                "property_26": .int(index),
                "property_27": 9.5,
                "property_28": true,
                "property_29": "mains",
                "property_30": "Pizza",
                "property_31": .int(index),
                "property_32": 9.5,
                "property_33": true,
                "property_34": "mains",
                "property_35": "Pizza",
                "property_36": .int(index),
                "property_37": 9.5,
                "property_38": true,
                "property_39": "mains",
                "property_40": "Pizza",
                "property_41": .int(index),
                "property_42": 9.5,
                "property_43": true,
                "property_44": "mains",
                "property_45": "Pizza",
                "property_46": .int(index),
                "property_47": 9.5,
                "property_48": true,
                "property_49": "mains",
            ]
        )
    }

    /// The event with `properties` properties: 5 gives ``menuItemOrdered(_:)``, 50 gives ``wide(_:)``.
    @inlinable
    public static func make(properties: Int, _ index: Int) -> Event {
        properties == 50 ? wide(index) : menuItemOrdered(index)
    }
}
