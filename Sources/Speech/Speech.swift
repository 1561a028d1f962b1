// `import Speech` re-exports AVFoundation and CoreMedia: Apple sample code often
// imports only Speech and still uses AVAudioEngine and CMTime (API.md §0.3).
@_exported import AVFoundation
@_exported import CoreMedia
