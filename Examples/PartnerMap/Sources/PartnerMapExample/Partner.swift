/// A partner business shown on the map.
public struct Partner: Sendable, Hashable, Identifiable {
    /// The partner's id, as tracked in `partner_marker_tapped`.
    public var id: String
    public var name: String
    public var coordinate: MapCoordinate

    public init(id: String, name: String, coordinate: MapCoordinate) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
    }

    /// A few partners in Buenos Aires, for the demo and the tests.
    public static let samples: [Partner] = [
        Partner(
            id: "cafe-tortoni", name: "Café Tortoni", coordinate: MapCoordinate(latitude: -34.6088, longitude: -58.3785)
        ),
        Partner(
            id: "el-ateneo", name: "El Ateneo Grand Splendid",
            coordinate: MapCoordinate(latitude: -34.5959, longitude: -58.3941)),
        Partner(
            id: "la-bombonera", name: "La Bombonera", coordinate: MapCoordinate(latitude: -34.6356, longitude: -58.3649)
        ),
    ]
}
