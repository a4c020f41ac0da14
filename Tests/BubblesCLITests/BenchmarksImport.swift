// SeededGenerator (and the benchmark corpora some tests draw from) live in BubbleBenchmarks, out
// of the library modules an app embeds. Exported here once, so every file of this test target
// sees them as it did when they were in the libraries.
@_exported import BubbleBenchmarks
