import Foundation
import Tally

/// The data-collection part of an app's privacy manifest (`PrivacyInfo.xcprivacy`) that a tracking plan
/// implies: one `NSPrivacyCollectedDataTypes` entry per kind of data its events collect, with the purposes,
/// linkage and tracking the plan says, and the `NSPrivacyTrackingDomains` its destinations' hosts imply.
///
/// ```swift
/// let manifest = PrivacyManifest(plan: plan)
/// print(manifest.propertyListText)   // the entries, as an XML property list
/// let gaps = try manifest.gaps(in: Data(contentsOf: appManifestURL))   // what the app's file lacks
/// ```
///
/// How the plan maps onto Apple's keys:
/// - every track or screen event collects product interaction (`NSPrivacyCollectedDataTypeProductInteraction`),
///   an identify event the user id (`NSPrivacyCollectedDataTypeUserID`);
/// - a `personal` property that leaves the app (rule `send` or `hash`) collects its kind: `email` ->
///   `EmailAddress`, `phone` -> `PhoneNumber`, `name` -> `Name`, `precise_location` -> `PreciseLocation`,
///   `coarse_location` -> `CoarseLocation`, `device_id` and `advertising_id` -> `DeviceID`, `user_id` ->
///   `UserID`, `free_text` -> `OtherUserContent`, any other kind -> `OtherDataTypes`; `redact` and
///   `never_send` (and a mark with no rule) collect nothing;
/// - the event's purpose gives the reason: `analytics` -> `Analytics`, `advertising` -> `ThirdPartyAdvertising`,
///   `necessary` -> `AppFunctionality`, any other -> `Other`;
/// - data is tracking when its event is of purpose `advertising`, or when a destination that may receive
///   advertising may receive its event (its purposes hold the event's): whatever the event is for, that
///   destination may use its data for advertising. ``Entry/trackingDestinations`` names them, and `tally
///   privacy-manifest --check` says which destination made an entry tracking. Both follow
///   ``isTracking(_:)`` and ``isTracking(destinationPurposes:)``, the one rule for tracking;
/// - data is linked to the user when the plan has an identify event (events then carry the user's id);
/// - a destination that may receive `advertising` is tracking (``isTracking(destinationPurposes:)``), so the
///   hosts it names (`domains:`) are `NSPrivacyTrackingDomains` (``trackingDomains``); the other destinations'
///   hosts must not be listed there (``nonTrackingDomains``): iOS blocks every listed host until the user
///   allows tracking, so their uploads would stop for users who do not.
public struct PrivacyManifest: Sendable, Hashable {
    /// One `NSPrivacyCollectedDataTypes` entry.
    public struct Entry: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// `NSPrivacyCollectedDataType`, such as `NSPrivacyCollectedDataTypeEmailAddress`.
        public var dataType: String
        /// `NSPrivacyCollectedDataTypeLinked`.
        public var linked: Bool
        /// `NSPrivacyCollectedDataTypeTracking`.
        public var tracking: Bool
        /// `NSPrivacyCollectedDataTypePurposes`, sorted.
        public var purposes: [String]
        /// The plan's events that collect it, sorted.
        public var events: [String]
        /// The destinations that make it tracking whatever its events' purposes: those of the plan's
        /// `destinations:` that may receive advertising and may receive one of ``events``, sorted. Empty when
        /// no such destination receives them (then only an `advertising` event makes it tracking).
        public var trackingDestinations: [String] = []
        /// Whether an event that collects it is of a tracking purpose (`advertising`).
        var trackedByPurpose = false

        public static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.dataType < rhs.dataType }

        /// `NSPrivacyCollectedDataTypeEmailAddress (linked, purposes: Analytics; from signed_up)`
        public var description: String {
            let flags = (linked ? ["linked"] : []) + (tracking ? ["tracking"] : [])
            let purposes = purposes.map { $0.replacingOccurrences(of: "NSPrivacyCollectedDataTypePurpose", with: "") }
            return "\(dataType) (\((flags + ["purposes: " + purposes.joined(separator: ", ")]).joined(separator: ", "))"
                + "; from \(events.joined(separator: ", ")))"
        }
    }

    /// The entries, sorted by data type.
    public var entries: [Entry]

    /// `NSPrivacyTracking`: whether any entry is tracking.
    public var tracks: Bool { entries.contains(where: \.tracking) }

    /// `NSPrivacyTrackingDomains`: the hosts of the plan's tracking destinations (those that may receive
    /// advertising), lowercased, sorted, each once. An app's manifest must list each of them (it may list
    /// more: hosts of SDKs the plan does not know).
    public var trackingDomains: [String]

    /// The hosts of the plan's other destinations, lowercased, each with the names of the destinations that
    /// send to it, sorted. An app's manifest must not list them in `NSPrivacyTrackingDomains`: iOS blocks
    /// connections to every host listed there until the user allows tracking, so these destinations' uploads
    /// would stop. A host a tracking destination names too is a tracking domain only (`tally lint` refuses
    /// such a plan).
    public var nonTrackingDomains: [String: [String]]

    /// The tracking destinations that send to each tracking domain, sorted, for messages.
    private var trackingDestinations: [String: [String]]

    /// The entries a plan implies.
    public init(plan: TrackingPlan) {
        let linked = plan.events.contains { $0.kind == .identify }
        var byType: [String: Entry] = [:]
        func collect(_ dataType: String, _ event: PlannedEvent) {
            let purpose = Self.purpose(event.purpose)
            var entry =
                byType[dataType]
                ?? Entry(dataType: dataType, linked: linked, tracking: false, purposes: [], events: [])
            if !entry.purposes.contains(purpose) { entry.purposes.append(purpose) }
            if !entry.events.contains(event.name) { entry.events.append(event.name) }
            let destinations = plan.trackingDestinations(receiving: event.purpose)
            entry.trackedByPurpose = entry.trackedByPurpose || Self.isTracking(event.purpose)
            entry.trackingDestinations = Array(Set(entry.trackingDestinations).union(destinations))
            entry.tracking = entry.trackedByPurpose || !entry.trackingDestinations.isEmpty
            byType[dataType] = entry
        }
        for event in plan.events {
            switch event.kind {
            case .track, .screen: collect(Self.prefix + "ProductInteraction", event)
            case .identify: collect(Self.prefix + "UserID", event)
            case .group, .alias: break
            }
            for schema in event.properties.values {
                guard let mark = schema.personal, mark.rule == .send || mark.rule == .hash else { continue }
                collect(Self.dataType(mark.kind), event)
            }
        }
        entries = byType.values.map { entry in
            var entry = entry
            entry.purposes.sort()
            entry.events.sort()
            entry.trackingDestinations.sort()
            return entry
        }
        .sorted()

        var tracking: [String: Set<String>] = [:]
        var other: [String: Set<String>] = [:]
        for (destination, domains) in plan.destinationDomains {
            let tracks = Self.isTracking(destinationPurposes: plan.destinations[destination] ?? [])
            for domain in domains.map({ $0.lowercased() }) {
                if tracks {
                    tracking[domain, default: []].insert(destination)
                } else {
                    other[domain, default: []].insert(destination)
                }
            }
        }
        trackingDomains = tracking.keys.sorted()
        trackingDestinations = tracking.mapValues { $0.sorted() }
        nonTrackingDomains = other.filter { tracking[$0.key] == nil }.mapValues { $0.sorted() }
    }

    /// Whether data sent for `purpose` is tracking in Apple's sense (linked with other companies' data for
    /// advertising, or shared with data brokers): `advertising` is, every other purpose is not. The one rule
    /// behind ``Entry/tracking``, ``tracks`` and ``trackingDomains``.
    public static func isTracking(_ purpose: ConsentPurpose) -> Bool {
        purpose == .advertising
    }

    /// Whether a destination that may receive `purposes` is tracking: one of them is
    /// (``isTracking(_:)``). Every event such a destination may receive is tracking data too, whatever its
    /// own purpose (``Entry/trackingDestinations``).
    public static func isTracking(destinationPurposes purposes: Set<ConsentPurpose>) -> Bool {
        purposes.contains { isTracking($0) }
    }

    /// `sent to destination ads, which receives advertising`, for gaps.
    fileprivate static func reaching(_ destinations: [String]) -> String {
        let names = destinations.joined(separator: ", ")
        return destinations.count == 1
            ? "sent to destination \(names), which receives advertising"
            : "sent to destinations \(names), which receive advertising"
    }

    private static let prefix = "NSPrivacyCollectedDataType"

    /// Apple's data type for a kind of personal data.
    public static func dataType(_ kind: PersonalDataKind) -> String {
        let name: String
        switch kind {
        case .email: name = "EmailAddress"
        case .phone: name = "PhoneNumber"
        case .name: name = "Name"
        case .preciseLocation: name = "PreciseLocation"
        case .coarseLocation: name = "CoarseLocation"
        case .deviceIdentifier, .advertisingIdentifier: name = "DeviceID"
        case .userIdentifier: name = "UserID"
        case .freeText: name = "OtherUserContent"
        default: name = "OtherDataTypes"
        }
        return prefix + name
    }

    /// Apple's reason for a consent purpose.
    public static func purpose(_ purpose: ConsentPurpose) -> String {
        let name: String
        switch purpose {
        case .analytics: name = "Analytics"
        case .advertising: name = "ThirdPartyAdvertising"
        case .necessary: name = "AppFunctionality"
        default: name = "Other"
        }
        return prefix + "Purpose" + name
    }

    /// The manifest's keys: `NSPrivacyTracking`, `NSPrivacyCollectedDataTypes`, and
    /// `NSPrivacyTrackingDomains` when there are ``trackingDomains``.
    public var propertyList: [String: Any] {
        var list: [String: Any] = [
            "NSPrivacyTracking": tracks,
            "NSPrivacyCollectedDataTypes": entries.map(Self.dictionary),
        ]
        if !trackingDomains.isEmpty { list["NSPrivacyTrackingDomains"] = trackingDomains }
        return list
    }

    /// ``propertyList`` as an XML property list: a `PrivacyInfo.xcprivacy` holding only these keys
    /// (``merged(into:)`` adds them to an app's own file).
    public var propertyListText: String {
        (try? merged(into: nil))?.text ?? ""
    }

    /// What an app's privacy manifest lacks of these entries, and what it lists that stops the app's own
    /// uploads, one line each: a missing data type, a missing purpose, linkage or tracking not declared,
    /// `NSPrivacyTracking` not true, a tracking domain missing from `NSPrivacyTrackingDomains`, and a host of
    /// a destination that receives no advertising listed there (``nonTrackingDomains``). Empty when it covers
    /// them all and lists none of those (it may declare more). Hosts compare case-insensitively.
    ///
    /// - Throws: ``PrivacyManifestError`` when `manifest` is not a property list holding a dictionary, or
    ///   its `NSPrivacyTrackingDomains` is not an array of strings.
    public func gaps(in manifest: Data) throws(PrivacyManifestError) -> [String] {
        let dictionary = try Self.root(of: manifest)
        let declared = (dictionary["NSPrivacyCollectedDataTypes"] as? [[String: Any]]) ?? []
        var gaps: [String] = []
        if tracks, dictionary["NSPrivacyTracking"] as? Bool != true {
            let tracking = entries.filter(\.tracking)
            let destinations = Set(tracking.flatMap(\.trackingDestinations)).sorted()
            let because = destinations.isEmpty ? "" : " (\(Self.reaching(destinations)))"
            gaps.append(
                "NSPrivacyTracking must be true: \(tracking.map(\.dataType).joined(separator: ", ")) is collected for tracking\(because)"
            )
        }
        for entry in entries {
            let matching = declared.filter { $0["NSPrivacyCollectedDataType"] as? String == entry.dataType }
            guard !matching.isEmpty else {
                gaps.append("missing \(entry)")
                continue
            }
            let purposes = Set(matching.flatMap { $0["NSPrivacyCollectedDataTypePurposes"] as? [String] ?? [] })
            for purpose in entry.purposes where !purposes.contains(purpose) {
                gaps.append(
                    "\(entry.dataType) lacks the purpose \(purpose) (from \(entry.events.joined(separator: ", ")))")
            }
            if entry.linked, !matching.contains(where: { $0["NSPrivacyCollectedDataTypeLinked"] as? Bool == true }) {
                gaps.append("\(entry.dataType) must be linked to the user (the plan identifies users)")
            }
            if entry.tracking, !matching.contains(where: { $0["NSPrivacyCollectedDataTypeTracking"] as? Bool == true })
            {
                gaps.append("\(entry.dataType) must be declared as tracking (\(entry.trackingReason))")
            }
        }
        let listed = Set(try Self.listedTrackingDomains(in: dictionary).map { $0.lowercased() })
        for domain in trackingDomains where !listed.contains(domain) {
            let destinations = trackingDestinations[domain] ?? []
            let names = destinations.joined(separator: ", ")
            gaps.append(
                destinations.count == 1
                    ? "NSPrivacyTrackingDomains lacks \(domain) (destination \(names), which receives advertising)"
                    : "NSPrivacyTrackingDomains lacks \(domain) (destinations \(names), which receive advertising)")
        }
        for (domain, destinations) in nonTrackingDomains.sorted(by: { $0.key < $1.key }) where listed.contains(domain) {
            let names = destinations.joined(separator: ", ")
            gaps.append(
                destinations.count == 1
                    ? "\(domain) (destination \(names)) is listed in NSPrivacyTrackingDomains, but \(names) receives no advertising: iOS blocks its uploads until the user allows tracking; remove it"
                    : "\(domain) (destinations \(names)) is listed in NSPrivacyTrackingDomains, but \(names) receive no advertising: iOS blocks their uploads until the user allows tracking; remove it"
            )
        }
        return gaps
    }
}

extension PrivacyManifest {
    /// `manifest` (an app's `PrivacyInfo.xcprivacy`; nil for none yet) with these entries and
    /// ``trackingDomains`` added, as an XML property list, and what was added, one line each. Nothing is
    /// removed: keys this type does not write (`NSPrivacyAccessedAPITypes`) stay as they are, an entry the
    /// plan does not imply stays, a data type already declared gains only the purposes, linkage and tracking
    /// it lacks, and `NSPrivacyTrackingDomains` gains only the tracking domains it lacks. So ``gaps(in:)`` of
    /// the result holds only what removing would fix: a host of a destination that receives no advertising
    /// listed in `NSPrivacyTrackingDomains` (``nonTrackingDomains``), which someone must remove by hand.
    ///
    /// - Throws: ``PrivacyManifestError`` when `manifest` is not a property list holding a dictionary, or
    ///   its `NSPrivacyTrackingDomains` is not an array of strings.
    public func merged(into manifest: Data?) throws(PrivacyManifestError) -> (text: String, added: [String]) {
        var root = try manifest.map(Self.root(of:)) ?? [:]
        var added: [String] = []
        if tracks, root["NSPrivacyTracking"] as? Bool != true {
            added.append("NSPrivacyTracking set to true")
        }
        root["NSPrivacyTracking"] = tracks || root["NSPrivacyTracking"] as? Bool == true
        var declared = (root["NSPrivacyCollectedDataTypes"] as? [[String: Any]]) ?? []
        for entry in entries {
            guard
                let index = declared.firstIndex(where: { $0["NSPrivacyCollectedDataType"] as? String == entry.dataType }
                )
            else {
                declared.append(Self.dictionary(entry))
                added.append(entry.description)
                continue
            }
            var existing = declared[index]
            var purposes = existing["NSPrivacyCollectedDataTypePurposes"] as? [String] ?? []
            for purpose in entry.purposes where !purposes.contains(purpose) {
                purposes.append(purpose)
                added.append("\(entry.dataType): the purpose \(purpose)")
            }
            existing["NSPrivacyCollectedDataTypePurposes"] = purposes
            if entry.linked, existing["NSPrivacyCollectedDataTypeLinked"] as? Bool != true {
                existing["NSPrivacyCollectedDataTypeLinked"] = true
                added.append("\(entry.dataType): linked to the user")
            }
            if entry.tracking, existing["NSPrivacyCollectedDataTypeTracking"] as? Bool != true {
                existing["NSPrivacyCollectedDataTypeTracking"] = true
                added.append("\(entry.dataType): tracking")
            }
            declared[index] = existing
        }
        root["NSPrivacyCollectedDataTypes"] = declared
        var domains = try Self.listedTrackingDomains(in: root)
        let listed = Set(domains.map { $0.lowercased() })
        for domain in trackingDomains where !listed.contains(domain) {
            domains.append(domain)
            added.append("NSPrivacyTrackingDomains: \(domain)")
        }
        if !domains.isEmpty || root["NSPrivacyTrackingDomains"] != nil { root["NSPrivacyTrackingDomains"] = domains }
        let data: Data
        do {
            data = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
        } catch {
            throw PrivacyManifestError("The merged manifest cannot be written: \(error.localizedDescription)")
        }
        return (String(decoding: data, as: UTF8.self), added)
    }

    /// The root dictionary of an app's manifest.
    private static func root(of manifest: Data) throws(PrivacyManifestError) -> [String: Any] {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: manifest, options: [], format: nil)
        } catch {
            throw PrivacyManifestError("The privacy manifest is not a property list: \(error.localizedDescription)")
        }
        guard let dictionary = root as? [String: Any] else {
            throw PrivacyManifestError("The privacy manifest's root must be a dictionary")
        }
        return dictionary
    }

    /// The app's `NSPrivacyTrackingDomains`, as written; empty without the key.
    private static func listedTrackingDomains(in root: [String: Any]) throws(PrivacyManifestError) -> [String] {
        guard let value = root["NSPrivacyTrackingDomains"] else { return [] }
        guard let domains = value as? [String] else {
            throw PrivacyManifestError("The privacy manifest's NSPrivacyTrackingDomains must be an array of strings")
        }
        return domains
    }

    fileprivate static func dictionary(_ entry: Entry) -> [String: Any] {
        [
            "NSPrivacyCollectedDataType": entry.dataType,
            "NSPrivacyCollectedDataTypeLinked": entry.linked,
            "NSPrivacyCollectedDataTypeTracking": entry.tracking,
            "NSPrivacyCollectedDataTypePurposes": entry.purposes,
        ]
    }
}

extension PrivacyManifest.Entry {
    /// Why the entry is tracking, for gaps: `collected for advertising`, `sent to destination ads, which
    /// receives advertising`, or both.
    var trackingReason: String {
        let purpose = trackedByPurpose ? ["collected for advertising"] : []
        let destinations = trackingDestinations.isEmpty ? [] : [PrivacyManifest.reaching(trackingDestinations)]
        return (purpose + destinations).joined(separator: ", and ")
    }
}

extension TrackingPlan {
    /// The destinations that may receive events of `purpose` and are tracking, because they may receive
    /// advertising (``PrivacyManifest/isTracking(destinationPurposes:)``), sorted by name. Data of such an
    /// event is tracking data wherever else it goes.
    func trackingDestinations(receiving purpose: ConsentPurpose) -> [String] {
        destinations.filter { $0.value.contains(purpose) && PrivacyManifest.isTracking(destinationPurposes: $0.value) }
            .keys.sorted()
    }
}

/// A privacy manifest that cannot be read.
public struct PrivacyManifestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    public init(_ description: String) { self.description = description }
}
