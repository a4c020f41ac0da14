import BubbleBenchmarks
import Foundation

// bubbles-bench-pixels [FONTS-DIR]: the pixel measurer's speed (issue 14). Run it from a release
// build: swift run -c release bubbles-bench-pixels
let arguments = CommandLine.arguments.dropFirst()
if arguments.contains(where: { $0.hasPrefix("-") }) || arguments.count > 1 {
    FileHandle.standardError.write(Data("usage: bubbles-bench-pixels [FONTS-DIR]  (default Corpora/fonts)\n".utf8))
    exit(2)
}
let directory = arguments.first ?? "Corpora/fonts"
do {
    #if DEBUG
    FileHandle.standardError.write(Data("bubbles-bench-pixels: a debug build; run: swift run -c release bubbles-bench-pixels\n".utf8))
    #endif
    print(PixelBenchmark.table(try PixelBenchmark.run(fontsDirectory: directory)), terminator: "")
} catch {
    FileHandle.standardError.write(Data("bubbles-bench-pixels: \(error)\n".utf8))
    exit(1)
}
