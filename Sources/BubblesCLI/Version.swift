/// The `bubbles` release, printed by `--version`.
public let bubblesVersion = "0.1.0"
