#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: vm-bench-{case} suite=vm-bench timeout=3600 priority=10 protocol=tap env=test cases=arm64|armhf
#    args={case},{srcdir},{testsbuilddir}/vm/bench-{case}
"""The engine against fio on a real kernel (issue 35): Debian's kernel booted by QEMU as a
Raspberry Pi (the real-kernel tier, tests/vm/README.md), `sdtunerctl bench --profile quick`
and Debian's fio with bench/compare.py's jobs for the same tests, interleaved (engine, fio,
fio, engine, ...) on the emulated card, the guest's and the host's load around every run
(vmbench.py). Prints the engine/fio ratio of every test with the spreads, CPU per I/O, the
latency percentiles and the I/O path of both; asserts that every figure is there, that the
runs interleaved, and that engine/fio is within 0.9-1.1 (or above it where the engine's CPU
per I/O is below fio's: under the instruction-counting clock a figure is the I/O path's CPU
cost) wherever both tools' figures spread less than 10% over the rounds (the others are
printed as not comparable, with their spreads).

Not in a whole run (suite vm-bench: `tools/test.sh vm-bench`): the emulated card reads 2-3
MB/s and writes 1.5-2 (the sdhost controller's FIFO under TCG), so one quick profile of the
engine takes 40-80 s and a round of both 1.5-3 min.
SDT_VM_BENCH_ROUNDS: rounds (default 3); SDT_VM_BENCH_QEMU_ARGS: QEMU's options (default
vmbench.ICOUNT, the guest's clock from its instruction count; '' for the host's clock),
SDT_VM_BENCH_KARGS: more kernel arguments (default with icount: maxcpus=1).
SDT_VM_BENCH_FROM_LOG=1: no boot, the checks on the last one's console (WORKDIR/bench.log)
and host record (bench-host.json).

usage: test-vm-bench.py ARCH SRCDIR WORKDIR   (run by meson, suite vm-bench; prints TAP)
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdttap import finish, ok  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmbench  # noqa: E402

CASE, SRC, WORK = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
ARCH = CASE.split('-')[0]
HERE = os.path.dirname(os.path.abspath(__file__))
STOCK = os.path.join(HERE, f'config-{ARCH}.txt')
BENCH_ROUNDS = int(os.environ.get('SDT_VM_BENCH_ROUNDS', '3'))
# QEMU's options for the boot: by default the guest's clock counts executed instructions
# (icount, 8 ns each: a 125 MIPS core), so the figures do not depend on how much of the
# host's CPU QEMU got; '' boots as the other tiers do (the clock is the host's)
QEMU_ARGS = os.environ.get('SDT_VM_BENCH_QEMU_ARGS', vmbench.ICOUNT)
KARGS = os.environ.get('SDT_VM_BENCH_KARGS', vmbench.ICOUNT_KARGS if QEMU_ARGS else '')
# `strace -f -c` of a whole quick profile of the engine too (a run more)
STRACE_ENGINE = os.environ.get('SDT_VM_BENCH_STRACE', '0') == '1'
CTL = 'sdtunerctl --root / --json'
timings = {}


def step(*args):
    """runs a vm.sh step; exits with the plan when it cannot run here"""
    t0 = time.monotonic()
    r = subprocess.run(['bash', os.path.join(HERE, 'vm.sh'), args[0], CASE] + list(args[1:]),
                       capture_output=True, text=True)
    timings[args[0] + (' ' + args[2] if args[0] == 'boot' else '')] = time.monotonic() - t0
    sys.stderr.write(r.stderr)
    if r.returncode == 77:
        why = [ln for ln in r.stderr.splitlines() if ln.startswith('vm: SKIPPED')]
        print(f'1..0 # SKIP {why[-1] if why else "cannot run here"}', flush=True)
        sys.exit(0)
    return r


def sections(name):
    """the outputs of a boot's `run NAME ...` lines: {NAME: (text, rc)}, and the console"""
    with open(os.path.join(WORK, name + '.nonce')) as f:
        nonce = f.read().strip()
    with open(os.path.join(WORK, name + '.log'), errors='replace') as f:
        console = f.read().replace('\r', '')
    out, cur, buf = {}, None, []
    for line in console.split('\n'):
        if cur is None and line.startswith(f'@@SDT-BEGIN {nonce} '):
            cur, buf = line.split(' ', 2)[2], []
        elif cur is not None and line.startswith(f'@@SDT-END {nonce} {cur} rc='):
            m = re.search(r' rc=(\d+) secs=([0-9.]+)$', line)
            out[cur] = ('\n'.join(buf), int(m.group(1)) if m else -1)
            if not cur.endswith('.err'):
                timings[f'{name} {cur}'] = float(m.group(2)) if m else -1
            cur = None
        elif cur is not None:
            buf.append(line)
    return out, console


def boot(name, script):
    path = os.path.join(WORK, name + '.sh')
    with open(path, 'w') as f:
        f.write(script)
    r = step('boot', WORK, name, path)
    ok(r.returncode == 0, f'{name}: the guest booted and powered off', r.stderr[-2000:])
    out, console = sections(name)
    ok('### GUEST-DONE' in console and '### boot.sh exit status 0' in console,
       f'{name}: the commands ran to the end and the card was unmounted', console[-3000:])
    return out, console


def bench_against_fio():
    """the engine and fio interleaved on the card (vmbench.py): the table, and what holds"""
    r = step('fio', WORK)
    ok(r.returncode == 0, f'Debian\'s fio and strace for {ARCH} are staged', r.stderr[-2000:])
    if r.returncode != 0:
        return
    log = os.path.join(WORK, 'bench.log')
    if os.path.exists(log):
        os.remove(log)
    watch = vmbench.HostWatch(log)
    os.environ['SDT_VM_ADD_CPIO'] = os.path.join(WORK, 'fio.cpio.gz')
    os.environ['SDT_VM_QEMU_ARGS'] = QEMU_ARGS
    os.environ['SDT_VM_KARGS'] = KARGS
    # a round takes 5-8 min of the host's time (the tier's default limit is 900 s a boot)
    os.environ.setdefault('VM_BOOT_TIMEOUT', str(600 + 600 * BENCH_ROUNDS))
    try:
        out, _console = boot('bench', vmbench.script(CTL, BENCH_ROUNDS, STRACE_ENGINE))
    finally:
        for k in ('SDT_VM_ADD_CPIO', 'SDT_VM_QEMU_ARGS', 'SDT_VM_KARGS'):
            del os.environ[k]
    marks = watch.marks()
    with open(os.path.join(WORK, 'bench-host.json'), 'w') as f:
        json.dump(marks, f)
    res = vmbench.parse(out, marks, BENCH_ROUNDS)
    check_bench(res, out)


def bench_from_log():
    """SDT_VM_BENCH_FROM_LOG=1: the checks on the last boot's console and host record"""
    out, _console = sections('bench')
    with open(os.path.join(WORK, 'bench-host.json')) as f:
        marks = json.load(f)
    check_bench(vmbench.parse(out, marks, BENCH_ROUNDS), out)


def check_bench(res, out):
    print(f'# engine against fio on {CASE} ({res["env"].splitlines()[0] if res["env"] else "?"}, '
          f'kernel {res["env"].splitlines()[1] if res["env"].count(chr(10)) else "?"}), '
          f'{BENCH_ROUNDS} interleaved rounds of the {vmbench.PROFILE} profile', flush=True)
    lazy = out.get('lazyinit', ('', None))[0].split()
    print(f'#   ext4lazyinit threads before and after remounting / noinit_itable: {"/".join(lazy)}')
    for line in vmbench.runs_lines(res):
        print('#   ' + line)
    lines, verdicts = vmbench.table(res)
    for line in lines:
        print('#   ' + line)
    print(f'#   fio\'s CPU bracket, subtracted per job: {res["calib"] * 1e6:.0f} us '
          f'(runs {", ".join("%.0f" % (c * 1e6) for c in res["calib_runs"])})')
    reg = vmbench.regions(out)
    print('#   the raw read\'s region, fio psync 2 MiB over 64 MiB of each: ' +
          ', '.join(f'{k} {v[0]:.1f} MB/s ({v[1]:.0f} us CPU per I/O, {v[2]} I/Os)'
                    for k, v in reg.items()))
    seq = vmbench.regions(out, 'seq-parts-json')
    print('#   the sequential read taken apart (fio, 4 MiB over a 64 MiB file, one run each): ' +
          ', '.join(f'{k} {v[0]:.1f} MB/s ({v[1]:.0f} us CPU per I/O)' for k, v in seq.items()))
    raw = vmbench.rawreads(out)
    print('#   the raw read taken apart (sdt-vm-rawread, 2 MiB preads from the card\'s start, '
          f'medians of {vmbench.RAWREAD_RUNS}): ' + ', '.join(
              f'{m}/{b} {statistics.median(v["mb_s"]):.1f} MB/s '
              f'({statistics.median(v["cpu"]):.0f} us CPU, '
              f'{statistics.median(v["kib_per_request"]):.0f} KiB a request)'
              for (m, b), v in raw.items()))
    for who in ('engine', 'fio') if STRACE_ENGINE else ('fio',):
        top = vmbench.strace_top(out.get(f'strace-{who}-summary', ('', None))[0], 6)
        what = 'its quick profile' if who == 'engine' else 'the QD1 read'
        print(f'#   strace -f -c, {who} ({what}): ' + ', '.join(f'{n} {c}' for c, n in top))
    runs = res['runs']
    ok(not res['errors'] and all(r['rc'] == 0 for r in runs),
       f'bench: {BENCH_ROUNDS} rounds of the engine and of fio, each ran and printed JSON',
       res['errors'] or [(r['who'], r['round'], r['rc']) for r in runs])
    starts = sorted((r['start'], f'{r["who"]}-{r["round"]}') for r in runs
                    if r['start'] is not None)
    want = []
    for i in range(1, BENCH_ROUNDS + 1):
        want += [f'engine-{i}', f'fio-{i}'] if i % 2 else [f'fio-{i}', f'engine-{i}']
    ok([n for _, n in starts] == want, 'bench: the runs were interleaved '
       '(engine, fio, fio, engine, ... by their start in the guest)', starts)
    ok(all(r.get('host') and r['guest_busy'] is not None for r in runs),
       'bench: the guest\'s CPU and load and the host\'s load were recorded around every run',
       runs)
    ok(len(res['calib_runs']) == 3 and all(c > 0 for c in res['calib_runs']),
       'bench: fio\'s CPU bracket was measured', res['calib_runs'])
    full = all(v['present'] and v['n_e'] == BENCH_ROUNDS and v['n_f'] == BENCH_ROUNDS and
               all(x > 0 for x in v['values_e'] + v['values_f']) for v in verdicts)
    ok(full, 'bench: every test has a positive figure from every run of both', verdicts)
    cpu = all(r['cpu'] is not None and r['cpu'] > 0 for who in ('engine', 'fio')
              for rows in res[who].values() for r in rows)
    ok(cpu, 'bench: CPU time per I/O of every test of both', res['engine'])
    # the engine records latencies for its 4 KiB tests
    small = [name for name, _rw, bs, *_ in vmbench.compare.TESTS if bs == 4096]
    lat = all((r['lat'] or {}).get('p50') and (r['lat'] or {}).get('p99')
              for who in ('engine', 'fio') for name in small for r in res[who].get(name, []))
    ok(lat, 'bench: latency percentiles of every 4 KiB test of both (submission to completion)',
       {name: (res['engine'].get(name), res['fio'].get(name)) for name in small})
    paths = {name: ({r['path'] for r in res['engine'].get(name, [])},
                    {r['path'] for r in res['fio'].get(name, [])})
             for name, *_ in vmbench.compare.TESTS}
    ok(all(e and None not in e and f for e, f in paths.values()),
       'bench: the I/O path of every test of both is recorded', paths)
    # the same kind of path: the engine's io_uring against fio's io_uring, its blocking
    # calls ("sync": pread/pwrite in the I/O thread, "threads": in a worker thread, one in
    # flight) against fio's psync
    same = {'io_uring': {'io_uring'}, 'sync': {'psync'}, 'threads': {'psync'}}
    ok(all(len(e) == 1 and f <= same.get(next(iter(e)), set()) for e, f in paths.values()),
       'bench: fio uses the same kind of I/O path as the engine in every test', paths)
    fio_calls = dict((n, c) for c, n in
                     vmbench.strace_top(out.get('strace-fio-summary', ('', None))[0], 50))
    # the engine's large buffers are huge pages where the kernel has THP (sdt-bench-io.c);
    # fio's, aligned the same (compare.py: iomem_align), only where THP is "always"
    thp = re.search(r'^thp (.*)$', res['env'] or '', re.M)
    ok(thp is not None and ('[always]' in thp.group(1) or 'absent' in thp.group(1)),
       'bench: the guest\'s THP is "always" (or absent): fio\'s 2 MiB aligned buffers are '
       'the same kind of pages as the engine\'s', thp.group(1) if thp else res['env'])
    med = {k: statistics.median(v['mb_s']) for k, v in raw.items()}
    ok(len(raw) == len(vmbench.RAWREAD_KINDS) and
       all(len(v['mb_s']) == vmbench.RAWREAD_RUNS for v in raw.values()),
       'bench: the raw read taken apart: every kind ran twice', raw)
    if thp is not None and '[always]' in thp.group(1) and len(med) == 4:
        ok(med[('same', 'huge')] >= med[('same', 'page')] and
           med[('thread', 'huge')] >= med[('thread', 'page')],
           'bench: a huge page\'s buffer reads at least as fast as scattered 4 KiB pages '
           '(why the engine\'s large buffers are huge pages)', med)
    ok(sorted(seq) == sorted(n for n, _ in vmbench.SEQ_KINDS) and all(v[0] > 0 for v in seq.values()),
       'bench: the sequential read taken apart: every kind ran', seq)
    ok(fio_calls.get('pread64', 0) >= 100 and 'io_uring_enter' not in fio_calls,
       'bench: strace: fio\'s QD1 read is pread64 calls (psync)', fio_calls)
    for v in verdicts:
        if not v['present']:
            continue
        if v['meaningful']:
            # under the instruction-counting clock the emulated card has no timing of its own:
            # a figure is what the I/O path costs the CPU, so the engine may be faster than
            # fio by costing less (never slower), docs/BENCHMARK-ENGINE.md
            lo, hi = vmbench.RATIO_RANGE
            cheaper = v['cpu_e'] <= v['cpu_f']
            ok(lo <= v['ratio'] <= hi or (v['ratio'] > hi and cheaper),
               f'bench {v["name"]}: engine/fio {v["ratio"]:.3f} (paired {v["paired"]:.3f}) '
               f'within {lo}-{hi}, or above it with less CPU per I/O than fio (here '
               f'{v["cpu_e"]:.1f}/{v["cpu_f"]:.1f} us), spreads '
               f'{v["spread_e"] * 100:.1f}%/{v["spread_f"] * 100:.1f}%', v)
        else:
            print(f'# bench {v["name"]}: engine/fio {v["ratio"]:.3f} (paired {v["paired"]:.3f}) '
                  f'NOT COMPARABLE here: the figures spread {v["spread_e"] * 100:.1f}% (engine) '
                  f'and {v["spread_f"] * 100:.1f}% (fio) over {v["n_e"]}/{v["n_f"]} runs '
                  f'(more than {vmbench.MEANINGFUL_SPREAD * 100:.0f}%, or fewer than 2 runs)',
                  flush=True)


def main():
    t0 = time.monotonic()
    if os.environ.get('SDT_VM_BENCH_FROM_LOG') == '1':
        bench_from_log()
        return
    os.makedirs(WORK, exist_ok=True)
    r = step('prepare', SRC, WORK)
    ok(r.returncode == 0, f'the {ARCH} kernel, busybox and sdtunerctl are ready', r.stderr[-3000:])
    if r.returncode != 0:
        return
    r = step('card', WORK, STOCK, '4G')
    ok(r.returncode == 0, 'a 4G card with Raspberry Pi OS storage', r.stderr[-2000:])
    if r.returncode != 0:
        return
    bench_against_fio()
    timings['total'] = time.monotonic() - t0
    for k, v in timings.items():
        print(f'# time {CASE} {k}: {v:.1f} s', flush=True)


main()
sys.exit(finish())
