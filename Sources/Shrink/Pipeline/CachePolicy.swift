/// Which caches a request may read and write.
public struct CachePolicy: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Do not look in the memory cache.
    public static let skipMemoryCacheRead = CachePolicy(rawValue: 1 << 0)
    /// Do not store the result in the memory cache.
    public static let skipMemoryCacheWrite = CachePolicy(rawValue: 1 << 1)
    /// Do not look in the disk cache.
    public static let skipDiskCacheRead = CachePolicy(rawValue: 1 << 2)
    /// Do not store the result in the disk cache.
    public static let skipDiskCacheWrite = CachePolicy(rawValue: 1 << 3)
    /// Neither read nor write the memory cache.
    public static let skipMemoryCache: CachePolicy = [.skipMemoryCacheRead, .skipMemoryCacheWrite]
    /// Neither read nor write the disk cache.
    public static let skipDiskCache: CachePolicy = [.skipDiskCacheRead, .skipDiskCacheWrite]
}
