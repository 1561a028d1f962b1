// `import AVFAudio` is what newer Apple code writes for the audio types that
// AVFoundation re-exports; on Linux both names lead to the same module.
@_exported import AVFoundation
