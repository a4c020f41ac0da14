import BubbleLogs
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `serve --listen unix:PATH`: the service on a Unix-domain stream socket, each client on a thread
/// of its own sending request lines and reading its own responses; the conversations are the
/// service's, shared by every client. The socket is made with mode 0600 (only its owner may
/// connect) and removed when the service ends; an existing file is replaced only when it is a socket.
final class UnixSocketListener {
    /// `sun_path`'s size: the path and its terminating zero must fit.
    static let maximumPathBytes = 108

    let path: String
    private let fd: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws {
        self.path = path
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw Failure(description: "--listen: \(DiagnosticText.escaped(path)) exists and is not a socket: not replaced")
            }
            unlink(path)
        }
        #if canImport(Glibc)
        let socketType = Int32(SOCK_STREAM.rawValue)
        #else
        let socketType = SOCK_STREAM
        #endif
        let fd = socket(AF_UNIX, socketType, 0)
        guard fd >= 0 else { throw Failure(description: "--listen: cannot make a socket: \(String(cString: strerror(errno)))") }
        // Made private from the start: no moment exists where another user could connect.
        let mask = umask(0o177)
        let bound = UnixSocketAddress.bind(fd, path: path)
        umask(mask)
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "--listen: cannot listen on \(DiagnosticText.escaped(path)): \(reason)")
        }
        self.fd = fd
    }

    /// Accepts clients until the process is stopped (SIGINT or SIGTERM remove the socket first).
    func serve(_ service: ServeService) -> Never {
        let path = self.path
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                unlink(path)
                // Then die of the signal: its default action, unblocked on this thread (dispatch
                // threads, and a process started with signals blocked, would leave it pending).
                signal(signalNumber, SIG_DFL)
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, signalNumber)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(signalNumber)
            }
            source.resume()
            UnixSocketListener.signalSources.keep(source)
        }
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            let thread = Thread {
                // Until the client closes its side; what it sent is answered, then the socket closed.
                service.answer(fileDescriptor: client, into: LockedLines(FileSink(fileDescriptor: client)))
                close(client)
            }
            thread.start()
        }
    }

    /// The signal handlers, kept alive for the life of the process.
    private static let signalSources = SignalSources()

    /// Sources kept, appended under a lock (`@unchecked`: every access holds `lock`).
    private final class SignalSources: @unchecked Sendable {
        private let lock = NSLock()
        private var sources: [DispatchSourceSignal] = []
        func keep(_ source: DispatchSourceSignal) { lock.withLock { sources.append(source) } }
    }
}
