import ArgumentParser
import FilterRecipe
import Foundation

@main
struct FilterRun {
    /// Exit codes: 0 ok, 2 usage or recipe error, 3 input image error, 4 render or output error.
    static func main() {
        // Past a file-size limit (ulimit -f) a write should fail with an error we report, not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        // Messages name settings as this tool's options (`--max-memory`), not the library's.
        CommandLineFace.nameCommandLineOptions()
        do {
            try CommandLineFace.validateEnvironment()
        } catch {
            FileHandle.standardError.write(Data("filterrun: \(error)\n".utf8))
            exit(2)
        }
        // `filterrun --help` is the render's help (the command people run), with the subcommands after it.
        var arguments = Array(CommandLine.arguments.dropFirst())
        // ImageMagick's and vips's -strip is what a render does already (outputs carry no metadata unless asked):
        // taken, and said, rather than answered with the nearest option (--stats).
        if arguments.contains(where: { $0 == "--strip" || $0 == "-strip" }) {
            if arguments.contains("--keep-metadata") {
                FileHandle.standardError.write(Data("filterrun: --strip and --keep-metadata contradict each other; give one\n".utf8))
                exit(2)
            }
            arguments.removeAll { $0 == "--strip" || $0 == "-strip" }
            FileHandle.standardError.write(Data("note: outputs carry no EXIF or XMP unless --keep-metadata; --strip changes nothing\n".utf8))
        }
        if arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
            print(RunCommand.helpMessage(for: RunCommand.self) + "\n\n" + Root.subcommandList)
            exit(0)
        }
        // `-q 80` is how cwebp, vips and ImageMagick users ask for a quality; here -q is --quiet, which takes no
        // value, so the number would silently become an input and the run a batch. Refused, naming --quality.
        if let at = arguments.firstIndex(where: { $0 == "-q" || $0 == "--quiet" }), at + 1 < arguments.count,
           Double(arguments[at + 1]) != nil {
            FileHandle.standardError.write(Data(("filterrun: \(arguments[at]) is --quiet and takes no value; for the output's "
                + "quality give --quality \(arguments[at + 1])\n").utf8))
            exit(2)
        }
        // `filterrun convert IN OUT [options]`: a render with no steps (format, size limits, metadata and profile
        // options apply as to any render); it is the render command with no recipe, so it takes every render option.
        if arguments.first == "convert" {
            if arguments.count == 1 || arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                print("USAGE: filterrun convert INPUT OUTPUT [<options>]\n\nConverts an image as it is (no recipe): the output's "
                      + "format from its name or --format; every option of a render applies (see filterrun --help).")
                exit(arguments.count == 1 ? 2 : 0)
            }
            do {
                let options = try RenderOptions.parse([RenderOptions.noRecipe] + arguments.dropFirst())
                exit(RenderRun(options).execute())
            } catch {
                FileHandle.standardError.write(Data((RunCommand.fullMessage(for: error) + "\n").utf8))
                exit(2)
            }
        }
        do {
            var command = try Root.parseAsRoot(arguments)
            if let run = command as? RunCommand { exit(RenderRun(run.options).execute()) }
            try command.run()
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("filterrun: \(failure)\n".utf8))
            exit(2)
        } catch let code as ExitCode {
            exit(code.rawValue)  // the subcommand has said why
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

/// `filterrun`: the render is the default command, so `filterrun RECIPE INPUT OUTPUT` runs it; `filterrun --help`
/// shows its usage and options, then the other tasks.
struct Root: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filterrun",
        abstract: "Runs an image filter recipe on \(ImageFileFormat.readableNames) images: one file, a pipe, or a batch.",
        version: FilterRecipeVersion.current,
        subcommands: [RunCommand.self, ListCommand.self, StatsCommand.self, SchemaCommand.self, ConformanceCommand.self],
        defaultSubcommand: RunCommand.self)

    /// The subcommands, as the end of `filterrun --help`.
    static var subcommandList: String {
        let lines = configuration.subcommands.filter { $0 != RunCommand.self }.map { command in
            let name = command.configuration.commandName ?? ""
            return "  " + name.padding(toLength: 22, withPad: " ", startingAt: 0) + command.configuration.abstract
        }
        let convert = "  " + "convert".padding(toLength: 22, withPad: " ", startingAt: 0)
            + "Convert an image as it is, with no recipe: filterrun convert INPUT OUTPUT [<options>]."
        return "SUBCOMMANDS:\n" + ([convert] + lines).joined(separator: "\n") + "\n\n  filterrun --version prints the version; "
            + "filterrun help SUBCOMMAND describes one."
    }
}

/// `filterrun RECIPE INPUT OUTPUT` (also spelt `filterrun run …`).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs an image filter recipe on \(ImageFileFormat.readableNames) images: one file, a pipe, or a batch.",
        usage: """
        filterrun RECIPE INPUT OUTPUT [<options>]
        filterrun RECIPE INPUT... OUTPUT_DIR [<options>]
        filterrun <subcommand>
        """,
        discussion: """
        One image: filterrun RECIPE INPUT OUTPUT. The input's format is told by its bytes (- reads it from standard \
        input); the output's by its extension (\(RenderOptions.extensionList)) or --format (- writes it to standard \
        output). Inputs are turned upright by their EXIF orientation unless --no-autorotate. A missing output \
        directory is created.
        A batch: filterrun RECIPE INPUT... OUTPUT_DIR (or --inputs-from FILE|-), where each INPUT is an image or a \
        directory of images; outputs mirror the inputs' names (their extension changes only with --format), and \
        existing outputs are skipped (so a stopped batch resumes) unless --force.
        Exit codes: 0 ok, 2 usage or recipe error, 3 input image error, 4 render or output error (in a batch: the \
        worst over the files), 130 batch cancelled with Ctrl-C.
        Shell completions: filterrun --generate-completion-script bash|zsh|fish.
        """)

    @OptionGroup var options: RenderOptions
}
