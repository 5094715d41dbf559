#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open descriptors (RLIMIT_NOFILE): every open connection is one.
public enum DescriptorLimit {
    /// Raises the soft limit towards `count`, never above the hard limit; returns the soft limit now.
    @discardableResult
    public static func raise(to count: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        if limit.rlim_cur < rlim_t(count) {
            limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
            _ = setrlimit(resource, &limit)
        }
        return Int(limit.rlim_cur)
    }

    #if os(Linux)
    static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    static let resource = RLIMIT_NOFILE
    #endif
}
