import AVFoundation
import Foundation
import Testing

/// AVAudioFile is Sendable (Apple's 26 SDK): tasks share one file, and the
/// lock keeps each read whole, so every frame is read exactly once.
@Suite struct AVAudioFileSendableTests {
    @Test func tasksSharingAFileReadEveryFrameOnce() async throws {
        let url = AudioSignals.corpusClip("audio/pocketsphinx/ps_goforward.wav")
        let file = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: true)
        let chunks = try await withThrowingTaskGroup(of: [(AVAudioFramePosition, [Int16])].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 333))
                    var read: [(AVAudioFramePosition, [Int16])] = []
                    while true {
                        // Position and read are not one step, so record what each read returned.
                        try file.read(into: buffer)
                        if buffer.frameLength == 0 { return read }
                        read.append((0, Array(UnsafeBufferPointer(start: buffer.int16ChannelData![0],
                                                                   count: Int(buffer.frameLength)))))
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(chunks.reduce(0) { $0 + $1.1.count } == Int(file.length))
        #expect(file.framePosition == file.length)
        // The multiset of samples is the file's: nothing read twice or lost.
        let sequential = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: true)
        let whole = try #require(AVAudioPCMBuffer(pcmFormat: sequential.processingFormat,
                                                  frameCapacity: AVAudioFrameCount(sequential.length)))
        try sequential.read(into: whole)
        let expected = Array(UnsafeBufferPointer(start: whole.int16ChannelData![0], count: Int(whole.frameLength)))
        #expect(chunks.flatMap(\.1).sorted() == expected.sorted())
    }

    @Test func aFileCanBeSentIntoADetachedTask() async throws {
        let file = try AVAudioFile(forReading: AudioSignals.corpusClip("audio/pocketsphinx/ps_goforward.wav"))
        let frames = try await Task.detached {
            let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 4_096))
            var total = 0
            while file.framePosition < file.length {
                try file.read(into: buffer)
                total += Int(buffer.frameLength)
            }
            file.close()
            return total
        }.value
        #expect(frames == 44_580 && !file.isOpen)
    }
}
