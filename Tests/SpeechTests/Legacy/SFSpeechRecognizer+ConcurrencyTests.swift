import AVFoundation
import Foundation
import SpeechEngine
import TestSupport
import Testing
@testable import Speech

/// The legacy face used from many threads at once, as apps do: one
/// recognizer shared by many tasks, audio taps appending while the UI thread
/// ends or cancels, and buffers whose format changes mid-stream. Each test
/// states what must hold whatever the interleaving (one terminal call per
/// task, no audio after the end, no text crossing tasks); run under
/// ThreadSanitizer (Scripts/tsan.sh) they also check the face's locking.
@Suite struct SFSpeechRecognizerConcurrencyTests {
    static let taskCount = 16

    /// An environment whose N-th backend finalizes "task N".
    static func numberedEnvironment() -> SpeechTestEnvironment {
        let next = LockedState(0)
        return SpeechTestEnvironment(makeMore: {
            let number = next.withLock { value in defer { value += 1 }; return value }
            return ScriptedBackend(steps: [.init(atSeconds: 0.2, event: .volatile(Script.hypothesis("task")))],
                                   onFinish: [.final(Script.hypothesis("task \(number)")), .finished])
        })
    }

    /// A task, its request and its recorder, started on `recognizer`.
    struct Started: Sendable {
        let task: SFSpeechRecognitionTask
        let request: SFSpeechAudioBufferRecognitionRequest
        let recorder: TaskRecorder
    }

    /// Starts `count` tasks on `recognizer` from as many threads at once.
    static func startTasks(_ count: Int, on recognizer: SFSpeechRecognizer,
                           body: @Sendable (Int, Started) -> Void = { _, _ in }) -> [Started] {
        let started = LockedState([Started?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let request = SFSpeechAudioBufferRecognitionRequest()
            let recorder = TaskRecorder()
            let task = recognizer.recognitionTask(with: request, delegate: recorder)
            let entry = Started(task: task, request: request, recorder: recorder)
            started.withLock { $0[index] = entry }
            body(index, entry)
        }
        return started.withLock { $0.compactMap { $0 } }
    }

    @Test func manyTasksOnOneRecognizerFromManyThreadsEachGetTheirOwnFinalOnce() async throws {
        let environment = Self.numberedEnvironment()
        let (recognizer, queue) = environment.makeRecognizer()
        let tasks = Self.startTasks(Self.taskCount, on: recognizer) { _, started in
            for _ in 0..<4 { started.request.append(Script.buffer(seconds: 0.1)) }
            started.request.endAudio()
        }
        await environment.drain()
        #expect(tasks.count == Self.taskCount)
        var finals: [String] = []
        for started in tasks {
            let calls = started.recorder.mainCalls
            #expect(started.recorder.terminalCalls == 1)
            #expect(calls.last == .finishedSuccessfully(true), "\(calls)")
            let final = calls.compactMap { if case .finalRecognition(let text) = $0 { text } else { nil } }
            #expect(final.count == 1, "\(calls)")
            finals += final
            #expect(started.recorder.allCallsRan(on: queue))
            #expect(started.task.state == .completed)
        }
        // Every backend's text reached exactly one task: none lost, none crossed.
        #expect(Set(finals) == Set((0..<Self.taskCount).map { "task \($0)" }))
        #expect(environment.handedOut.count == Self.taskCount)
        #expect(environment.handedOut.allSatisfy { abs($0.appendedSeconds - 0.4) < 1e-3 && $0.finishCalls == 1 })
    }

    @Test func cancelRacingEndAudioEndsEachTaskOnceWithoutLaterCalls() async throws {
        let environment = Self.numberedEnvironment()
        let (recognizer, _) = environment.makeRecognizer()
        let tasks = Self.startTasks(Self.taskCount, on: recognizer) { _, started in
            started.request.append(Script.buffer(seconds: 0.3))
            // The UI thread cancels while the tap thread ends the audio.
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                if side == 0 { started.request.endAudio() } else { started.task.cancel() }
            }
        }
        await environment.drain()
        for started in tasks {
            let calls = started.recorder.mainCalls
            #expect(started.recorder.terminalCalls == 1, "\(calls)")
            let terminal = try #require(calls.lastIndex { if case .finishedSuccessfully = $0 { true } else { false } })
            #expect(terminal == calls.count - 1, "calls after the terminal one: \(calls)")
            #expect(started.task.state == .completed)
            // A cancelled task says so and has no final; a finished one has exactly one.
            let finals = calls.filter { if case .finalRecognition = $0 { true } else { false } }
            if started.task.isCancelled {
                #expect(finals.isEmpty && calls.last == .finishedSuccessfully(false), "\(calls)")
            } else {
                #expect(finals.count == 1 && calls.last == .finishedSuccessfully(true), "\(calls)")
            }
        }
    }

    @Test func finishRacingCancelEndsEachTaskOnce() async throws {
        let environment = Self.numberedEnvironment()
        let (recognizer, _) = environment.makeRecognizer()
        let tasks = Self.startTasks(Self.taskCount, on: recognizer) { _, started in
            started.request.append(Script.buffer(seconds: 0.3))
            DispatchQueue.concurrentPerform(iterations: 3) { side in
                switch side {
                case 0: started.task.finish()
                case 1: started.task.cancel()
                default: started.request.append(Script.buffer(seconds: 0.1))
                }
            }
        }
        await environment.drain()
        for started in tasks {
            #expect(started.recorder.terminalCalls == 1, "\(started.recorder.mainCalls)")
            #expect(started.task.state == .completed)
            #expect(started.task.isFinishing || started.task.isCancelled)
        }
        // Every backend was told to stop exactly once, one way or the other.
        #expect(environment.handedOut.allSatisfy { $0.finishCalls + $0.cancelCalls >= 1 })
    }

    @Test func appendAfterEndAudioIsIgnoredEvenFromOtherThreads() async throws {
        let environment = Self.numberedEnvironment()
        let (recognizer, _) = environment.makeRecognizer()
        let tasks = Self.startTasks(4, on: recognizer) { _, started in
            started.request.append(Script.buffer(seconds: 0.5))
            // Taps on 8 threads keep appending while one of them ends the audio.
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for step in 0..<10 {
                    if thread == 0, step == 5 { started.request.endAudio() }
                    started.request.append(Script.buffer(seconds: 0.01))
                }
            }
            started.request.append(Script.buffer(seconds: 1))
        }
        await environment.drain()
        for started in tasks {
            #expect(started.recorder.terminalCalls == 1)
            #expect(started.recorder.mainCalls.last == .finishedSuccessfully(true))
        }
        for backend in environment.handedOut {
            let verbs = backend.verbs
            let finish = try #require(verbs.firstIndex(of: .finish))
            let late = verbs[finish...].filter { if case .append = $0 { true } else { false } }
            #expect(late.isEmpty, "audio reached the session after endAudio(): \(verbs)")
            // What was appended before the end arrived whole: 0.5 s plus whole 10 ms buffers.
            let extra = (backend.appendedSeconds - 0.5) / 0.01
            #expect(backend.appendedSeconds < 1.4 && abs(extra - extra.rounded()) < 1e-3, "\(backend.appendedSeconds)")
        }
    }

    @Test func formatsChangingMidStreamAreConvertedAndFloat64FailsWithAudioReadFailed() async throws {
        let environment = SpeechTestEnvironment()
        let session = ScriptedBackend(steps: [.init(atSeconds: 0.4, event: .volatile(Script.hypothesis("hello")))],
                                      onFinish: [.final(Script.hypothesis("hello")), .finished])
        let (task, request, recorder) = environment.startBufferTask(on: session).parts
        // 16 kHz mono, then 44.1 kHz stereo, then 48 kHz mono Int16: each converted as it comes.
        request.append(Script.buffer(seconds: 0.5))
        request.append(try Self.tone(seconds: 0.5, rate: 44_100, channels: 2, format: .pcmFormatFloat32))
        request.append(try Self.tone(seconds: 0.5, rate: 48_000, channels: 1, format: .pcmFormatInt16))
        await environment.drain()
        // (The resampler may hold or add a few milliseconds at a rate change.)
        let converted = session.appendedSeconds
        #expect(abs(converted - 1.5) < 0.02, "\(converted)")
        #expect(recorder.mainCalls.contains(.hypothesis("hello")))
        // Float64 has no public sample access here: the task ends with 2 (audioReadFailed), once.
        request.append(try Self.tone(seconds: 0.5, rate: 16_000, channels: 1, format: .pcmFormatFloat64))
        request.append(Script.buffer(seconds: 0.5))
        await environment.drain()
        #expect(recorder.terminalCalls == 1)
        #expect(recorder.mainCalls.last == .finishedSuccessfully(false), "\(recorder.mainCalls)")
        let error = try #require(task.error as? SFSpeechError)
        #expect(error.code == .audioReadFailed, "\(error)")
        // Apple's description, and the reason with the fix beside it.
        let reason = (error as NSError).localizedFailureReason ?? ""
        #expect(reason.contains("Float32, Int16 or Int32") && reason.contains("AVAudioConverter"), "\(reason)")
        #expect(session.appendedSeconds == converted, "audio after the failure reached the session")
    }

    /// `seconds` of a quiet tone in the given layout.
    static func tone(seconds: Double, rate: Double, channels: AVAudioChannelCount,
                     format: AVAudioCommonFormat) throws -> AVAudioPCMBuffer {
        let audioFormat = try #require(AVAudioFormat(commonFormat: format, sampleRate: rate, channels: channels,
                                                     interleaved: false))
        let frames = AVAudioFrameCount(seconds * rate)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: audioFormat, frameCapacity: frames))
        buffer.frameLength = frames
        for channel in 0..<Int(channels) {
            for index in 0..<Int(frames) {
                let value = 0.1 * sin(2 * .pi * 150 * Double(index) / rate)
                if let floats = buffer.floatChannelData { floats[channel][index] = Float(value) }
                if let ints = buffer.int16ChannelData { ints[channel][index] = Int16(value * 32_767) }
            }
        }
        return buffer
    }
}
