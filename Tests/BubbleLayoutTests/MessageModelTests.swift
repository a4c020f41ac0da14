import BubbleTestSupport
import Foundation
import Testing
@testable import BubbleLayout

@Suite struct MessageModelTests {
    struct Notice: SystemMessageModel {
        var id = "1"
        var direction = MessageDirection.incoming
        var date = Date(timeIntervalSince1970: 0)
        var notice = "Alice joined"
    }

    @Test func systemNoticesHaveNoSenderByDefault() {
        let n = Notice()
        #expect(n.senderName == nil)
        #expect(n.revision == 0)
        #expect(n.status == nil)
    }
}
