// swift-tools-version:6.0
import PackageDescription

// Dependencies point one way: BubbleText ← BubbleLayout ← BubbleFonts (its pixel measurer) / BubbleTerminal / BubbleLogs ← BubblesCLI ← bubbles.
// BubbleBenchmarks (the bench harnesses and their corpora) is apart, so an app that embeds the libraries does not get them;
// BubbleSamples (SeededGenerator and chat-like texts, on no other module) is what the benchmarks and the tests share.
let package = Package(
    name: "BubbleLayout",
    // Synchronization.Mutex (the layout caches' lock) is in macOS 15, iOS 18, tvOS 18, watchOS 11 and
    // visionOS 2; the libraries use nothing newer. Linux needs no entry.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "bubbles", targets: ["bubbles"]),
        .executable(name: "bubbles-bench-pixels", targets: ["bubbles-bench-pixels"]),
        .library(name: "BubbleText", targets: ["BubbleText"]),
        .library(name: "BubbleLayout", targets: ["BubbleLayout"]),
        .library(name: "BubbleFonts", targets: ["BubbleFonts"]),
    ],
    targets: [
        .target(name: "BubbleText"),
        .target(name: "BubbleLayout", dependencies: ["BubbleText"]),
        .target(name: "BubbleFonts", dependencies: ["BubbleText", "BubbleLayout"]),
        .target(name: "BubbleSamples"),
        .target(name: "BubbleBenchmarks", dependencies: ["BubbleFonts", "BubbleLayout", "BubbleLogs", "BubbleSamples", "BubbleText"]),
        .executableTarget(name: "bubbles-bench-pixels", dependencies: ["BubbleBenchmarks"]),
        .target(name: "BubbleTerminal", dependencies: ["BubbleLayout", "BubbleText"]),
        .target(name: "BubbleLogs", dependencies: ["BubbleLayout", "BubbleText"]),
        .target(name: "BubblePictures", dependencies: ["BubbleFonts", "BubbleLayout", "BubbleText", "BubbleTerminal"]),
        .target(name: "BubblesCLI", dependencies: ["BubbleText", "BubbleLayout", "BubbleTerminal", "BubbleLogs", "BubbleFonts", "BubblePictures", "BubbleBenchmarks"]),
        .executableTarget(name: "bubbles", dependencies: ["BubblesCLI", "BubbleTerminal"]),
        .target(name: "BubbleTestSupport", dependencies: ["BubbleLayout", "BubbleText"], path: "Tests/BubbleTestSupport"),
        .testTarget(name: "BubbleTextTests", dependencies: ["BubbleText", "BubbleSamples"]),
        .testTarget(name: "BubbleFontsTests", dependencies: ["BubbleFonts", "BubbleLayout", "BubbleLogs", "BubbleTestSupport", "BubbleSamples"]),
        .testTarget(name: "BubbleLayoutTests", dependencies: ["BubbleLayout", "BubbleText", "BubbleTestSupport", "BubbleSamples"]),
        .testTarget(name: "BubbleTerminalTests", dependencies: ["BubbleTerminal", "BubbleLayout", "BubbleLogs", "BubbleText", "BubbleTestSupport", "BubbleSamples"]),
        .testTarget(name: "BubbleLogsTests", dependencies: ["BubbleLogs", "BubbleLayout", "BubbleText", "BubbleTestSupport", "BubbleSamples"]),
        .testTarget(name: "GettingStartedTests", dependencies: ["BubbleLayout", "BubbleFonts"]),
        .testTarget(name: "BubblesCLITests", dependencies: ["BubblesCLI", "BubblePictures", "BubbleLogs", "BubbleLayout", "BubbleTerminal", "BubbleText", "BubbleTestSupport", "BubbleBenchmarks", "BubbleSamples"]),
    ],
    swiftLanguageModes: [.v6]
)
