/// The conversations of an export that `--channel` keeps: those whose title or id is `wanted`
/// (all of them when `wanted` is nil). When none is, the error names what the export has (at most
/// twelve titles), so one run tells the user what to type.
func chosenConversations<Item>(_ all: [Item], wanted: String?, file: String,
                               title: (Item) -> String, id: (Item) -> String) throws(LogInputError) -> [Item] {
    guard let wanted else { return all }
    let chosen = all.filter { title($0) == wanted || id($0) == wanted }
    guard chosen.isEmpty else { return chosen }
    let list = all.prefix(12).map { "\"\(DiagnosticText.quoted(title($0)))\"" }.joined(separator: ", ")
    throw LogInputError(file: file, message: "no conversation named \"\(DiagnosticText.quoted(wanted))\"; the export has \(all.count): \(list)\(all.count > 12 ? ", …" : "")", kind: .conversationNotFound)
}
