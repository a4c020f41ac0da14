import Foundation
import Testing
@testable import BubbleTerminal
#if canImport(Glibc)
import Glibc
#endif

// In `LateProbeReplyTests`, which is serialized: `QuietTerminal` keeps process-wide state.
extension LateProbeReplyTests {
    /// Issue 15's AddressSanitizer run: `QuietTerminal.hold` copied the saved settings (60 bytes)
    /// into a global `termios` that Swift 6.3.1 gave 57 (global-buffer-overflow, reported by
    /// `Tools/sanitize.sh address LateProbeReplyTests`). Held and given back, a terminal's
    /// settings come back whole, the speeds at the struct's end included.
    @Test func aHeldTerminalGetsAllOfItsSettingsBack() throws {
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master) }
        let device = TerminalDevice(fileDescriptor: slave)
        var mode = termios()
        try #require(tcgetattr(slave, &mode) == 0)
        cfsetispeed(&mode, speed_t(B1200))
        cfsetospeed(&mode, speed_t(B2400))
        try #require(tcsetattr(slave, TCSANOW, &mode) == 0)
        device.enterRawMode()
        var saved = try #require(device.savedMode)
        QuietTerminal.hold(device)
        #expect(QuietTerminal.isHolding)
        QuietTerminal.finish()
        var now = termios()
        try #require(tcgetattr(slave, &now) == 0)
        #expect(now.c_lflag == saved.c_lflag && now.c_iflag == saved.c_iflag && now.c_oflag == saved.c_oflag)
        #expect(cfgetispeed(&now) == cfgetispeed(&saved))
        #expect(cfgetospeed(&now) == cfgetospeed(&saved))
        #expect(now.c_lflag & tcflag_t(ICANON) != 0, "line editing is back")
    }
}
