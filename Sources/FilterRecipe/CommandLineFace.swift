import FilterCore
import Foundation

/// What a command-line tool built on the library needs to speak as one: messages that name its options, its
/// environment checked up front, and the catalogue's reference texts.
public enum CommandLineFace {
    /// From now on, messages name settings as command-line options (`--max-memory`) rather than as the library's
    /// Swift names (`Renderer.Options.maxMemory`). Process-wide; call it once, first.
    public static func nameCommandLineOptions() { SettingName.face = .commandLine }

    /// Checks the numeric `FILTERRUN_*` environment variables the library reads, so a bad value stops a tool before
    /// any work, with a message naming the variable, its value and the range it takes.
    public static func validateEnvironment() throws { try EnvironmentSettings.validate() }

    /// " — did you mean …" for a filter name that is not in the catalogue (empty when nothing is close): the nearest
    /// spellings and the filters other tools' names for it mean.
    public static func hint(forUnknownFilter name: String) -> String { FilterSynonyms.hint(forFilter: name) }

    /// The JSON Schema of recipe version 1, generated from the catalogue (recipes/schema.json).
    public static func recipeSchema() throws -> Data { try CatalogueSchema.jsonData() }

    /// The catalogue's conformance table as Markdown (docs/CONFORMANCE.md): each filter's published definition,
    /// edge rule, alpha rule and the tests that check it.
    public static func conformanceTable() -> String { ConformanceTable.markdown() }
}
