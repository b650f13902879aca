"""Kernel timing shared by the GPU benchmarks (warp_bench.py,
device_bench.py, all_reduce_bench.py): CUDA events around one launch on the
default stream, and several implementations timed together.

A launch's host work (argument packing, the driver call; tens of
microseconds through cupy, ctypes, torch or Triton) happens after the start
event is recorded. With the stream idle, the GPU reaches the start event at
once and waits for the kernel inside the timed interval, so the time would
include that host work, more for a launch with more arguments (a memref is
five). Timer therefore holds the stream with a short kernel (HOLD_US of
spinning on %globaltimer) before the start event: the launch is enqueued
while the GPU spins, and the interval holds the kernels only (nvbench's
blocking kernel does the same)."""

HOLD_US = 200  # well above a launch's host work (tens of microseconds)

HOLD_SOURCE = r"""
extern "C" __global__ void hold(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}
"""


class Timer:
    def __init__(self, cp, np, wait=None):
        """cp, np: cupy and numpy; wait(event): how to wait for a stop event
        (default: event.synchronize())."""
        self.cp, self.np = cp, np
        self.wait = wait or (lambda event: event.synchronize())
        self.hold_kernel = cp.RawKernel(HOLD_SOURCE, "hold")

    def hold(self):
        self.hold_kernel((1,), (1,), (self.np.uint64(HOLD_US * 1000),))

    def launch_ms(self, launch, before=None):
        """Milliseconds of one launch() between CUDA events; before() (e.g.
        an L2 flush) is enqueued first, outside the interval."""
        cp = self.cp
        if before:
            before()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        self.hold()
        start.record()
        launch()
        stop.record()
        self.wait(stop)
        return cp.cuda.get_elapsed_time(start, stop)


def time_together(timer, launches, iters, warmup=5, rounds=6, run=None):
    """{name: median ms} of the implementations `launches` ({name: launch or
    (launch, before)}) timed together: `warmup` launches of each, then
    `rounds` rounds, the order rotating by one each round, in which each
    runs once untimed and then ceil(iters / rounds) times timed. Every timed
    launch thus follows one of its own (the L2 and TLB hold what its own
    last launch left, as when it runs alone), and a drift of the GPU's
    clocks over the run reaches all alike rather than favouring whichever
    would have run first. run(name, action) runs action() for `name` and
    returns False where it failed (that implementation is dropped);
    default: a failure raises."""
    run = run or (lambda name, action: action() or True)
    entries = {name: (v if isinstance(v, tuple) else (v, None)) for name, v in launches.items()}
    per_round = max(1, -(-iters // rounds))
    times = {name: [] for name in entries}

    def warm(launch, count):
        for _ in range(count):
            launch()
        timer.wait(_recorded(timer.cp))

    for name, (launch, _) in list(entries.items()):
        if not run(name, lambda launch=launch: warm(launch, warmup)):
            del entries[name], times[name]
    for r in range(rounds):
        names = list(entries)
        k = r % max(1, len(names))
        for name in names[k:] + names[:k]:
            launch, before = entries[name]

            def timed(launch=launch, before=before, name=name):
                warm(launch, 1)
                times[name] += [timer.launch_ms(launch, before) for _ in range(per_round)]
            if not run(name, timed):
                del entries[name], times[name]
    return {name: float(timer.np.median(t)) for name, t in times.items()}


def _recorded(cp):
    event = cp.cuda.Event()
    event.record()
    return event
