import Foundation

extension SFSpeechRecognizer {
    /// Starts or stops the availability timer as a delegate comes and goes.
    func updateAvailabilityMonitor() {
        let wantsMonitor = delegate != nil
        let interval = availabilityPollInterval
        let scheduler = scheduler
        monitorLock.withLock {
            monitor?.cancel()
            monitor = nil
            guard wantsMonitor else {
                lastReportedAvailability = nil
                return
            }
            if lastReportedAvailability == nil { lastReportedAvailability = isAvailable }
            monitor = scheduler.repeating(interval) { [weak self] in self?.checkAvailability() }
        }
    }

    /// Compares availability with the last report and tells the delegate on
    /// `queue` when it changed.
    func checkAvailability() {
        let available = isAvailable
        let changed = monitorLock.withLock {
            guard let last = lastReportedAvailability, last != available else { return false }
            lastReportedAvailability = available
            return true
        }
        guard changed else { return }
        scheduler.operation(queue) { [weak self] in
            guard let self, let delegate = self.delegate else { return }
            delegate.speechRecognizer(self, availabilityDidChange: available)
        }
    }
}
