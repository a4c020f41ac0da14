import Testing
@testable import BubblesCLI

@Suite struct VersionTests {
    @Test func versionIsSemantic() {
        #expect(bubblesVersion.split(separator: ".").count == 3)
    }
}
