#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place `serve` builds a `sockaddr_un`: the path's bytes copied into `sun_path`, which
/// the caller has checked they fit with their terminating zero.
enum UnixSocketAddress {
    /// `bind(fd, {AF_UNIX, path})`; returns what `bind` returns.
    static func bind(_ fd: Int32, path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        assert(bytes.count < capacity, "the socket path was checked to fit sun_path")
        guard bytes.count < capacity else { return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                #else
                Darwin.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                #endif
            }
        }
    }
}
