import SpeechEngine
import Testing
@testable import SpeechCLI

@Suite struct AssetsCommandTests {
    @Test func modelNamesAreCheckedAndDeduplicated() throws {
        #expect(try AssetsCommand.modelNames(["whisper-base", "whisper-tiny.en", "whisper-base"])
                == [.whisperBase, .whisperTinyEn])
        #expect(throws: UsageError.self) { try AssetsCommand.modelNames(["whisper-large"]) }
    }

    @Test func removeNeedsAName() throws {
        let parsed = try ParsedArguments([], specs: AssetsRemoveCommand.help.options)
        #expect(throws: UsageError.self) { try AssetsRemoveCommand(arguments: parsed).validate() }
    }

    @Test func listTakesNoArguments() throws {
        let parsed = try ParsedArguments(["extra"], specs: AssetsListCommand.help.options)
        #expect(throws: UsageError.self) { try AssetsListCommand(arguments: parsed) }
    }
}
