import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a test only when the shared corpus (../shared/corpus) is present; without it Swift Testing reports the
    /// test as skipped, by name and with this reason, instead of letting it pass having checked nothing.
    public static var needsCorpus: Self { .enabled(if: Corpus.isPresent, "needs the shared corpus (../shared/corpus)") }
}
