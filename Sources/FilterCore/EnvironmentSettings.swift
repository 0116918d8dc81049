import Foundation

/// The numeric and word-valued `FILTERRUN_*` environment variables, parsed strictly: a value that is not a whole
/// number in range, or not one of the words a variable takes, is an error naming the variable, never silently ignored
/// or taken literally.
package enum EnvironmentSettings {
    package struct Invalid: Error, CustomStringConvertible, Sendable {
        package let name: String
        package let value: String
        package let range: ClosedRange<Int>
        package var description: String {
            "environment variable \(name)=\"\(value)\" must be a whole number from \(range.lowerBound) to \(range.upperBound)"
        }
    }

    /// Every numeric variable and its accepted range.
    package static let integers: [(name: String, range: ClosedRange<Int>)] = [
        ("FILTERRUN_THREADS", 1...1024),
        ("FILTERRUN_VULKAN_MAX_BUFFER", 1024...(1 << 40)),
        ("FILTERRUN_VULKAN_MEMORY_LIMIT", 1...(1 << 50)),
        ("FILTERRUN_VULKAN_MAX_BINDINGS", 1...64),
        ("FILTERRUN_VULKAN_SUBMIT_WORK", 1...(1 << 50)),
        ("FILTERRUN_VULKAN_STREAM_ROWS", 0...(1 << 24)),
        ("FILTERRUN_JPEG_DC_PATH", 0...1),
    ]

    /// The variable's value, nil when unset or empty; throws when set to anything but a number in range.
    package static func integer(_ name: String, in range: ClosedRange<Int>,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let value = Int(text), range.contains(value) else { throw Invalid(name: name, value: text, range: range) }
        return value
    }

    /// A word-valued variable set to a word it does not take.
    package struct InvalidWord: Error, CustomStringConvertible, Sendable {
        package let name: String
        package let value: String
        package let words: [String]
        package var description: String {
            "environment variable \(name)=\"\(value)\" must be " + words.map { "\"\($0)\"" }.joined(separator: " or ")
        }
    }

    /// Every word-valued variable and the words it takes (unset or empty: the default).
    package static let words: [(name: String, words: [String])] = [
        ("FILTERRUN_SERIAL_STAGES", ["never", "always"]),
    ]

    /// The variable's word, nil when unset or empty; throws when set to a word it does not take.
    package static func word(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        let accepted = words.first { $0.name == name }?.words ?? []
        guard accepted.contains(text) else { throw InvalidWord(name: name, value: text, words: accepted) }
        return text
    }

    /// Checks every numeric and word-valued variable (the command line does this before any work).
    package static func validate(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        for (name, range) in integers { _ = try integer(name, in: range, environment: environment) }
        for (name, _) in words { _ = try word(name, environment: environment) }
    }

    static func range(of name: String) -> ClosedRange<Int> { integers.first { $0.name == name }!.range }

    /// The variable's value, or nil when unset or invalid (for settings read where nothing can throw; `validate()`
    /// reports the invalid ones).
    package static func lenient(_ name: String) -> Int? {
        (try? integer(name, in: range(of: name))) ?? nil
    }
}
