import Foundation

@available(macOS 14, iOS 17, visionOS 1.1, *)
extension SFCustomLanguageModelData {
    /// The base class of generators that produce `PhraseCount`s through an
    /// asynchronous iterator; `TemplatePhraseCountGenerator` is the concrete one.
    ///
    /// The base generator produces nothing.
    public class PhraseCountGenerator: Hashable, Codable, AsyncSequence, DataInsertable {
        /// The iterator type.
        public typealias AsyncIterator = SFCustomLanguageModelData.PhraseCountGenerator.Iterator
        /// The generated element: a phrase and its count.
        public typealias Element = SFCustomLanguageModelData.PhraseCount

        /// Creates an empty generator.
        public init() {}

        /// Creates the iterator over the generated phrase counts.
        public func makeAsyncIterator() -> SFCustomLanguageModelData.PhraseCountGenerator.Iterator {
            Iterator()
        }

        /// The base iterator: the end of the sequence straight away.
        public class Iterator: AsyncIteratorProtocol {
            /// The generated element: a phrase and its count.
            public typealias Element = SFCustomLanguageModelData.PhraseCount

            init() {}

            /// The next phrase count, or `nil` at the end.
            public func next() async throws -> SFCustomLanguageModelData.PhraseCount? { nil }
        }

        /// Equal when both generators are of the same kind with the same content.
        public static func == (lhs: SFCustomLanguageModelData.PhraseCountGenerator,
                               rhs: SFCustomLanguageModelData.PhraseCountGenerator) -> Bool {
            lhs === rhs || lhs.hasSameContent(as: rhs)
        }

        /// Hashes the generator's content (nothing for the base generator).
        public func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(PhraseCountGenerator.self))
        }

        /// Whether `other` generates the same phrase counts; subclasses refine it.
        func hasSameContent(as other: PhraseCountGenerator) -> Bool {
            type(of: other) == PhraseCountGenerator.self && type(of: self) == PhraseCountGenerator.self
        }

        /// Adds this generator to `data` (what the result builder calls).
        public func insert(data: SFCustomLanguageModelData) {
            data.insert(phraseCountGenerator: self)
        }

        /// Encodes nothing: the base generator has no content.
        public func encode(to encoder: any Encoder) throws {
            _ = encoder.container(keyedBy: EmptyKeys.self)
        }

        /// Decodes a base generator.
        public required init(from decoder: any Decoder) throws {}

        private enum EmptyKeys: CodingKey {}
    }

    /// A `PhraseCountGenerator` that expands templates over classes of values.
    ///
    /// `insert(template: "<piece> to <square>", count: 1_000)` with classes
    /// `piece` and `square` generates 1,000 samples in total, spread evenly
    /// over the combinations of the classes' values.
    /// - Note: On Linux, when a template has more combinations than samples,
    ///   `count` combinations are taken at even steps through them (each with
    ///   count 1), so generation stays bounded by `count`.
    public class TemplatePhraseCountGenerator: SFCustomLanguageModelData.PhraseCountGenerator {
        private var templates: [Template] = []
        private var classes: [String: [String]] = [:]

        /// A template string (class names in angle brackets) and the number of
        /// samples it generates in total.
        public struct Template: Hashable, Codable, TemplateInsertable {
            /// The template text, e.g. `"<piece> to <royal> <piece> <rank>"`.
            public let body: String
            /// The total number of samples the template expands to.
            public let count: Int

            /// A template and its total sample count.
            public init(_ body: String, count: Int) {
                self.body = body
                self.count = count
            }

            /// Adds the template to `generator` (what the result builder calls).
            public func insert(generator: SFCustomLanguageModelData.TemplatePhraseCountGenerator) {
                generator.insert(template: body, count: count)
            }
        }

        /// Iterates the phrase counts of the templates, in template order.
        public class Iterator: SFCustomLanguageModelData.PhraseCountGenerator.Iterator {
            private let templates: [Template]
            private let templateClasses: [String: [String]]
            private var templateIndex = 0
            private var current: TemplateExpansion?
            private var step = 0

            /// An iterator over `templates` expanded with `templateClasses`.
            public init(templates: [SFCustomLanguageModelData.TemplatePhraseCountGenerator.Template],
                        templateClasses: [String: [String]]) {
                self.templates = templates
                self.templateClasses = templateClasses
            }

            /// The next phrase count, or `nil` after the last template.
            /// - Throws: `SFSpeechError(.undefinedTemplateClassName)` when a
            ///   template names an undefined (or empty) class or has an
            ///   unclosed `<`.
            public override func next() async throws -> SFCustomLanguageModelData.PhraseCount? {
                while true {
                    if let expansion = current, step < expansion.sampleCount {
                        defer { step += 1 }
                        return expansion.phraseCount(at: step)
                    }
                    guard templateIndex < templates.count else { return nil }
                    current = try TemplateExpansion(templates[templateIndex], classes: templateClasses)
                    templateIndex += 1
                    step = 0
                }
            }
        }

        /// Adds a template; class names appear in angle brackets.
        /// - Parameters:
        ///   - template: the text, possibly with `<class>` references.
        ///   - count: the total number of samples the template expands to.
        public func insert(template: String, count: Int) {
            templates.append(Template(template, count: count))
        }

        /// Defines (or redefines) a class of values that templates reference
        /// as `<className>`.
        public func define(className: String, values: [String]) {
            classes[className] = values
        }

        /// The iterator over the expanded templates.
        public override func makeAsyncIterator() -> SFCustomLanguageModelData.PhraseCountGenerator.Iterator {
            Iterator(templates: templates, templateClasses: classes)
        }

        /// Equal when the templates and classes are equal.
        public static func == (lhs: SFCustomLanguageModelData.TemplatePhraseCountGenerator,
                               rhs: SFCustomLanguageModelData.TemplatePhraseCountGenerator) -> Bool {
            lhs.templates == rhs.templates && lhs.classes == rhs.classes
        }

        override func hasSameContent(as other: PhraseCountGenerator) -> Bool {
            guard let other = other as? TemplatePhraseCountGenerator else { return false }
            return self == other
        }

        /// Hashes the templates and classes.
        public override func hash(into hasher: inout Hasher) {
            hasher.combine(templates)
            hasher.combine(classes)
        }

        /// Creates a generator with no templates and no classes.
        public override init() {
            super.init()
        }

        private enum CodingKeys: String, CodingKey { case templates, classes }

        /// Encodes the templates and classes (unexpanded).
        public override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(templates, forKey: .templates)
            try container.encode(classes, forKey: .classes)
        }

        /// Decodes a generator written by `encode(to:)`.
        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            templates = try container.decodeIfPresent([Template].self, forKey: .templates) ?? []
            classes = try container.decodeIfPresent([String: [String]].self, forKey: .classes) ?? [:]
            super.init()
        }

        /// The expansion split the way the exported file keeps it: phrases of
        /// templates with classes, phrases of literal templates (no class),
        /// and each class value with the number of samples that use it.
        /// - Throws: `SFSpeechError(.undefinedTemplateClassName)` as `next()` does.
        func exportParts() throws -> (generated: [PhraseCount], literal: [PhraseCount], values: [String: Int]) {
            var generated: [PhraseCount] = [], literal: [PhraseCount] = [], values: [String: Int] = [:]
            for template in templates {
                let expansion = try TemplateExpansion(template, classes: classes)
                let slots = expansion.slotValues
                let phrases = (0..<expansion.sampleCount).map(expansion.phraseCount(at:))
                if slots.isEmpty {
                    literal += phrases
                    continue
                }
                generated += phrases
                for slot in slots {
                    for value in slot { values[value, default: 0] &+= Swift.max(1, expansion.sampleTotal / slot.count) }
                }
            }
            return (generated, literal, values)
        }

        /// `generator` as a template generator for encoding (a base generator
        /// has no content, so it becomes an empty one).
        static func encodable(_ generator: PhraseCountGenerator) -> TemplatePhraseCountGenerator {
            (generator as? TemplatePhraseCountGenerator) ?? TemplatePhraseCountGenerator()
        }
    }
}
