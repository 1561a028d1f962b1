import AVFoundation
import Foundation
import Testing

/// AVURLAsset and AVAssetTrack: async property loading over a real file, the
/// older key-value loading, and the errors for files that cannot be read.
@Suite struct AVAssetTests {
    private let clip = AudioSignals.corpusClip("audio/pocketsphinx/ps_goforward.wav")

    @Test func loadsDurationAndTheAudioTrack() async throws {
        let asset = AVURLAsset(url: clip)
        #expect(asset.status(of: .duration) == .notYetLoaded)
        let (duration, tracks, readable) = try await asset.load(.duration, .tracks, .isReadable)
        #expect(duration == CMTime(value: 44_580, timescale: 16_000) && readable)
        #expect(asset.status(of: .duration) == .loaded(CMTime(value: 44_580, timescale: 16_000)))
        let track = try #require(tracks.first)
        #expect(tracks.count == 1 && track.mediaType == .audio && track.trackID == 1 && track.asset === asset)
        #expect(try await asset.loadTracks(withMediaType: .audio) == tracks)
        #expect(try await asset.loadTracks(withMediaType: .video).isEmpty)
        #expect(try await asset.loadTrack(withTrackID: 1) === track)
        let (range, timescale, descriptions) = try await track.load(.timeRange, .naturalTimeScale, .formatDescriptions)
        #expect(range == CMTimeRange(start: .zero, duration: duration) && timescale == 16_000)
        let asbd = try #require(descriptions.first?.audioStreamBasicDescription)
        #expect(asbd.mFormatID == kAudioFormatLinearPCM && asbd.mBitsPerChannel == 16 && asbd.mChannelsPerFrame == 1)
        #expect(try await track.load(.estimatedDataRate) > 250_000)
        #expect(try await AVAsset(url: clip).load(.duration).seconds == duration.seconds)
    }

    @Test func keyValueLoadingReportsStatusAfterLoading() async throws {
        let asset = AVURLAsset(url: clip)
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "duration", error: &error) == .unknown)
        await withCheckedContinuation { continuation in
            asset.loadValuesAsynchronously(forKeys: ["duration", "tracks"]) { continuation.resume() }
        }
        #expect(asset.statusOfValue(forKey: "tracks", error: &error) == .loaded && error == nil)
        #expect(asset.statusOfValue(forKey: "lyrics", error: &error) == .failed)
        #expect(error?.domain == AVFoundationErrorDomain)
    }

    @Test func missingAndUnreadableFilesFailWithAppleDomains() async throws {
        let folder = try AudioSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = AVURLAsset(url: folder.appendingPathComponent("none.wav"))
        await #expect {
            _ = try await missing.load(.duration)
        } throws: { error in
            let error = error as NSError
            return error.domain == NSCocoaErrorDomain && error.code == CocoaError.fileReadNoSuchFile.rawValue
        }
        let text = folder.appendingPathComponent("notes.m4a")
        try Data("not audio at all".utf8).write(to: text)
        let unreadable = AVURLAsset(url: text)
        await #expect {
            _ = try await unreadable.loadTracks(withMediaType: .audio)
        } throws: { error in
            let error = error as NSError
            return error.domain == AVFoundationErrorDomain && error.code == AVErrorFileFormatNotRecognized
                && (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.domain == NSOSStatusErrorDomain
        }
        #expect(!(try await unreadable.load(.isReadable)))
        if case .failed(let failure) = unreadable.status(of: .tracks) {
            #expect(failure.code == AVErrorFileFormatNotRecognized)
        } else {
            Issue.record("the tracks of an unreadable file did not report a failure")
        }
        #expect(throws: NSError.self) { try AVAssetReader(asset: unreadable) }
    }
}
