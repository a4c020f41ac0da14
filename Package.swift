// swift-tools-version:6.0
import PackageDescription

// Dependencies point one way: BubbleText ← BubbleLayout ← BubbleFonts (its pixel measurer) / BubbleTerminal / BubbleLogs ← BubblesCLI ← bubbles.
// BubbleBenchmarks (the bench harnesses, their corpora and SeededGenerator) is apart, so an app that embeds the libraries does not get them.
let package = Package(
    name: "BubbleLayout",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "bubbles", targets: ["bubbles"]),
        .executable(name: "bubbles-bench-pixels", targets: ["bubbles-bench-pixels"]),
        .library(name: "BubbleText", targets: ["BubbleText"]),
        .library(name: "BubbleLayout", targets: ["BubbleLayout"]),
    ],
    targets: [
        .target(name: "BubbleText"),
        .target(name: "BubbleLayout", dependencies: ["BubbleText"]),
        .target(name: "BubbleFonts", dependencies: ["BubbleText", "BubbleLayout"]),
        .target(name: "BubbleBenchmarks", dependencies: ["BubbleFonts", "BubbleLayout", "BubbleLogs", "BubbleText"]),
        .executableTarget(name: "bubbles-bench-pixels", dependencies: ["BubbleBenchmarks"]),
        .target(name: "BubbleTerminal", dependencies: ["BubbleLayout", "BubbleText"]),
        .target(name: "BubbleLogs", dependencies: ["BubbleLayout", "BubbleText"]),
        .target(name: "BubblePictures", dependencies: ["BubbleFonts", "BubbleLayout", "BubbleText", "BubbleTerminal"]),
        .target(name: "BubblesCLI", dependencies: ["BubbleText", "BubbleLayout", "BubbleTerminal", "BubbleLogs", "BubbleFonts", "BubblePictures", "BubbleBenchmarks"]),
        .executableTarget(name: "bubbles", dependencies: ["BubblesCLI", "BubbleTerminal"]),
        .target(name: "BubbleTestSupport", dependencies: ["BubbleLayout"], path: "Tests/BubbleTestSupport"),
        .testTarget(name: "BubbleTextTests", dependencies: ["BubbleText", "BubbleBenchmarks"]),
        .testTarget(name: "BubbleFontsTests", dependencies: ["BubbleFonts", "BubbleLayout", "BubbleLogs", "BubbleTestSupport"]),
        .testTarget(name: "BubbleLayoutTests", dependencies: ["BubbleLayout", "BubbleText", "BubbleTestSupport", "BubbleBenchmarks"]),
        .testTarget(name: "BubbleTerminalTests", dependencies: ["BubbleTerminal", "BubbleLayout", "BubbleLogs", "BubbleText", "BubbleTestSupport", "BubbleBenchmarks"]),
        .testTarget(name: "BubbleLogsTests", dependencies: ["BubbleLogs", "BubbleLayout", "BubbleText", "BubbleTestSupport", "BubbleBenchmarks"]),
        .testTarget(name: "GettingStartedTests", dependencies: ["BubbleLayout", "BubbleFonts"]),
        .testTarget(name: "BubblesCLITests", dependencies: ["BubblesCLI", "BubblePictures", "BubbleLogs", "BubbleLayout", "BubbleTerminal", "BubbleText", "BubbleTestSupport", "BubbleBenchmarks"]),
    ],
    swiftLanguageModes: [.v6]
)
