import Testing
@testable import SpeechCLI

@Suite struct ProgressBarTests {
    @Test func rendersFractions() {
        #expect(ProgressBar.render(label: "x", fraction: 0) == "x [" + String(repeating: ".", count: 30) + "]   0%")
        #expect(ProgressBar.render(label: "x", fraction: 0.5)
                == "x [" + String(repeating: "#", count: 15) + String(repeating: ".", count: 15) + "]  50%")
        #expect(ProgressBar.render(label: "x", fraction: 1) == "x [" + String(repeating: "#", count: 30) + "] 100%")
    }

    @Test func drawsOnlyOnATerminal() {
        let (console, captured) = Console.capturing(errorIsTerminal: false)
        let bar = ProgressBar(label: "clip", console: console)
        bar.update(0.5)
        bar.finish()
        #expect(captured.standardError.isEmpty)
    }

    @Test func redrawsInPlaceOncePerPercent() {
        let (console, captured) = Console.capturing(errorIsTerminal: true)
        let bar = ProgressBar(label: "clip", console: console)
        bar.update(0.101)
        bar.update(0.102)
        bar.update(2)
        bar.finish()
        let error = captured.standardError
        #expect(error.filter { $0 == "\r" }.count == 2)
        #expect(error.hasSuffix("] 100%\u{1B}[K\n"))
        #expect(!captured.standardOutput.contains("clip"))
    }
}
