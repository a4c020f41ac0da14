// Generates Sources/BubbleLayout/Decorations/ZoneNameTable.swift from the tz database's compact
// text form, tzdata.zi (Debian's tzdata package installs it as /usr/share/zoneinfo/tzdata.zi):
// every zone name (`Z` lines) and link name (`L` lines), each with the zone it stands for, so
// `--tz` can read any of them in any case and the result is the canonical zone. Run from the
// package root:
//
//     swiftc -O Tools/generate-zone-names.swift -o /tmp/generate-zone-names
//     /tmp/generate-zone-names /usr/share/zoneinfo/tzdata.zi > Sources/BubbleLayout/Decorations/ZoneNameTable.swift
//
// .ci/run does the same and compares, when the installed tzdata is the version the table says.

import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(("generate-zone-names: " + message + "\n").data(using: .utf8)!)
    exit(1)
}

guard CommandLine.arguments.count == 2 else { fail("usage: generate-zone-names TZDATA.ZI > OUTPUT_FILE") }
let path = CommandLine.arguments[1]
guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
    fail("cannot read \(path)")
}

var version = "unknown"
var zones: Set<String> = []
var links: [String: String] = [:]
for line in text.split(separator: "\n") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    if fields.count >= 3, fields[0] == "#", fields[1] == "version" { version = String(fields[2]) }
    if fields.count >= 2, fields[0] == "Z" { zones.insert(String(fields[1])) }
    if fields.count >= 3, fields[0] == "L" { links[String(fields[2])] = String(fields[1]) }
}
guard !zones.isEmpty else { fail("\(path) has no zone lines: is it tzdata.zi?") }

/// The zone a name finally stands for: links may, in principle, point at other links.
func target(_ name: String) -> String {
    var current = name
    var seen: Set<String> = []
    while let next = links[current], !zones.contains(current) {
        guard seen.insert(current).inserted else { fail("link cycle through \(name)") }
        current = next
    }
    guard zones.contains(current) else { fail("link \(name) leads to \(current), which is no zone") }
    return current
}

let names = zones.union(links.keys).sorted()
for name in names where !name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "\"" && $0 != "\\" }) {
    fail("zone name \(name) is not plain ASCII")
}
var out = """
// GENERATED FILE: do not edit. Regenerate from the tz database with
//
//     swiftc -O Tools/generate-zone-names.swift -o /tmp/generate-zone-names
//     /tmp/generate-zone-names /usr/share/zoneinfo/tzdata.zi > Sources/BubbleLayout/Decorations/ZoneNameTable.swift
//
// tz database \(version): \(zones.count) zones and \(links.count) links.

extension ZoneName {
    /// The tz database's version the names come from.
    static let databaseVersion = "\(version)"

    /// Every zone and link name of the tz database, sorted, each with the zone it stands for
    /// (itself for a zone, the target for a link), as "name zone" or just "name" for a zone.
    static let databaseNames: [String] = [

"""
for name in names {
    let zone = target(name)
    out += zone == name ? "        \"\(name)\",\n" : "        \"\(name) \(zone)\",\n"
}
out += "    ]\n}\n"
FileHandle.standardOutput.write(out.data(using: .utf8)!)
