/// The 99 languages Whisper's multilingual models know, in the order of their
/// language tokens (`<|en|>` is the first language token, `<|su|>` the last).
///
/// ref: openai/whisper whisper/tokenizer.py `LANGUAGES` (without `yue`, which
/// only large-v3 models have).
public enum WhisperLanguages {
    /// The language codes in token order: `codes[i]`'s token is the first
    /// language token plus `i`. Mostly ISO 639-1; `haw` (Hawaiian) and `jw`
    /// (Javanese, Whisper's spelling) are the exceptions.
    public static let codes: [String] = table.map(\.code)

    /// Each code's English name, capitalised (`"es"` → `"Spanish"`).
    public static let names: [String: String] = Dictionary(
        uniqueKeysWithValues: table.map { ($0.code, $0.name) })

    /// The code for an English language name, compared case-insensitively
    /// (`"spanish"` → `"es"`), or `nil` when no language has that name.
    public static func code(forName name: String) -> String? {
        let wanted = name.lowercased()
        return table.first { $0.name.lowercased() == wanted }?.code
    }

    /// Each code's position in `codes`, for constant-time lookups.
    static let indexByCode: [String: Int] = Dictionary(
        uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })

    private static let table: [(code: String, name: String)] = [
        ("en", "English"), ("zh", "Chinese"), ("de", "German"), ("es", "Spanish"),
        ("ru", "Russian"), ("ko", "Korean"), ("fr", "French"), ("ja", "Japanese"),
        ("pt", "Portuguese"), ("tr", "Turkish"), ("pl", "Polish"), ("ca", "Catalan"),
        ("nl", "Dutch"), ("ar", "Arabic"), ("sv", "Swedish"), ("it", "Italian"),
        ("id", "Indonesian"), ("hi", "Hindi"), ("fi", "Finnish"), ("vi", "Vietnamese"),
        ("he", "Hebrew"), ("uk", "Ukrainian"), ("el", "Greek"), ("ms", "Malay"),
        ("cs", "Czech"), ("ro", "Romanian"), ("da", "Danish"), ("hu", "Hungarian"),
        ("ta", "Tamil"), ("no", "Norwegian"), ("th", "Thai"), ("ur", "Urdu"),
        ("hr", "Croatian"), ("bg", "Bulgarian"), ("lt", "Lithuanian"), ("la", "Latin"),
        ("mi", "Maori"), ("ml", "Malayalam"), ("cy", "Welsh"), ("sk", "Slovak"),
        ("te", "Telugu"), ("fa", "Persian"), ("lv", "Latvian"), ("bn", "Bengali"),
        ("sr", "Serbian"), ("az", "Azerbaijani"), ("sl", "Slovenian"), ("kn", "Kannada"),
        ("et", "Estonian"), ("mk", "Macedonian"), ("br", "Breton"), ("eu", "Basque"),
        ("is", "Icelandic"), ("hy", "Armenian"), ("ne", "Nepali"), ("mn", "Mongolian"),
        ("bs", "Bosnian"), ("kk", "Kazakh"), ("sq", "Albanian"), ("sw", "Swahili"),
        ("gl", "Galician"), ("mr", "Marathi"), ("pa", "Punjabi"), ("si", "Sinhala"),
        ("km", "Khmer"), ("sn", "Shona"), ("yo", "Yoruba"), ("so", "Somali"),
        ("af", "Afrikaans"), ("oc", "Occitan"), ("ka", "Georgian"), ("be", "Belarusian"),
        ("tg", "Tajik"), ("sd", "Sindhi"), ("gu", "Gujarati"), ("am", "Amharic"),
        ("yi", "Yiddish"), ("lo", "Lao"), ("uz", "Uzbek"), ("fo", "Faroese"),
        ("ht", "Haitian Creole"), ("ps", "Pashto"), ("tk", "Turkmen"), ("nn", "Nynorsk"),
        ("mt", "Maltese"), ("sa", "Sanskrit"), ("lb", "Luxembourgish"), ("my", "Myanmar"),
        ("bo", "Tibetan"), ("tl", "Tagalog"), ("mg", "Malagasy"), ("as", "Assamese"),
        ("tt", "Tatar"), ("haw", "Hawaiian"), ("ln", "Lingala"), ("ha", "Hausa"),
        ("ba", "Bashkir"), ("jw", "Javanese"), ("su", "Sundanese"),
    ]
}
