import Foundation

/// Something the custom-language-model result builder can add to an
/// `SFCustomLanguageModelData`: a phrase count, a custom pronunciation, a
/// phrase-count generator or phrase counts from templates.
@available(macOS 14, iOS 17, visionOS 1.1, *)
public protocol DataInsertable {
    /// Adds this item's data to `data`.
    func insert(data: SFCustomLanguageModelData)
}

/// Something the template result builder can add to a
/// `TemplatePhraseCountGenerator`: a template or a compound of templates.
@available(macOS 14, iOS 17, visionOS 1.1, *)
public protocol TemplateInsertable {
    /// Adds this item's templates to `generator`.
    func insert(generator: SFCustomLanguageModelData.TemplatePhraseCountGenerator)
}

@available(macOS 14, iOS 17, visionOS 1.1, *)
extension SFCustomLanguageModelData {
    /// A result builder that collects phrase counts, pronunciations and
    /// template phrase counts from the closure of
    /// `init(locale:identifier:version:builder:)`, with `if`, `switch` and
    /// `for` support.
    @resultBuilder public struct DataInsertableBuilder {
        /// Combines statement blocks into a single product.
        public static func buildBlock(_ components: any DataInsertable...) -> any DataInsertable {
            DataInsertableGroup(components: components)
        }

        /// Enables support for `if-else` and `switch` constructs.
        public static func buildEither(first: any DataInsertable) -> any DataInsertable { first }

        /// Enables support for `if-else` and `switch` constructs.
        public static func buildEither(second: any DataInsertable) -> any DataInsertable { second }

        /// Enables support for `if` statements without an `else` clause.
        public static func buildOptional(_ component: (any DataInsertable)?) -> any DataInsertable {
            component ?? DataInsertableGroup(components: [])
        }

        /// Enables support for `for..in` loops.
        public static func buildArray(_ components: [any DataInsertable]) -> any DataInsertable {
            DataInsertableGroup(components: components)
        }
    }

    /// A result builder that collects templates for `PhraseCountsFromTemplates`,
    /// with `if`, `switch` and `for` support.
    @resultBuilder public struct TemplateInsertableBuilder {
        /// Combines statement blocks into a single product.
        public static func buildBlock(_ components: any TemplateInsertable...) -> any TemplateInsertable {
            CompoundTemplate(components)
        }

        /// Enables support for `if-else` and `switch` constructs.
        public static func buildEither(first: any TemplateInsertable) -> any TemplateInsertable { first }

        /// Enables support for `if-else` and `switch` constructs.
        public static func buildEither(second: any TemplateInsertable) -> any TemplateInsertable { second }

        /// Enables support for `if` statements without an `else` clause.
        public static func buildOptional(_ component: (any TemplateInsertable)?) -> any TemplateInsertable {
            component ?? CompoundTemplate([])
        }

        /// Enables support for `for..in` loops.
        public static func buildArray(_ components: [any TemplateInsertable]) -> any TemplateInsertable {
            CompoundTemplate(components)
        }
    }

    /// Several templates as one: what `TemplateInsertableBuilder` produces.
    /// You are not meant to use it directly.
    public struct CompoundTemplate: TemplateInsertable {
        private let components: [any TemplateInsertable]

        /// Groups `components`.
        public init(_ components: [any TemplateInsertable]) {
            self.components = components
        }

        /// Adds every component's templates to `generator`, in order.
        public func insert(generator: SFCustomLanguageModelData.TemplatePhraseCountGenerator) {
            for component in components { component.insert(generator: generator) }
        }
    }

    /// Phrase counts generated from templates over classes of values, e.g.
    /// `"<piece> to <royal> <piece> <rank>"` with `classes: ["piece": [...], ...]`.
    public struct PhraseCountsFromTemplates: DataInsertable {
        private let generator: TemplatePhraseCountGenerator

        /// Defines `classes` and collects the builder's templates.
        public init(classes: [String: [String]],
                    @SFCustomLanguageModelData.TemplateInsertableBuilder builder: () -> any TemplateInsertable) {
            let generator = TemplatePhraseCountGenerator()
            for (name, values) in classes.sorted(by: { $0.key < $1.key }) {
                generator.define(className: name, values: values)
            }
            builder().insert(generator: generator)
            self.generator = generator
        }

        /// Adds the template generator to `data`.
        public func insert(data: SFCustomLanguageModelData) {
            data.insert(phraseCountGenerator: generator)
        }
    }
}

/// The result builder's block of data items.
@available(macOS 14, iOS 17, visionOS 1.1, *)
private struct DataInsertableGroup: DataInsertable {
    let components: [any DataInsertable]

    func insert(data: SFCustomLanguageModelData) {
        for component in components { component.insert(data: data) }
    }
}
