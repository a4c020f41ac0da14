#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if DEBUG
import Synchronization
#endif
import BubbleText

// The unsafe code of the log readers' input side, in one place: a view of bytes in memory someone
// else owns, scratch space for a decoder, the system calls that read and write file descriptors,
// and state kept without run-time exclusivity checks. Everything else in BubbleLogs (and the
// command line) reads bytes through these safe APIs.
//
// Invariants, asserted in debug builds:
// - A `ByteView` is valid only inside the closure that made it (`withByteView`), and every index
//   and range it is asked for lies inside it.
// - A `ScratchBuffer` is valid only inside `withScratch`; an element is read only after it was written.
// - `readSome` / `readFully` / `writeAll` touch only the array or view they are given.
// - No two accesses to a `ConfinedStorage`'s value overlap.

/// Bytes in memory someone else owns, read through checked indexing: a debug build stops at an
/// index outside the view; a release build reads without the check. Valid only inside the
/// closure that handed it out (`withByteView`); never kept past it.
@usableFromInline package struct ByteView: RandomAccessCollection {
    @usableFromInline let buffer: UnsafeBufferPointer<UInt8>
    /// Stops (debug builds) at any use after the closure that lent the view returned.
    @usableFromInline let fence: FenceToken

    /// A view of `buffer`, valid while `fence` is (the caller keeps the memory alive that long).
    @inlinable @inline(__always)
    init(_ buffer: UnsafeBufferPointer<UInt8>, fence: FenceToken) {
        self.buffer = buffer
        self.fence = fence
    }

    /// Calls `body` with a view of `buffer` (memory the caller keeps alive during the call),
    /// valid only inside `body`.
    @inlinable @inline(__always)
    package static func withView<R, E: Error>(of buffer: UnsafeBufferPointer<UInt8>,
                                              _ body: (ByteView) throws(E) -> R) throws(E) -> R {
        try withFence { (fence) throws(E) in try body(ByteView(buffer, fence: fence)) }
    }

    /// A view of nothing.
    package static var empty: ByteView { ByteView(UnsafeBufferPointer(start: nil, count: 0), fence: .immortal) }

    /// The base address, after the debug check that the view is still lent.
    @inlinable var base: UnsafePointer<UInt8>? {
        @inline(__always) get {
            fence.check("ByteView")
            return buffer.baseAddress
        }
    }

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { buffer.count }
    @inlinable package var count: Int { buffer.count }

    /// The byte at `i` (checked in debug builds).
    @inlinable package subscript(i: Int) -> UInt8 {
        @inline(__always) get {
            assert(i >= 0 && i < buffer.count, "ByteView: index \(i) outside 0..<\(buffer.count)")
            return base.unsafelyUnwrapped[i]
        }
    }

    /// The bytes at `range` as a view of their own, indexed from 0 (checked in debug builds).
    @inlinable @inline(__always)
    package func bytes(_ range: Range<Int>) -> ByteView {
        assert(range.lowerBound >= 0 && range.upperBound <= buffer.count, "ByteView: \(range) outside 0..<\(buffer.count)")
        return ByteView(UnsafeBufferPointer(start: base.map { $0 + range.lowerBound }, count: range.count), fence: fence)
    }

    /// The bytes from `start` to the end, indexed from 0.
    @inlinable @inline(__always)
    package func bytes(from start: Int) -> ByteView { bytes(start..<buffer.count) }

    /// The eight bytes at `offset` as a little-endian word, at any alignment (`offset + 8 <= count`,
    /// checked in debug builds): byte k of the text is bits 8k..8k+7.
    @inlinable @inline(__always)
    package func word(at offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= buffer.count, "ByteView: word at \(offset) outside 0..<\(buffer.count)")
        return UInt64(littleEndian: UnsafeRawPointer(base.unsafelyUnwrapped)
            .loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The first index at or after `start` and before `end` holding `byte`, or nil.
    @inlinable
    package func firstIndex(of byte: UInt8, from start: Int, to end: Int) -> Int? {
        assert(start >= 0 && start <= end && end <= buffer.count, "ByteView: \(start)..<\(end) outside 0..<\(buffer.count)")
        guard start < end, let base else { return nil }
        return memchr(base + start, Int32(byte), end - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
    }

    /// True when the view holds exactly the bytes of `other`.
    @inlinable
    package func equals(_ other: ByteView) -> Bool {
        guard count == other.count else { return false }
        return count == 0 || memcmp(base!, other.base!, count) == 0
    }

    /// True when the view holds exactly the UTF-8 of `literal`.
    @inlinable
    package func equals(_ literal: StaticString) -> Bool {
        equals(ByteView(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount), fence: .immortal))
    }

    /// The bytes decoded as UTF-8, ill-formed sequences replaced.
    @inlinable package var string: String {
        fence.check("ByteView")
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The bytes as a `String` when they are well-formed UTF-8, else nil.
    @inlinable package var validatedString: String? {
        fence.check("ByteView")
        return String(validating: buffer, as: UTF8.self)
    }

    /// The bytes copied into an array.
    @inlinable package var array: [UInt8] {
        fence.check("ByteView")
        return Array(buffer)
    }

    /// Appends the bytes to `array`.
    @inlinable package func append(to array: inout [UInt8]) {
        fence.check("ByteView")
        array.append(contentsOf: buffer)
    }

    /// Calls `body` with the view as a pointer, for a system call (`write(2)`).
    @usableFromInline func withRawBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        fence.check("ByteView")
        return try body(UnsafeRawBufferPointer(buffer))
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with a view of the array's bytes, valid only inside `body`.
    @inlinable @inline(__always)
    package func withByteView<R, E: Error>(_ body: (ByteView) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeBufferPointer { buffer in
            do throws(E) { return .success(try ByteView.withView(of: buffer, body)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

extension ArraySlice where Element == UInt8 {
    /// Calls `body` with a view of the slice's bytes (indexed from 0), valid only inside `body`.
    @inlinable @inline(__always)
    package func withByteView<R>(_ body: (ByteView) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer { buffer in try withFence { fence in try body(ByteView(buffer, fence: fence)) } }
    }
}

extension Substring.UTF8View {
    /// Calls `body` with a view of the bytes when they are contiguous in memory (a native
    /// string's), valid only inside `body`; nil when they are not (a bridged string).
    @inlinable @inline(__always)
    package func withContiguousByteView<R>(_ body: (ByteView) -> R) -> R? {
        withContiguousStorageIfAvailable { buffer in withFence { fence in body(ByteView(buffer, fence: fence)) } }
    }
}

extension String {
    /// Calls `body` with a view of the string's UTF-8 (made contiguous first when it is not).
    @inlinable @inline(__always)
    package mutating func withUTF8View<R>(_ body: (ByteView) throws -> R) rethrows -> R {
        try withUTF8 { buffer in try withFence { fence in try body(ByteView(buffer, fence: fence)) } }
    }
}

/// Calls `body` with `capacity` elements of uninitialised scratch space of trivial type `T` on the
/// stack (or the heap when large), valid only inside `body`.
@inlinable @inline(__always)
package func withScratch<T, R>(of type: T.Type, capacity: Int, _ body: (inout ScratchBuffer<T>) -> R) -> R {
    assert(_isPOD(T.self), "withScratch: \(T.self) is not a trivial type")
    return withUnsafeTemporaryAllocation(of: T.self, capacity: capacity) { raw in
        withFence { fence in
            var scratch = ScratchBuffer(raw, fence: fence)
            return body(&scratch)
        }
    }
}

/// Scratch space from `withScratch`: elements of a trivial type, their indices checked in debug
/// builds. The caller reads only elements it has written.
@usableFromInline package struct ScratchBuffer<T> {
    @usableFromInline let storage: UnsafeMutableBufferPointer<T>
    @usableFromInline let fence: FenceToken

    @inlinable init(_ storage: UnsafeMutableBufferPointer<T>, fence: FenceToken) {
        self.storage = storage
        self.fence = fence
    }

    @inlinable package var capacity: Int { storage.count }

    /// The element at `i` (checked in debug builds).
    @inlinable package subscript(i: Int) -> T {
        @inline(__always) get {
            fence.check("ScratchBuffer")
            assert(i >= 0 && i < storage.count, "ScratchBuffer: index \(i) outside 0..<\(storage.count)")
            return storage.baseAddress.unsafelyUnwrapped[i]
        }
        @inline(__always) nonmutating set {
            fence.check("ScratchBuffer")
            assert(i >= 0 && i < storage.count, "ScratchBuffer: index \(i) outside 0..<\(storage.count)")
            storage.baseAddress.unsafelyUnwrapped[i] = newValue
        }
    }
}

extension ScratchBuffer where T == UInt8 {
    /// Copies `source` to offset `at` (checked in debug builds).
    @inlinable @inline(__always)
    package func copy(_ source: ByteView, to at: Int) {
        assert(at >= 0 && at + source.count <= storage.count, "ScratchBuffer: \(source.count) bytes at \(at) outside 0..<\(storage.count)")
        fence.check("ScratchBuffer")
        guard let from = source.base else { return }
        (storage.baseAddress.unsafelyUnwrapped + at).update(from: from, count: source.count)
    }

    /// A view of the first `count` bytes, valid only while the scratch space is.
    @inlinable @inline(__always)
    package func view(count: Int) -> ByteView {
        assert(count >= 0 && count <= storage.count, "ScratchBuffer: \(count) bytes of \(storage.count)")
        return ByteView(UnsafeBufferPointer(start: storage.baseAddress, count: count), fence: fence)
    }
}

/// File descriptors read and written through checked, array- and view-shaped calls.
package enum SystemIO {
    /// `read(2)` into `buffer[0..<buffer.count]`, retried on EINTR: bytes read, 0 at the end, or
    /// -1 with `errno` set.
    package static func readSome(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                #if canImport(Glibc)
                return Glibc.read(fd, base, raw.count)
                #else
                return Darwin.read(fd, base, raw.count)
                #endif
            }
            assert(got <= buffer.count, "read(2) returned more than asked")
            if got < 0 && errno == EINTR { continue }
            return got
        }
    }

    /// `read(2)` of at most `count` bytes appended to `buffer`: bytes read, 0 at the end, or -1
    /// with `errno` set. `scratch` (kept by the caller between calls) is where they land first.
    package static func read(_ fd: Int32, count: Int, appendingTo buffer: inout [UInt8], scratch: inout [UInt8]) -> Int {
        if scratch.count < count { scratch = [UInt8](repeating: 0, count: count) }
        let got = readSome(fd, into: &scratch)
        if got > 0 { buffer.append(contentsOf: scratch[..<got]) }
        return got
    }

    /// `length` bytes from offset `offset` of `fd` (`pread(2)`, retried on EINTR), or nil when
    /// fewer could be read.
    package static func read(_ fd: Int32, at offset: Int, length: Int) -> [UInt8]? {
        precondition(length >= 0 && offset >= 0)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialised in
            var done = 0
            while done < length {
                let got = pread(fd, buffer.baseAddress! + done, length - done, off_t(offset + done))
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                done += got
            }
            failed = done < length
            initialised = done
        }
        return failed ? nil : bytes
    }

    /// `count` bytes into `buffer` at `start` from offset `offset` of `fd` (`pread(2)`, retried on
    /// EINTR until all came, the end, or an error): bytes read, or -1 with `errno` set.
    package static func read(_ fd: Int32, at offset: Int, into buffer: inout [UInt8], start: Int, count: Int) -> Int {
        precondition(start >= 0 && count >= 0 && start + count <= buffer.count, "pread outside the buffer")
        var got = 0
        while got < count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + start + got, count - got, off_t(offset) + off_t(got)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return -1 }
            if n == 0 { break }
            got += n
        }
        return got
    }

    /// Writes all of `bytes` to `fd`, through as many `write(2)` calls as it takes (retried on
    /// EINTR): 0, or the `errno` of the write that failed.
    package static func writeAll(_ fd: Int32, _ bytes: ByteView) -> Int32 {
        bytes.withRawBytes { raw in
            guard let base = raw.baseAddress else { return 0 }
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let written = Glibc.write(fd, base + offset, raw.count - offset)
                #else
                let written = Darwin.write(fd, base + offset, raw.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                assert(written <= raw.count - offset, "write(2) wrote more than asked")
                offset += written
            }
            return 0
        }
    }

    /// `write(2)` of `bytes` once, retried on EINTR: bytes written, or -1 with `errno` set.
    package static func writeSome(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int {
        while true {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                #if canImport(Glibc)
                return Glibc.write(fd, base, raw.count)
                #else
                return Darwin.write(fd, base, raw.count)
                #endif
            }
            if written < 0 && errno == EINTR { continue }
            return written
        }
    }

    /// A temporary file already unlinked (so nothing is left behind, whatever happens) in `folder`,
    /// named from `prefix`, or -1.
    package static func unlinkedTemporaryFile(in folder: String, prefix: String) -> Int32 {
        var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return -1 }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }
}

/// The one place BubbleLogs and the command line keep mutable state without the run-time
/// exclusivity checks (`@exclusivity(unchecked)`): the state a reader of hostile input updates
/// for every record (counts, the lines it has read, the names it has met), where a check on each
/// access of a class's property would cost every record.
///
/// Invariant, the owner's to keep: no two accesses to `value` overlap. The owner is used by one
/// thread at a time (or touches `value` only with its lock held), and never starts an access
/// while a modification is under way (a reentrant call). Debug builds assert it: they count the
/// reads and the modification in progress, atomically, and stop at the first overlap, as the
/// run-time checks would; release builds trust it and pay nothing.
package final class ConfinedStorage<Value> {
    @exclusivity(unchecked) @usableFromInline var stored: Value
    #if DEBUG
    /// Reads in progress in the low 32 bits, modifications in progress above.
    @usableFromInline let accesses = Atomic<Int>(0)
    #endif

    @inlinable package init(_ value: Value) {
        stored = value
    }

    /// The state: read or modified in place, never copied out whole unless asked.
    @inlinable package var value: Value {
        @inline(__always) _read {
            #if DEBUG
            let now = accesses.wrappingAdd(1, ordering: .acquiring).newValue
            assert(now >> 32 == 0, "ConfinedStorage<\(Value.self)>: read during a modification")
            defer { accesses.wrappingSubtract(1, ordering: .releasing) }
            #endif
            yield stored
        }
        @inline(__always) _modify {
            #if DEBUG
            let now = accesses.wrappingAdd(1 << 32, ordering: .acquiring).newValue
            assert(now == 1 << 32, "ConfinedStorage<\(Value.self)>: overlapping accesses (another thread, or reentered)")
            defer { accesses.wrappingSubtract(1 << 32, ordering: .releasing) }
            #endif
            yield &stored
        }
    }
}

extension ConfinedStorage: @unchecked Sendable where Value: Sendable {}
