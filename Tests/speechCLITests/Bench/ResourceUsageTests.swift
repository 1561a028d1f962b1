import Testing
@testable import SpeechCLI

@Suite struct ResourceUsageTests {
    @Test func parsesProcStatus() {
        let status = "Name:\tspeech\nVmPeak:\t  500 kB\nVmHWM:\t  123456 kB\nVmRSS:\t 1000 kB\n"
        #expect(ResourceUsage.parseStatusField("VmHWM", in: status) == 123_456)
        #expect(ResourceUsage.parseStatusField("VmSwap", in: status) == nil)
        #expect(ResourceUsage.parseStatusField("VmRSS", in: status) == 1_000)
    }

    @Test func currentResidentSizeIsPlausibleAndBelowThePeak() throws {
        let current = try #require(ResourceUsage.currentResidentBytes())
        #expect(current > 1_000_000)
        #expect(current <= ResourceUsage.peakResidentBytes())
    }

    @Test func peakResidentSizeIsPlausible() {
        let bytes = ResourceUsage.peakResidentBytes()
        #expect(bytes > 1_000_000)
        #expect(bytes < 64_000_000_000)
    }
}
