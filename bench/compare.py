#!/usr/bin/python3
"""compare.py - SD Tuner's benchmark engine side by side with fio, on the card
stand-in of card.sh (run it under card.sh, which exports CARD_*).

For each profile: RUNS alternating runs of `sdtunerctl bench` and of fio with the
equivalent jobs (same file size, block sizes, queue depths, durations, order, I/O
engines: io_uring for the queued and sequential tests of the file, psync for QD1 random and
the raw read), the
median of each figure, its engine/fio ratio and its spread over the runs
((max - min) / median), and the paired ratios (p.rate, p.CPU: the median over the runs of
run i's engine/fio; the two runs of a pair are back to back, so a load that changes from
pair to pair on a shared machine cancels out of each ratio); then the wall time of the profile and its time to
verdict against fio running the Raspberry Pi Diagnostics job (sd_bench.fio).
With a throttled card it also prints each figure against the throttle.

CPU per I/O is counted the same way for both: the CPU time (user + system) of
the threads doing the test's I/O, io_uring's io-wq workers ("iou-wrk-*")
included, over the test, divided by its I/Os.  The engine reports it itself
(`cpu_us_per_io`: its I/O thread, its worker threads and its io-wq workers,
read from their thread CPU clocks).  fio's own usr_cpu/sys_cpu cannot be used:
fio reads getrusage(RUSAGE_THREAD) of the job thread alone (io-wq workers are
other threads) in whole milliseconds.  So each fio job moves its own process
into a CPU-accounting cgroup in exec_prerun and reads the cgroup's CPU time
there and again in exec_postrun (the job process, every thread it has or had,
nothing of fio's main process); the cost of the postrun shell getting that far
is measured with a one-I/O job and subtracted.

The quick profile's targets (issue 35) are checked on a throttled card and printed
with PASS/FAIL: the verdict in <= 3.0 s (median of the runs, from the command's start, as
the user waits), every figure's spread over the runs <= 3%, every engine/fio rate ratio
within 0.97-1.03 and CPU per I/O <= fio's.  The load average (/proc/loadavg) is printed
before and after each run: on a shared machine, re-measure figures taken under load.

Usage (root): bench/card.sh [card options] -- bench/compare.py SDTUNERCTL
                  [--profile P]... [--runs N] [--no-diagnostics]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MIB = 1024 * 1024

# mirrors sdt_bench_config_for_profile() in src/bench/sdt-bench.c; checked
# against the engine's JSON after every run
PROFILES = {
    "quick": dict(file=64 * MIB, rand=2, qd1=1, raw=1, raw_max=64 * MIB),
    "standard": dict(file=256 * MIB, rand=10, qd1=5, raw=3, raw_max=256 * MIB),
    "full": dict(file=1024 * MIB, rand=30, qd1=15, raw=10, raw_max=1024 * MIB),
}
# issue 35's targets for the quick profile on the throttled card
VERDICT_MAX_S = 3.0
SPREAD_MAX_PERCENT = 3.0
RATIO_RANGE = (0.97, 1.03)

# name, rw, block size, queue depth, fio engine, time-based
TESTS = [
    ("seq-write", "write", 4 * MIB, 1, "io_uring", False),
    ("rand-4k-write-qd32", "randwrite", 4096, 32, "io_uring", True),
    ("rand-4k-read-qd32", "randread", 4096, 32, "io_uring", True),
    ("seq-read", "read", 4 * MIB, 1, "io_uring", False),
    ("rand-4k-write-qd1", "randwrite", 4096, 1, "psync", True),
    ("rand-4k-read-qd1", "randread", 4096, 1, "psync", True),
    # the engine reads the raw device with blocking reads in a worker thread (its
    # io_engine "threads", one read in flight): psync, one blocking pread() at a time.
    # io_uring sent each 2 MiB O_DIRECT read of the device to an io-wq worker, a second
    # thread and two context switches per read fio paid and the engine does not (on an
    # emulated Pi 3, icount: engine/fio 1.125-1.148)
    ("raw-read", "read", 2 * MIB, 1, "psync", True),
]


def in_cgroup():
    """preexec_fn: put the benchmark into the card's throttle cgroup"""
    cg = os.environ.get("CARD_CGROUP")
    if cg:
        with open(os.path.join(cg, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))


def drop_caches():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3")


class CpuCgroup:
    """A cgroup that counts the CPU time of the fio job process that joins it."""

    def __init__(self):
        card_cg = os.environ.get("CARD_CGROUP") or ""
        if os.path.exists("/sys/fs/cgroup/cgroup.controllers"):
            # cgroup v2: a child of the throttle group keeps its io.max
            parent = card_cg or "/sys/fs/cgroup"
            self.path = os.path.join(parent, "sdt-cpu-%d" % os.getpid())
            self.usage = "cpu.stat"  # usage_usec
            self.home = parent
        elif os.path.isdir("/sys/fs/cgroup/cpuacct"):
            # cgroup v1: its own hierarchy, blkio (the throttle) is untouched
            self.path = "/sys/fs/cgroup/cpuacct/sdt-cpu-%d" % os.getpid()
            self.usage = "cpuacct.usage"  # ns
            self.home = "/sys/fs/cgroup/cpuacct"
        else:
            sys.exit("compare.py: no cgroup v2 and no cgroup v1 cpuacct to count fio's CPU")
        os.mkdir(self.path)

    def write_scripts(self, work):
        """exec_prerun/exec_postrun scripts (fio's job file syntax has no room for
        shell quoting: ';' starts a comment)"""
        # system() runs the script in a shell or two below the job process: the
        # nearest ancestor named fio is the job
        find_job = ('p=$PPID\n'
                    'while [ "$(cat /proc/$p/comm)" != fio ]; do\n'
                    '  p=$(awk \'/^PPid:/ {print $2}\' /proc/$p/status)\n'
                    'done\n')
        self.pre = os.path.join(work, "cpu-prerun.sh")
        self.post = os.path.join(work, "cpu-postrun.sh")
        with open(self.pre, "w") as f:
            f.write(find_job + "echo $p > %s/cgroup.procs\ncat %s/%s\n" % (
                self.path, self.path, self.usage))
        # the shell leaves the group before it reads, so only its start is counted
        with open(self.post, "w") as f:
            f.write("echo $$ > %s/cgroup.procs\ncat %s/%s\n" % (
                self.home, self.path, self.usage))

    def prerun(self):
        return "sh " + self.pre

    def postrun(self):
        return "sh " + self.post

    def read(self, text):
        """seconds from what prerun/postrun printed"""
        if self.usage == "cpu.stat":
            for line in text.splitlines():
                k, _, v = line.partition(" ")
                if k == "usage_usec":
                    return int(v) / 1e6
            raise ValueError("no usage_usec in %r" % text)
        return int(text.split()[0]) / 1e9

    def remove(self):
        try:
            os.rmdir(self.path)
        except OSError as e:
            print("compare.py: could not remove %s: %s" % (self.path, e), file=sys.stderr)


def fio_cpu_lines(cg, name):
    return ['exec_prerun=%s' % cg.prerun(), 'exec_postrun=%s' % cg.postrun()]


def fio_job(profile, directory, dev, cg):
    p = PROFILES[profile]
    lines = ["[global]", "direct=1", "randrepeat=1", "norandommap=1", "refill_buffers=1"]
    for name, rw, bs, qd, engine, timed in TESTS:
        lines += ["", "[%s]" % name, "stonewall", "rw=%s" % rw, "bs=%d" % bs,
                  "iodepth=%d" % qd, "ioengine=%s" % engine] + fio_cpu_lines(cg, name)
        if qd > 1:
            # as the engine: reap every completion there is, refill, submit once
            lines += ["iodepth_batch_submit=%d" % qd, "iodepth_batch_complete_min=1",
                      "iodepth_batch_complete_max=%d" % qd]
        if bs >= 2 * MIB:
            # the engine's large buffers are 2 MiB aligned mappings advised to transparent
            # huge pages (sdt-bench-io.c); fio's malloc()ed ones, aligned the same, are huge
            # pages too where THP is "always" (it does not advise them). Unaligned they were
            # huge by chance, in part: on the emulated Pi 3 a 2 MiB read of scattered 4 KiB
            # pages cost the kernel 3 times the CPU of one huge page's (raw read 300/633 MB/s)
            lines.append("iomem_align=%d" % (2 * MIB))
        if name == "seq-write":
            lines.append("end_fsync=1")
        if name == "raw-read":
            lines += ["filename=%s" % dev, "size=%d" % p["raw_max"], "runtime=%g" % p["raw"]]
            continue
        lines += ["filename=%s" % os.path.join(directory, "sdt.fio.file"),
                  "size=%d" % p["file"]]
        if timed:
            secs = p["rand"] if qd == 32 else p["qd1"]
            lines += ["runtime=%g" % secs, "time_based=1"]
    return "\n".join(lines) + "\n"


def run_engine(ctl, profile, work):
    root = os.path.join(work, "root")
    os.makedirs(root, exist_ok=True)
    d = os.path.join(os.environ["CARD_MNT"], "sdt-engine")
    os.makedirs(d, mode=0o700, exist_ok=True)
    drop_caches()
    t0 = time.monotonic()
    out = subprocess.run([ctl, "--root", root, "bench", "--profile", profile, "--dir", d,
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         preexec_fn=in_cgroup, check=True).stdout
    wall = time.monotonic() - t0
    doc = json.loads(out)
    if doc["target"]["file_size"] != PROFILES[profile]["file"]:
        sys.exit("compare.py: PROFILES is out of date with the engine")
    figures = {}
    for t in doc["tests"]:
        figures[t["name"]] = dict(mb_s=t["mb_s"], iops=t["iops"], cpu=t["cpu_us_per_io"])
    stops = {t["name"]: (t.get("stopped"), t.get("ci_percent")) for t in doc["tests"]}
    confidence = doc["verdict"].get("confidence_percent")
    return figures, wall, doc["verdict"]["seconds"], doc["seconds"], stops, confidence


def run_fio(job, work, env=None, cg=None, overhead=0.0):
    path = os.path.join(work, "job.fio")
    with open(path, "w") as f:
        f.write(job)
    out = os.path.join(work, "fio.json")
    drop_caches()
    t0 = time.monotonic()
    subprocess.run(["fio", "--eta=never", "--output-format=json", "--output=" + out, path],
                   stderr=None, cwd=work,
                   stdout=subprocess.DEVNULL, preexec_fn=in_cgroup, check=True, env=env)
    wall = time.monotonic() - t0
    with open(out) as f:
        doc = json.load(f)
    figures = {}
    for j in doc["jobs"]:
        d = j["write"] if j["write"]["io_bytes"] else j["read"]
        secs = max(j["job_runtime"], 1) / 1000.0  # includes end_fsync
        cpu = None
        if cg is not None:
            name = j["jobname"]
            with open(os.path.join(work, name + ".prerun.txt")) as f:
                c0 = cg.read(f.read())
            with open(os.path.join(work, name + ".postrun.txt")) as f:
                c1 = cg.read(f.read())
            cpu = max(c1 - c0 - overhead, 0.0) * 1e6 / max(d["total_ios"], 1)
        figures[j["jobname"]] = dict(mb_s=d["io_bytes"] / secs / 1e6,
                                     iops=d["total_ios"] / secs, cpu=cpu)
    return figures, wall


def fio_overhead(cg, directory, work, runs=5):
    """CPU seconds the prerun/postrun bracket costs a job: a job of one 4 KiB read"""
    fn = os.path.join(directory, "sdt.fio.calib")
    job = "\n".join(["[calib]", "direct=1", "rw=read", "bs=4096", "size=4096",
                     "ioengine=psync", "filename=" + fn] + fio_cpu_lines(cg, "calib")) + "\n"
    cpus = []
    for _ in range(runs):
        figs, _ = run_fio(job, work, cg=cg)
        cpus.append(figs["calib"]["cpu"] / 1e6)
    os.unlink(fn)
    return statistics.median(cpus)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ctl", help="path to sdtunerctl")
    ap.add_argument("--profile", action="append", metavar="P[:RUNS]",
                    help="quick, standard or full, optionally with its own number of runs")
    ap.add_argument("--runs", type=int, default=3, help="runs per profile (default 3)")
    ap.add_argument("--no-diagnostics", action="store_true")
    args = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    profiles = args.profile or ["quick"]
    for var in ("CARD_DEV", "CARD_MNT"):
        if var not in os.environ:
            sys.exit("compare.py: run me under bench/card.sh")
    bps = int(os.environ.get("CARD_BPS") or 0)
    iops = int(os.environ.get("CARD_IOPS") or 0)
    fio_dir = os.path.join(os.environ["CARD_MNT"], "sdt-fio")
    os.makedirs(fio_dir, mode=0o700, exist_ok=True)
    work = tempfile.mkdtemp(prefix="sdt-compare-")
    cg = CpuCgroup()
    cg.write_scripts(work)
    try:
        print("fio: %s" % subprocess.run(["fio", "--version"], stdout=subprocess.PIPE,
                                          text=True).stdout.strip())
        overhead = fio_overhead(cg, fio_dir, work)
        print("fio CPU bracket (exec_prerun/exec_postrun), subtracted per job: %.0f us"
              % (overhead * 1e6))
        for spec in profiles:
            profile, _, runs = spec.partition(":")
            if profile not in PROFILES:
                sys.exit("compare.py: unknown profile %s" % profile)
            compare(args, profile, int(runs or args.runs), work, fio_dir, bps, iops, cg,
                    overhead)
        if not args.no_diagnostics:
            diag = os.path.join(HERE, "sd_bench.fio")
            env = dict(os.environ, SDT_FIO_DIR=fio_dir)
            with open(diag) as f:
                _, wall = run_fio(f.read(), work, env)
            for name in os.listdir(fio_dir):
                os.unlink(os.path.join(fio_dir, name))
            print("\nfio running the Raspberry Pi Diagnostics job (sd_bench.fio): %.1f s "
                  "to its verdict (one run; the script retries up to 3 times on a fail)"
                  % wall)
    finally:
        cg.remove()
        shutil.rmtree(work)


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def spread(values):
    """(max - min) / median, in percent"""
    m = statistics.median(values)
    return (max(values) - min(values)) / m * 100 if m else float("nan")


def verdict_line(ok):
    return "PASS" if ok else "FAIL"


def compare(args, profile, runs, work, fio_dir, bps, iops, cg, overhead):
    eng = {}
    fio = {}
    eng_wall, eng_verdict, fio_wall = [], [], []
    loads = []
    stopped = {}
    confidence = None
    job = fio_job(profile, fio_dir, os.environ["CARD_DEV"], cg)
    for i in range(runs):
        # alternate which goes first, so drift over time hits both alike
        order = ("engine", "fio") if i % 2 == 0 else ("fio", "engine")
        for who in order:
            before = load()
            if who == "engine":
                figs, wall, verdict, seconds, stops, confidence = run_engine(
                    args.ctl, profile, work)
                eng_wall.append(wall)
                # from the command's start: the CLI's start-up and the file's preparation count
                eng_verdict.append(verdict + wall - seconds)
                for name, stop in stops.items():
                    stopped.setdefault(name, []).append(stop)
                target = eng
            else:
                figs, wall = run_fio(job, work, cg=cg, overhead=overhead)
                os.unlink(os.path.join(fio_dir, "sdt.fio.file"))
                fio_wall.append(wall)
                target = fio
            for name, f in figs.items():
                target.setdefault(name, []).append(f)
            loads.append((before, load()))
            if who == "engine":
                print("run %d engine: verdict after %.2f s, load %.1f-%.1f" % (
                    i + 1, eng_verdict[-1], before, loads[-1][1]))
            else:
                print("run %d fio: %.1f s, load %.1f-%.1f" % (i + 1, wall, before,
                                                              loads[-1][1]))

    print("\nprofile %s: %d alternating runs, medians; card %s, throttle %s" % (
        profile, runs, os.environ["CARD_DEV"],
        "%d B/s %d IOPS" % (bps, iops) if bps or iops else "none"))
    hdr = "%-19s %12s %12s %7s %17s %17s %6s %6s %15s %6s" % (
        "test", "engine", "fio", "ratio", "engine min-max", "fio min-max", "e sprd",
        "f sprd", "CPU us/IO e/f", "ratio")
    if bps or iops:
        hdr += " %9s %6s" % ("throttle", "e/thr")
    # paired: the median of run i's engine/fio, the two runs of a pair back to back, so a
    # load that changes between pairs (a shared machine) cancels out of each ratio
    hdr += " %6s %6s" % ("p.rate", "p.CPU")
    print(hdr)
    for name, rw, bs, qd, engine, timed in TESTS:
        if name not in eng or name not in fio:
            print("%-19s %12s" % (name, "skipped"))
            continue
        key = "iops" if bs == 4096 else "mb_s"
        unit = "IOPS" if key == "iops" else "MB/s"
        ev = [x[key] for x in eng[name]]
        fv = [x[key] for x in fio[name]]
        e = statistics.median(ev)
        f = statistics.median(fv)
        ec = statistics.median(x["cpu"] for x in eng[name])
        fc = statistics.median(x["cpu"] for x in fio[name])
        line = ("%-19s %7.1f %4s %7.1f %4s %7.3f %8.1f-%-8.1f %8.1f-%-8.1f %5.1f%% %5.1f%% "
                "%7.1f/%-7.1f %6.3f") % (
            name, e, unit, f, unit, e / f, min(ev), max(ev), min(fv), max(fv),
            (max(ev) - min(ev)) / e * 100, (max(fv) - min(fv)) / f * 100, ec, fc,
            ec / fc if fc else float("nan"))
        if bps or iops:
            caps = []
            if bps:
                caps.append(bps / 1e6 if key == "mb_s" else bps / bs)
            if iops:
                caps.append(iops if key == "iops" else iops * bs / 1e6)
            cap = min(caps)
            line += " %9.1f %6.3f" % (cap, e / cap)
        pr = statistics.median(a / b for a, b in zip(ev, fv) if b)
        pc = statistics.median(a["cpu"] / b["cpu"] for a, b in zip(eng[name], fio[name])
                               if b["cpu"])
        line += " %6.3f %6.3f" % (pr, pc)
        print(line)
    print("wall time: engine %.1f s (verdict after %.1f s), fio with the same jobs %.1f s"
          % (statistics.median(eng_wall), statistics.median(eng_verdict),
             statistics.median(fio_wall)))
    print("load average over the runs: %.1f-%.1f" % (min(min(x) for x in loads),
                                                     max(max(x) for x in loads)))
    print("how each engine test ended (stopped, ci_percent at %s%% confidence):"
          % (confidence if confidence is not None else "?"))
    for name, stops in stopped.items():
        print("  %-19s %s" % (name, " ".join("%s/%s" % s for s in stops)))
    if profile == "quick" and (bps or iops):
        targets(eng, fio, eng_verdict)


def targets(eng, fio, eng_verdict):
    """issue 35's targets, each with PASS or FAIL"""
    vm = statistics.median(eng_verdict)
    print("\ntargets (quick, throttled card):")
    print("  verdict after %.2f s (median of %d; %.2f-%.2f s, spread %.1f%%): <= %.1f s: %s" % (
        vm, len(eng_verdict), min(eng_verdict), max(eng_verdict), spread(eng_verdict),
        VERDICT_MAX_S, verdict_line(vm <= VERDICT_MAX_S)))
    for name, rw, bs, qd, engine, timed in TESTS:
        if name not in eng or name not in fio:
            continue
        key = "iops" if bs == 4096 else "mb_s"
        ev = [x[key] for x in eng[name]]
        fv = [x[key] for x in fio[name]]
        ratio = statistics.median(ev) / statistics.median(fv)
        cpu = (statistics.median(x["cpu"] for x in eng[name]) /
               statistics.median(x["cpu"] for x in fio[name]))
        ok_spread = spread(ev) <= SPREAD_MAX_PERCENT
        ok_ratio = RATIO_RANGE[0] <= ratio <= RATIO_RANGE[1]
        print("  %-19s spread %4.1f%% (<= %.0f%%: %s)  engine/fio %.3f (%.2f-%.2f: %s)  "
              "CPU/IO %.3f (<= 1: %s)" % (
                  name, spread(ev), SPREAD_MAX_PERCENT, verdict_line(ok_spread), ratio,
                  RATIO_RANGE[0], RATIO_RANGE[1], verdict_line(ok_ratio), cpu,
                  verdict_line(cpu <= 1.0)))


if __name__ == "__main__":
    main()
