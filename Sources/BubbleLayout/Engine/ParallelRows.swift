import Dispatch
import Foundation

/// The one way rows are laid out on all cores (batch layout, streaming chunks, a conversation's
/// resize): `count` rows split into contiguous tasks, up to 16 per core so that a core slowed by
/// other work does not hold the rest up and the last task of a job leaves the other cores idle
/// only briefly (a streamed window waits for its last task before the next is decorated), and
/// never smaller than `minimumPerTask` so that small jobs stay on one thread. Each task owns its
/// range and whatever per-task state the caller keeps by task index.
struct ParallelRows: Sendable {
    let count: Int
    let tasks: Int

    init(count: Int, minimumPerTask: Int) {
        self.count = count
        // The core count is asked only when the job is big enough to split: asking reads the
        // cgroup's CPU quota from files, a few system calls for every small batch otherwise.
        tasks = count < 2 * minimumPerTask
            ? 1 : max(1, min(count / minimumPerTask, 16 * ProcessInfo.processInfo.activeProcessorCount))
    }

    /// The rows task `task` lays out.
    func range(ofTask task: Int) -> Range<Int> { (count * task / tasks)..<(count * (task + 1) / tasks) }

    /// Runs `body` for every task, on all cores when there is more than one.
    func run(_ body: @Sendable (Int) -> Void) {
        if tasks == 1 { body(0) } else { DispatchQueue.concurrentPerform(iterations: tasks, execute: body) }
    }
}
