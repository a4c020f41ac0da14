import Foundation

/// The process environment, read once.
public enum ProcessInfoEnvironment {
    public static var current: [String: String] { ProcessInfo.processInfo.environment }
}

/// Ends the process with `code` after output has been flushed.
public func exit(_ code: Int32) -> Never {
    Foundation.exit(code)
}
