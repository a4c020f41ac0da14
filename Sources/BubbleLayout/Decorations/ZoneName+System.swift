import Foundation

extension ZoneName {
    /// The file the system's zone is set by, on Linux and macOS alike: a link into a zoneinfo
    /// folder (`/usr/share/zoneinfo/Europe/Berlin`, `/var/db/timezone/zoneinfo/Europe/Berlin`) or
    /// a copy of a zone's TZif file.
    package static let localtimePath = "/etc/localtime"

    /// Where a zone came from, for the notes that say which zone times were read in.
    package enum Source: Sendable, Equatable {
        /// `TZ` named it.
        case environment
        /// `/etc/localtime` (or the device's setting) named it.
        case system
        /// Nothing named a zone we know: UTC.
        case fallback
    }

    /// The zone times are shown in when none is asked for, as `date` shows it: `TZ` when it is
    /// set (read as POSIX does, `environmentZone`), else the system's zone from `localtimePath`
    /// (`zone(atLocaltime:)`), else, on Apple platforms, the device's setting
    /// (`TimeZone.current`), else UTC. `warning` is `environmentZone`'s, for a `TZ` we cannot read.
    package static func systemZone(_ environment: [String: String], localtimePath: String? = ZoneName.localtimePath)
        -> (zone: TimeZone, warning: String?, source: Source) {
        if let value = environment["TZ"], !value.isEmpty {
            let (zone, warning) = environmentZone(environment)
            return (zone, warning, .environment)
        }
        if let localtimePath, let zone = zone(atLocaltime: localtimePath) { return (zone, nil, .system) }
        #if canImport(Darwin)
        if localtimePath != nil { return (TimeZone.current, nil, .system) }
        #endif
        return (.gmt, nil, .fallback)
    }

    /// The zone the file at `path` sets: the tz name of the zoneinfo file it links to (the link
    /// resolved, then the path after its last `zoneinfo/`); for a copy, the zoneinfo file of the
    /// same bytes beside it (`zoneinfoDirectory`), else the POSIX rule that ends a TZif file of
    /// version 2 or later. Nil when there is no such file or it names no zone.
    static func zone(atLocaltime path: String, zoneinfoDirectory: String = "/usr/share/zoneinfo") -> TimeZone? {
        let manager = FileManager.default
        if let target = try? manager.destinationOfSymbolicLink(atPath: path) {
            let resolved = target.hasPrefix("/") ? target : (path as NSString).deletingLastPathComponent + "/" + target
            let standard = (resolved as NSString).standardizingPath
            if let range = standard.range(of: "zoneinfo/", options: .backwards) {
                var name = String(standard[range.upperBound...])
                // The `posix/` and `right/` trees hold the same zones.
                for tree in ["posix/", "right/"] where name.hasPrefix(tree) { name.removeFirst(tree.count) }
                if let zone = named(name) { return zone }
            }
        }
        guard let data = manager.contents(atPath: path), data.starts(with: Array("TZif".utf8)) else { return nil }
        if let name = sameZoneFile(data, in: zoneinfoDirectory), let zone = named(name) { return zone }
        // TZif version 2 and later end with "\nRULE\n", a POSIX TZ string.
        guard data.count > 2, data.last == 0x0A,
              let start = data.dropLast().lastIndex(of: 0x0A),
              let rule = String(data: data[(start + 1)..<(data.endIndex - 1)], encoding: .ascii), !rule.isEmpty else { return nil }
        return posix(rule)
    }

    /// The name, under `directory`, of a zone file with exactly `data`'s bytes; files of another
    /// size are not read.
    private static func sameZoneFile(_ data: Data, in directory: String) -> String? {
        let manager = FileManager.default
        guard let names = manager.enumerator(atPath: directory) else { return nil }
        var candidates: [String] = []
        while let name = names.nextObject() as? String {
            guard !name.hasPrefix("posix/"), !name.hasPrefix("right/"), named(name) != nil else { continue }
            let attributes = try? manager.attributesOfItem(atPath: directory + "/" + name)
            if (attributes?[.size] as? NSNumber)?.intValue == data.count { candidates.append(name) }
        }
        // Links share a file: the canonical zone is the one `named` gives whichever is found.
        for name in candidates.sorted() where manager.contents(atPath: directory + "/" + name) == data { return name }
        return nil
    }
}
