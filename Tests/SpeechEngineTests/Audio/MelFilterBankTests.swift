import Foundation
import Testing
@testable import SpeechEngine

@Suite("MelFilterBank")
struct MelFilterBankTests {
    @Test("80 Slaney filters match librosa's formula (reference fixture) within 1e-6")
    func matchesReference() throws {
        let reference = try LogMelReferenceData.load()
        let bank = MelFilterBank(melCount: 80, fftSize: 400, sampleRate: 16_000)
        #expect(bank.melCount == reference.filters.melCount)
        #expect(bank.binCount == reference.filters.binCount)
        var expected = [Float](repeating: 0, count: 80 * 201)
        for triple in reference.filters.nonzero {
            expected[Int(triple[0]) * 201 + Int(triple[1])] = Float(triple[2])
        }
        var worst: Float = 0
        for index in expected.indices { worst = max(worst, abs(bank.weights[index] - expected[index])) }
        #expect(worst < 1e-6, "largest filter weight difference \(worst)")
        for mel in 0..<80 {
            let sum = (0..<201).reduce(Float(0)) { $0 + bank.weight(mel: mel, bin: $1) }
            #expect(abs(Double(sum) - reference.filters.rowSums[mel]) < 1e-5, "band \(mel) sum")
        }
    }

    @Test("Every band is a single nonnegative triangle and every bin below Nyquist is covered")
    func trianglesCoverSpectrum() {
        let bank = MelFilterBank(melCount: 80)
        for mel in 0..<bank.melCount {
            let row = (0..<bank.binCount).map { bank.weight(mel: mel, bin: $0) }
            #expect(row.allSatisfy { $0 >= 0 })
            let nonzero = row.indices.filter { row[$0] > 0 }
            #expect(!nonzero.isEmpty, "band \(mel) is empty")
            #expect(nonzero.last! - nonzero.first! + 1 == nonzero.count, "band \(mel) is not contiguous")
        }
        for bin in 1..<(bank.binCount - 1) {
            let total = (0..<bank.melCount).reduce(Float(0)) { $0 + bank.weight(mel: $1, bin: bin) }
            #expect(total > 0, "bin \(bin) is in no band")
        }
    }

    @Test("The Slaney mel scale is linear below 1 kHz, logarithmic above, and invertible")
    func melScale() {
        #expect(abs(MelFilterBank.mel(fromHz: 1_000) - 15) < 1e-12)
        #expect(abs(MelFilterBank.mel(fromHz: 200) - 3) < 1e-12)
        for hz in [0.0, 123.0, 999.0, 1_000.0, 4_321.0, 8_000.0] {
            #expect(abs(MelFilterBank.hz(fromMel: MelFilterBank.mel(fromHz: hz)) - hz) < 1e-9)
        }
        // 128 bands (large-v3) build too.
        #expect(MelFilterBank(melCount: 128).weights.count == 128 * 201)
    }
}
