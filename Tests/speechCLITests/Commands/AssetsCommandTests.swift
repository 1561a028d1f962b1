import Foundation
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

    @Test func installDefaultsToTheDefaultModel() throws {
        let none = try AssetsInstallCommand(arguments: ParsedArguments([], specs: AssetsInstallCommand.help.options))
        #expect(none.models == [ModelName.default])
        let two = try AssetsInstallCommand(arguments: ParsedArguments(["whisper-tiny.en", "whisper-base"],
                                                                      specs: AssetsInstallCommand.help.options))
        #expect(two.models == [.whisperTinyEn, .whisperBase])
        #expect(throws: UsageError.self) {
            try AssetsInstallCommand(arguments: ParsedArguments(["tiny"], specs: AssetsInstallCommand.help.options))
        }
    }

    @Test func listAsJSONNamesEveryKnownModel() async throws {
        let (console, captured) = Console.capturing()
        let status = await SpeechTool.main(["assets", "list", "--format", "json"], console: console)
        #expect(status == .success)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(captured.standardOutput.utf8)) as? [[String: Any]])
        #expect(rows.compactMap { $0["name"] as? String } == ModelName.allCases.map(\.rawValue))
        #expect(rows.allSatisfy { $0["installed"] is Bool && $0["path"] is String })
    }
}
