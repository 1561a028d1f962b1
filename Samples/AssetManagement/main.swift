// AssetManagement: get ready to recognize — legacy permission and
// availability, or modern asset status, installation and reservation —
// then transcribe a file to show it worked.
//
//   AssetManagement legacy|modern <audio-file>

import Foundation

struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, ["legacy", "modern"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: AssetManagement legacy|modern <audio-file>\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
do {
    if arguments[0] == "legacy" {
        try await LegacyAssetManagement.run(url)
    } else {
        try await ModernAssetManagement.run(url)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
