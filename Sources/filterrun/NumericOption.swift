/// Strict parsing of numeric option values, with errors that name the option, the value and what is accepted.
enum NumericOption {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func integer(_ option: String, _ text: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw Failure(description: "\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
        }
        return value
    }

    static func integer(_ option: String, _ text: String, allowed: [Int]) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), allowed.contains(value) else {
            let list = allowed.map(String.init).joined(separator: " or ")
            throw Failure(description: "\(option) must be \(list), got \"\(text)\"")
        }
        return value
    }

    static func real(_ option: String, _ text: String, in range: ClosedRange<Double>, or word: String) throws -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, range.contains(value) else {
            throw Failure(description: "\(option) must be a number from \(range.lowerBound) to \(range.upperBound) (e.g. 1e11) or \(word), got \"\(text)\"")
        }
        return value
    }
}

import Foundation
