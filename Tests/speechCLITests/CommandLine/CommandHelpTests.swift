import Testing
@testable import SpeechCLI

@Suite struct CommandHelpTests {
    static let leafCommands: [any SpeechCommand.Type] = [
        TranscribeCommand.self, EvalCommand.self, BenchCommand.self,
        AssetsListCommand.self, AssetsInstallCommand.self, AssetsRemoveCommand.self,
    ]

    @Test func everyCommandHasTheSectionsInOrder() {
        for type in Self.leafCommands {
            let text = type.help.text
            let overview = text.range(of: "OVERVIEW: ")
            let usage = text.range(of: "USAGE: speech ")
            let options = text.range(of: "OPTIONS:")
            #expect(overview != nil && usage != nil && options != nil, "\(type)")
            if let overview, let usage, let options {
                #expect(overview.lowerBound < usage.lowerBound && usage.lowerBound < options.lowerBound, "\(type)")
            }
            #expect(text.contains("-h, --help"), "\(type)")
        }
    }

    @Test func everyCommandAcceptsJSONFormat() throws {
        for type in Self.leafCommands {
            #expect(type.help.options.contains { $0.name == "format" }, "\(type)")
        }
    }

    @Test func transcribeHelpListsItsOptionsAndArguments() {
        let text = TranscribeCommand.help.text
        #expect(text.contains("ARGUMENTS:"))
        #expect(text.contains("<file>"))
        for option in ["--language <xx|auto>", "--model <name|path>", "--beam <N>", "--format <format>",
                       "--words", "--prompt <text>", "--phrase <phrase>", "--threads <N>"] {
            #expect(text.contains(option), "\(option)")
        }
        #expect(text.contains("(repeatable)"))
        #expect(text.contains("--[no-]punctuation"))
        #expect(!text.contains("--[no-]words"))
    }

    @Test func streamingOptionsAreDocumented() {
        let eval = EvalCommand.help.text
        #expect(eval.contains("--stream "))
        #expect(eval.contains("[--score <hyp.tsv> | --stream [--live-passes] [--commit-window fitted|whole]]"))
        #expect(eval.contains("--live-passes"))
        #expect(eval.contains("--commit-window <window>"))
        #expect(eval.contains("speech eval ../shared/corpus/manifest.tsv --stream"))
        let bench = BenchCommand.help.text
        for option in ["--rss-every <seconds>", "--[no-]batch", "RSS timeline", "--commit-window <window>"] {
            #expect(bench.contains(option), "\(option)")
        }
    }

    @Test func groupsListSubcommands() {
        let text = SpeechTool.tree.help.text
        #expect(text.contains("SUBCOMMANDS:"))
        for name in ["transcribe", "eval", "bench", "assets", "help"] {
            #expect(text.contains("  \(name) "), "\(name)")
        }
        #expect(AssetsCommand.group.text.contains("list"))
        #expect(AssetsCommand.group.text.contains("remove"))
        #expect(AssetsCommand.group.text.contains("install"))
    }

    @Test func longOptionNamesWrapOntoTheirOwnLine() {
        let entry = CommandHelp.entry("--exclude-from-english <name>", "Help text.")
        #expect(entry.split(separator: "\n").count == 2)
        #expect(CommandHelp.entry("--beam <N>", "Beam.").split(separator: "\n").count == 1)
    }
}
