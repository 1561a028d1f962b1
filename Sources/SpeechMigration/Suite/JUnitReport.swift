import Foundation

/// Writes a `SuiteResult` as JUnit XML for CI: one `testsuite`, one
/// `testcase` per suite case and path check, a `failure` element (with the
/// reason and the word diff) for each failed check. No timestamps or
/// durations, so the file is stable for the same results.
public enum JUnitReport {
    /// The JUnit XML document.
    public static func xml(for result: SuiteResult) -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append(#"<testsuites name="\#(escape(result.name))" tests="\#(result.checkCount)" "#
                     + #"failures="\#(result.failureCount)">"#)
        lines.append(#"  <testsuite name="\#(escape(result.name))" tests="\#(result.checkCount)" "#
                     + #"failures="\#(result.failureCount)" errors="0" skipped="0">"#)
        for item in result.cases {
            for check in item.checks {
                let head = #"    <testcase classname="\#(escape(result.name)).\#(escape(item.id))" "#
                    + #"name="\#(escape(check.name))""#
                if check.passed {
                    lines.append(head + "/>")
                } else {
                    lines.append(head + ">")
                    lines.append(#"      <failure message="\#(escape(check.message))">\#(escape(failureBody(item, check)))</failure>"#)
                    lines.append("    </testcase>")
                }
            }
        }
        lines.append("  </testsuite>")
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The check's message followed by every path's transcript.
    private static func failureBody(_ item: SuiteCaseResult, _ check: SuiteCheck) -> String {
        ([check.message] + item.outcomes.map { "\($0.path.rawValue): \($0.transcript)" }).joined(separator: "\n")
    }

    /// XML attribute and text escaping.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
