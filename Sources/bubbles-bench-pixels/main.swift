import BubbleBenchmarks
import Foundation

// bubbles-bench-pixels [--corpus sweep|synthetic] [FONTS-DIR]: the pixel measurer's speed.
// Run it from a release build: swift run -c release bubbles-bench-pixels. --corpus keeps one of
// the two text sets (so callgrind can count each apart).
var arguments = Array(CommandLine.arguments.dropFirst())
var corpus = "both"
if let flag = arguments.firstIndex(of: "--corpus"), flag + 1 < arguments.count, ["sweep", "synthetic"].contains(arguments[flag + 1]) {
    corpus = arguments[flag + 1]
    arguments.removeSubrange(flag...(flag + 1))
}
if arguments.contains(where: { $0.hasPrefix("-") }) || arguments.count > 1 {
    FileHandle.standardError.write(Data("usage: bubbles-bench-pixels [--corpus sweep|synthetic] [FONTS-DIR]  (default Corpora/fonts)\n".utf8))
    Foundation.exit(2)
}
let directory = arguments.first ?? "Corpora/fonts"
do {
    #if DEBUG
    FileHandle.standardError.write(Data("bubbles-bench-pixels: a debug build; run: swift run -c release bubbles-bench-pixels\n".utf8))
    #endif
    let synthetic = corpus == "sweep" ? [] : PixelBenchmark.syntheticTexts()
    print(PixelBenchmark.table(try PixelBenchmark.run(fontsDirectory: directory, syntheticTexts: synthetic,
                                                      sweepTexts: corpus != "synthetic")), terminator: "")
} catch {
    FileHandle.standardError.write(Data("bubbles-bench-pixels: \(error)\n".utf8))
    Foundation.exit(1)
}
