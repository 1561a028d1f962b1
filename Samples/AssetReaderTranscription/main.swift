// AssetReaderTranscription: read a media file's audio track with
// AVAssetReader and recognize it with either face.
//
//   AssetReaderTranscription legacy|modern <media-file>
//
// legacy: 16-bit PCM sample buffers, inspected through their AudioBufferList,
//         into SFSpeechAudioBufferRecognitionRequest.appendAudioSampleBuffer.
// modern: sample buffers in the analyzer's own format, copied into
//         AVAudioPCMBuffers, as time-stamped AnalyzerInput into SpeechAnalyzer.

import Foundation

struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, ["legacy", "modern"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: AssetReaderTranscription legacy|modern <media-file>\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
do {
    if arguments[0] == "legacy" {
        try await LegacyAssetReaderTranscription.run(url)
    } else {
        try await ModernAssetReaderTranscription.run(url)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
