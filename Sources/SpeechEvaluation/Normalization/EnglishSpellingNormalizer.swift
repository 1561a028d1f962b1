/// Rewrites British spellings as American ones, so "colour" and "color"
/// score as the same word.
///
/// Whisper's evaluation uses a list of about 1,700 words
/// (ref: whisper/normalizers/english.json); this is a shorter, hand-written
/// list of the common patterns (-our/-or, -ise/-ize, -re/-er, -ogue/-og,
/// doubled "l", -ence/-ense) and frequent single words. Inflected forms
/// ("colours", "realised") are listed where they are common.
struct EnglishSpellingNormalizer: Sendable {
    static let americanSpelling: [String: String] = [
        // -our → -or
        "colour": "color", "colours": "colors", "coloured": "colored", "favour": "favor",
        "favourite": "favorite", "favourites": "favorites", "favoured": "favored",
        "honour": "honor", "honours": "honors", "honoured": "honored", "humour": "humor",
        "labour": "labor", "neighbour": "neighbor", "neighbours": "neighbors",
        "neighbourhood": "neighborhood", "behaviour": "behavior", "behaviours": "behaviors",
        "harbour": "harbor", "rumour": "rumor", "rumours": "rumors", "vapour": "vapor",
        "flavour": "flavor", "flavours": "flavors", "odour": "odor", "armour": "armor",
        "endeavour": "endeavor", "splendour": "splendor", "vigour": "vigor",
        "glamour": "glamor", "parlour": "parlor", "savour": "savor", "valour": "valor",
        // -ise → -ize
        "realise": "realize", "realised": "realized", "realising": "realizing",
        "recognise": "recognize", "recognised": "recognized", "organise": "organize",
        "organised": "organized", "organisation": "organization",
        "organisations": "organizations", "apologise": "apologize",
        "apologised": "apologized", "criticise": "criticize", "emphasise": "emphasize",
        "memorise": "memorize", "summarise": "summarize", "authorise": "authorize",
        "civilisation": "civilization", "specialise": "specialize",
        "specialised": "specialized", "characterise": "characterize", "analyse": "analyze",
        "analysed": "analyzed", "paralyse": "paralyze", "sympathise": "sympathize",
        // -re → -er
        "centre": "center", "centres": "centers", "theatre": "theater",
        "theatres": "theaters", "metre": "meter", "metres": "meters", "litre": "liter",
        "litres": "liters", "fibre": "fiber", "sombre": "somber", "spectre": "specter",
        "calibre": "caliber", "sabre": "saber", "lustre": "luster",
        // -ogue → -og
        "catalogue": "catalog", "dialogue": "dialog", "analogue": "analog",
        // doubled l
        "travelled": "traveled", "travelling": "traveling", "traveller": "traveler",
        "travellers": "travelers", "cancelled": "canceled", "cancelling": "canceling",
        "labelled": "labeled", "modelling": "modeling", "jewellery": "jewelry",
        "quarrelled": "quarreled", "marvellous": "marvelous", "counsellor": "counselor",
        // -ence → -ense
        "defence": "defense", "offence": "offense", "licence": "license", "pretence": "pretense",
        // single words
        "grey": "gray", "greyish": "grayish", "programme": "program",
        "programmes": "programs", "cheque": "check", "tyre": "tire", "tyres": "tires",
        "plough": "plow", "aluminium": "aluminum", "mould": "mold", "moustache": "mustache",
        "pyjamas": "pajamas", "storey": "story", "kerb": "curb", "draught": "draft",
        "sceptical": "skeptical", "manoeuvre": "maneuver", "judgement": "judgment",
        "ageing": "aging", "enrol": "enroll", "fulfil": "fulfill", "skilful": "skillful",
    ]

    /// Returns `words` with each British spelling replaced.
    func normalize(_ words: [String]) -> [String] {
        words.map { Self.americanSpelling[$0] ?? $0 }
    }
}
