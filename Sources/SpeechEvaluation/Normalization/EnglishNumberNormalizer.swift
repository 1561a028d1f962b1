/// Writes spelled-out English numbers in digits, as Whisper's evaluation
/// does, so "twenty five" and "25" are the same word.
///
/// ref: whisper/normalizers/english.py `EnglishNumberNormalizer`. Covered:
/// cardinals ("one hundred and five" → "105", "two thousand nineteen" →
/// "2019"), numbers read pairwise ("fourteen fifty five" → "1455"), digit
/// strings read one by one ("five five" → "55"), ordinals ("twentieth" →
/// "20th", "twenty first" → "21st"), decades ("sixties" → "60s"), decimals
/// ("one point five" → "1.5"), percent and currency ("ten percent" → "10%",
/// "five dollars" → "$5"). A lone "1" is written "one", as Whisper does.
/// The words "first" and "second" on their own stay words (they are rarely
/// numbers in speech). Works on words that have already lost punctuation.
struct EnglishNumberNormalizer: Sendable {
    static let ones: [String: Int] = [
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
        "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
        "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
        "nineteen": 19,
    ]
    static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90,
    ]
    static let multipliers: [String: Int] = [
        "hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000,
        "trillion": 1_000_000_000_000,
    ]
    /// Ordinal words: the number and the suffix its digits take.
    static let onesOrdinals: [String: (Int, String)] = [
        "first": (1, "st"), "second": (2, "nd"), "third": (3, "rd"), "fourth": (4, "th"),
        "fifth": (5, "th"), "sixth": (6, "th"), "seventh": (7, "th"), "eighth": (8, "th"),
        "ninth": (9, "th"), "tenth": (10, "th"), "eleventh": (11, "th"), "twelfth": (12, "th"),
        "thirteenth": (13, "th"), "fourteenth": (14, "th"), "fifteenth": (15, "th"),
        "sixteenth": (16, "th"), "seventeenth": (17, "th"), "eighteenth": (18, "th"),
        "nineteenth": (19, "th"),
    ]
    static let tensOrdinals: [String: Int] = [
        "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60,
        "seventieth": 70, "eightieth": 80, "ninetieth": 90,
    ]
    static let multiplierOrdinals: [String: Int] = [
        "hundredth": 100, "thousandth": 1_000, "millionth": 1_000_000, "billionth": 1_000_000_000,
    ]
    static let decades: [String: Int] = [
        "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60,
        "seventies": 70, "eighties": 80, "nineties": 90,
    ]
    /// Currency words and the symbol written before the number.
    static let currencyPrefixes: [String: String] = [
        "dollar": "$", "dollars": "$", "pound": "£", "pounds": "£", "euro": "€", "euros": "€",
    ]
    /// Ordinals that stay words when no number comes before them.
    static let ambiguousOrdinals: Set<String> = ["first", "second"]

    /// Returns `words` with spelled-out numbers replaced by digits.
    func normalize(_ words: [String]) -> [String] {
        var state = NumberAccumulator()
        for (index, word) in words.enumerated() {
            let next = index + 1 < words.count ? words[index + 1] : nil
            state.consume(word, next: next)
        }
        state.flush()
        return state.output.map { word in
            switch word {
            case "1": return "one"
            case "1s": return "ones"
            default: return word
            }
        }
    }

    /// True if `word` is a number word this normaliser reads.
    static func isNumberWord(_ word: String) -> Bool {
        ones[word] != nil || tens[word] != nil || multipliers[word] != nil
            || onesOrdinals[word] != nil || tensOrdinals[word] != nil
            || multiplierOrdinals[word] != nil || decades[word] != nil
    }
}

/// The number being read, word by word, and the words already written.
private struct NumberAccumulator {
    /// A number so far: a value that still combines arithmetically, or a
    /// string of digits read in pieces ("fourteen fifty" → "1450").
    enum Pending {
        case integer(Int)
        case digits(String)

        var text: String {
            switch self {
            case .integer(let value): return String(value)
            case .digits(let digits): return digits
            }
        }
    }

    /// What kind of word came last.
    enum Kind { case ones, tens, multiplier, point, other }

    typealias Numbers = EnglishNumberNormalizer
    var output: [String] = []
    var pending: Pending?
    var previous: Kind = .other
    var readingDecimals = false

    mutating func consume(_ word: String, next: String?) {
        if let value = Numbers.ones[word] {
            addOnes(value)
        } else if let value = Numbers.tens[word] {
            addTens(value)
        } else if let value = Numbers.multipliers[word] {
            multiply(by: value)
        } else if let (value, suffix) = Numbers.onesOrdinals[word] {
            if pending == nil, Numbers.ambiguousOrdinals.contains(word) {
                emit(word)
            } else {
                addOnes(value)
                flush(suffix: suffix)
            }
        } else if let value = Numbers.tensOrdinals[word] {
            addTens(value)
            flush(suffix: "th")
        } else if let value = Numbers.multiplierOrdinals[word] {
            multiply(by: value)
            flush(suffix: "th")
        } else if let value = Numbers.decades[word] {
            addTens(value)
            flush(suffix: "s")
        } else if word == "and", pending != nil, previous == .multiplier,
                  let next, Numbers.isNumberWord(next) {
            previous = .multiplier
        } else if word == "point", let pending, !readingDecimals,
                  let next, let digit = Numbers.ones[next], digit < 10 {
            self.pending = .digits(pending.text + ".")
            readingDecimals = true
            previous = .point
        } else if word == "percent" || word == "%" {
            attachToNumber(suffix: "%", otherwise: word)
        } else if word == "cent" || word == "cents" {
            attachToNumber(suffix: "¢", otherwise: word)
        } else if let symbol = Numbers.currencyPrefixes[word] {
            attachToNumber(prefix: symbol, otherwise: word)
        } else {
            emit(word)
        }
    }

    mutating func addOnes(_ value: Int) {
        defer { previous = .ones }
        if readingDecimals {
            if value < 10, case .digits(let digits)? = pending {
                pending = .digits(digits + String(value))
                return
            }
            flush()
        }
        switch pending {
        case nil:
            pending = .integer(value)
        case .digits(let digits):
            if previous == .tens, value < 10 {
                pending = .digits(String(digits.dropLast()) + String(value))
            } else {
                pending = .digits(digits + String(value))
            }
        case .integer(let current):
            if previous == .ones {
                pending = .digits(String(current) + String(value))
            } else if value < 10 ? current % 10 == 0 : current % 100 == 0 {
                pending = .integer(current + value)
            } else {
                pending = .digits(String(current) + String(value))
            }
        }
    }

    mutating func addTens(_ value: Int) {
        if readingDecimals { flush() }
        defer { previous = .tens }
        switch pending {
        case nil:
            pending = .integer(value)
        case .digits(let digits):
            pending = .digits(digits + String(value))
        case .integer(let current):
            if current % 100 == 0 {
                pending = .integer(current + value)
            } else {
                pending = .digits(String(current) + String(value))
            }
        }
    }

    mutating func multiply(by multiplier: Int) {
        defer { previous = .multiplier }
        switch pending {
        case nil:
            pending = .integer(multiplier)
        case .digits(let digits):
            let product = (Double(digits) ?? 0) * Double(multiplier)
            if product.rounded() == product, product < 1e15 {
                pending = .integer(Int(product))
            } else {
                pending = .digits(String(product))
            }
            readingDecimals = false
        case .integer(let current):
            let before = current / 1000 * 1000
            let (scaled, overflow) = (current % 1000).multipliedReportingOverflow(by: multiplier)
            if overflow || before > Int.max - scaled {
                flush()
                pending = .integer(multiplier)
            } else {
                pending = .integer(before + scaled)
            }
        }
    }

    /// Writes `suffix` after the number being read, or after the last word
    /// if that is a number in digits; otherwise writes `word` itself.
    mutating func attachToNumber(suffix: String = "", prefix: String = "", otherwise word: String) {
        if let pending {
            output.append(prefix + pending.text + suffix)
            self.pending = nil
            readingDecimals = false
            previous = .other
        } else if let last = output.last, !last.isEmpty,
                  last.allSatisfy({ $0.isASCIIDigit || $0 == "." }) {
            output[output.count - 1] = prefix + last + suffix
            previous = .other
        } else {
            emit(word)
        }
    }

    mutating func emit(_ word: String) {
        flush()
        output.append(word)
    }

    mutating func flush(suffix: String = "") {
        if let pending {
            output.append(pending.text + suffix)
        }
        pending = nil
        readingDecimals = false
        previous = .other
    }
}
