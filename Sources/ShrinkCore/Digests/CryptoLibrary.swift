import CShrinkCrypto

/// The system's libcrypto (OpenSSL 3), loaded with dlopen the first time a digest is made (linked, every process would
/// map it at start). Digests have no fallback: ``SHA256`` and the HMACs stop the process, saying why, when it is missing.
package enum CryptoLibrary {
    /// Loads libcrypto (the first call; later ones cost an atomic load). Fails with `.unsupportedFeature` saying why it
    /// did not load: a server checks this before it starts.
    package static func load() throws(ImageError) {
        guard cshrink_crypto_load() == 0 else {
            throw ImageError.libraryDidNotLoad(
                "digests (cache keys, ETags, signatures) need libcrypto", debian: "libssl3",
                reason: cshrink_crypto_load_error())
        }
    }

    /// Stops the process after `digest` failed: with the loader's message when libcrypto did not load.
    static func failed(_ digest: String) -> Never {
        do { try load() } catch { fatalError(error.message) }
        fatalError("libcrypto's \(digest) failed")
    }
}
