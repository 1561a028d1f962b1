import Testing
@testable import SpeechEvaluation

@Suite struct EnglishNumberNormalizerTests {
    let numbers = EnglishNumberNormalizer()

    func normalize(_ text: String) -> String {
        numbers.normalize(text.split(separator: " ").map(String.init)).joined(separator: " ")
    }

    @Test(arguments: [
        ("twenty five", "25"),
        ("one hundred and five", "105"),
        ("two thousand nineteen", "2019"),
        ("two thousand three hundred", "2300"),
        ("one million two hundred thousand", "1200000"),
        ("fourteen fifty five", "1455"),
        ("eighteen thirteen", "1813"),
        ("nineteen ninety", "1990"),
        ("five five", "55"),
        ("three hundred", "300"),
        ("zero", "0"),
        ("hundred", "100"),
    ])
    func cardinals(_ input: String, _ expected: String) {
        #expect(normalize(input) == expected)
    }

    @Test func ordinals() {
        #expect(normalize("the twentieth time") == "the 20th time")
        #expect(normalize("the twenty first century") == "the 21st century")
        #expect(normalize("the fifteenth century") == "the 15th century")
        #expect(normalize("the hundredth day") == "the 100th day")
        #expect(normalize("third") == "3rd")
    }

    @Test func ambiguousOrdinalsStayWordsAlone() {
        #expect(normalize("first of all wait a second") == "first of all wait a second")
    }

    @Test func decadesDecimalsPercentCurrency() {
        #expect(normalize("the sixties") == "the 60s")
        #expect(normalize("one point five") == "1.5")
        #expect(normalize("three point one four") == "3.14")
        #expect(normalize("ten percent") == "10%")
        #expect(normalize("10 percent") == "10%")
        #expect(normalize("five dollars") == "$5")
        #expect(normalize("twenty cents") == "20¢")
    }

    @Test func loneOneIsWritten() {
        #expect(normalize("one of them") == "one of them")
        #expect(normalize("1 of them") == "one of them")
        #expect(normalize("one two three") == "123")
    }

    @Test func andOutsideNumbersStays() {
        #expect(normalize("salt and pepper") == "salt and pepper")
        #expect(normalize("two and three") == "2 and 3")
        #expect(normalize("a hundred and") == "a 100 and")
    }

    @Test func wordsBetweenNumbersSeparateThem() {
        #expect(normalize("ten of clubs four queen of clubs") == "10 of clubs 4 queen of clubs")
    }

    @Test func hugeNumbersDoNotOverflow() {
        #expect(!normalize("nine hundred trillion trillion trillion").isEmpty)
    }
}
