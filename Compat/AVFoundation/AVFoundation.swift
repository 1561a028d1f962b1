// `import AVFoundation` re-exports CoreMedia, as Apple code expects (API.md §0.3).
@_exported import CoreMedia
