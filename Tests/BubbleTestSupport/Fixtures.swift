import Foundation

/// UTC, the zone tests lay out and read dates in.
public let utc = TimeZone(identifier: "UTC")!

/// The repository's Corpora/ folder, found from this file's path.
public let corpora = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpora")

/// The path of `relative` under Corpora/.
public func corpus(_ relative: String) -> String { corpora.appendingPathComponent(relative).path }
