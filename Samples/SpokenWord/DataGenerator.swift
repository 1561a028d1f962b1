// The `datagenerator` half of Apple's SpokenWord sample: describe the phrases
// users will say with SFCustomLanguageModelData's result builder (exact
// phrases, templates over classes, custom pronunciations in X-SAMPA) and
// export the training data file the app ships and prepares at run time.
//
// The domain here is a reader for Victorian art criticism, whose painters'
// names a general language model misspells.

import Foundation
import Speech

enum DataGenerator {
    static func export(to url: URL) async throws {
        let data = SFCustomLanguageModelData(locale: Locale(identifier: "en_US"),
                                             identifier: "com.example.SpokenWord", version: "1.0") {
            SFCustomLanguageModelData.PhraseCount(phrase: "Whittemore apologized to the reader", count: 10)
            SFCustomLanguageModelData.PhraseCount(phrase: "Philip Steels", count: 10)

            // Works of each painter.
            SFCustomLanguageModelData.PhraseCountsFromTemplates(classes: [
                "painter": ["Linnell", "Birket Foster", "John Collier", "Mason"],
                "work": ["pictures", "landscapes", "idylls", "paintings"],
            ]) {
                SFCustomLanguageModelData.TemplatePhraseCountGenerator.Template("<painter>'s <work>", count: 1_000)
                SFCustomLanguageModelData.TemplatePhraseCountGenerator.Template("Mister <painter>", count: 200)
            }

            SFCustomLanguageModelData.CustomPronunciation(grapheme: "Linnell", phonemes: ["l I n @ l"])
            SFCustomLanguageModelData.CustomPronunciation(grapheme: "Birket", phonemes: ["b 3r k I t"])
            SFCustomLanguageModelData.CustomPronunciation(grapheme: "Whittemore", phonemes: ["w I t m O r", "w I t @ m O r"])
        }
        try await data.export(to: url)
        print("EXPORTED: \(url.path)")
    }
}
