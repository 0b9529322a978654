// Stand-in for mixpanel-swift 6.5.1 (tag 6.5.1), module `Mixpanel`: Sources/MixpanelType.swift, the value
// protocol and the types the SDK conforms to it. The requirements are the SDK's; the conformances here
// answer without checking anything.

import Foundation

/// A value Mixpanel can send.
public protocol MixpanelType: Any {
    func isValidNestedTypeAndValue() -> Bool
    func equals(rhs: MixpanelType) -> Bool
}

extension Optional: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension String: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension NSString: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension NSNumber: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension Int: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension UInt: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension Double: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension Float: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension Bool: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension Date: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension URL: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension NSNull: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension Array: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension NSArray: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
extension Dictionary: MixpanelType {
    public func isValidNestedTypeAndValue() -> Bool { true }
    public func equals(rhs: MixpanelType) -> Bool { false }
}
