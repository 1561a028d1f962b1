import Testing
@testable import SpeechCLI

@Suite struct ParsedArgumentsTests {
    let specs: [OptionSpec] = [
        .value("beam", short: "b", "N", help: "Beam."),
        .value("language", "xx", help: "Language."),
        .flag("words", help: "Words."),
        .flag("punctuation", help: "Punctuation."),
        .repeated("phrase", "phrase", help: "Phrase."),
    ]

    @Test func separateAndInlineValues() throws {
        let parsed = try ParsedArguments(["a.wav", "--beam", "3", "--language=sv", "b.wav"], specs: specs)
        #expect(parsed.positionals == ["a.wav", "b.wav"])
        #expect(parsed.value("beam") == "3")
        #expect(parsed.value("language") == "sv")
        #expect(try parsed.integer("beam", in: 1...16) == 3)
    }

    @Test func shortOptions() throws {
        let parsed = try ParsedArguments(["-b", "1", "x"], specs: specs)
        #expect(parsed.value("beam") == "1")
        #expect(parsed.positionals == ["x"])
    }

    @Test func flagsAndInversions() throws {
        let parsed = try ParsedArguments(["--words", "--no-punctuation"], specs: specs)
        #expect(parsed.flag("words"))
        #expect(!parsed.flag("punctuation", default: true))
        #expect(try ParsedArguments([], specs: specs).flag("punctuation", default: true))
        #expect(!(try ParsedArguments([], specs: specs).flag("words")))
    }

    @Test func repeatedOptionsKeepOrder() throws {
        let parsed = try ParsedArguments(["--phrase", "SpeechCompat", "--phrase=Whisper Kit"], specs: specs)
        #expect(parsed.allValues("phrase") == ["SpeechCompat", "Whisper Kit"])
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try ParsedArguments(["--words", "--", "--beam", "-h", "-"], specs: specs)
        #expect(parsed.positionals == ["--beam", "-h", "-"])
        #expect(!parsed.helpRequested)
        #expect(parsed.value("beam") == nil)
    }

    @Test func helpAnywhere() throws {
        #expect(try ParsedArguments(["a.wav", "-h"], specs: specs).helpRequested)
        #expect(try ParsedArguments(["--help", "--beam", "2"], specs: specs).helpRequested)
    }

    @Test func negativeNumbersAreValues() throws {
        let parsed = try ParsedArguments(["--beam", "-1"], specs: specs)
        #expect(parsed.value("beam") == "-1")
        #expect(throws: UsageError.self) { try parsed.integer("beam", in: 1...16) }
    }

    @Test(arguments: [
        (["--bogus"], "Unknown option '--bogus'."),
        (["-x"], "Unknown option '-x'."),
        (["--beam"], "Missing value for '--beam <N>'."),
        (["--beam", "--words"], "Missing value for '--beam <N>'."),
        (["--words=yes"], "The flag '--words' does not take a value."),
        (["--no-words=1"], "The flag '--no-words' does not take a value."),
        (["--no-beam"], "Unknown option '--no-beam'."),
        (["--beam", "1", "--beam", "2"], "The option '--beam' was given more than once."),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        do {
            _ = try ParsedArguments(arguments, specs: specs)
            Issue.record("expected a usage error for \(arguments)")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func integerAndChoiceValidation() throws {
        let parsed = try ParsedArguments(["--beam", "two", "--language", "xx"], specs: specs)
        #expect(throws: UsageError.self) { try parsed.integer("beam", in: 1...16) }
        #expect(throws: UsageError.self) { try parsed.choice("language", from: ["en", "sv"]) }
        #expect(try ParsedArguments(["--language", "sv"], specs: specs).choice("language", from: ["en", "sv"]) == "sv")
    }
}
