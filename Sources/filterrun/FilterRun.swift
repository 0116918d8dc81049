import ArgumentParser
import FilterCore
import FilterRecipe
import Foundation

@main
struct FilterRun {
    /// Exit codes: 0 ok, 2 usage or recipe error, 3 input image error, 4 render or output error.
    static func main() {
        // Past a file-size limit (ulimit -f) a write should fail with an error we report, not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        // `--stats` and `--explain` take an optional value; ArgumentParser wants one, so bare flags get a default.
        let arguments = CommandLine.arguments.dropFirst().map { argument -> String in
            switch argument {
            case "--stats": return "--stats=text"
            case "--explain": return "--explain=plan"
            default: return argument
            }
        }
        do {
            try EnvironmentSettings.validate()
        } catch {
            FileHandle.standardError.write(Data("filterrun: \(error)\n".utf8))
            exit(2)
        }
        do {
            var command = try Root.parseAsRoot(Array(arguments))
            if var run = command as? RunCommand {
                exit(run.execute())
            }
            try command.run()
        } catch {
            let code = Root.exitCode(for: error)
            if code == .success {
                print(Root.fullMessage(for: error))
                exit(0)
            }
            FileHandle.standardError.write(Data((Root.fullMessage(for: error) + "\n").utf8))
            exit(2)
        }
    }
}

struct Root: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filterrun",
        abstract: "Runs an image filter recipe on PNG and JPEG files.",
        subcommands: [RunCommand.self, ListCommand.self, SchemaCommand.self, ConformanceCommand.self],
        defaultSubcommand: RunCommand.self)
}
