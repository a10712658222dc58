#!/bin/sh
# helper-rss.sh - peak resident memory of sd-tuner-helper while it benchmarks.
#
# Usage, as root, after a build:  bench/helper-rss.sh [PROFILE=quick] [FIXTURE=pi3]
#   BUILDDIR=DIR   the build directory (default: _build)
# Starts the integration harness (private system bus, polkitd, the built helper
# activated under umockdev with the fixture), runs one benchmark through
# StartBenchmark on a scratch directory on a disk file system, samples
# /proc/PID/status every 20 ms and prints:
#   - VmHWM, the kernel's peak resident set: anonymous memory plus the mapped
#     file pages (shared libraries; these are page-cache pages shared with
#     every other process using the same libraries);
#   - the peak of RssAnon + RssShmem over the samples: the helper's own
#     memory, i.e. the resident set without any page-cache pages;
#   - the most threads seen at once (the unit's TasksMax= is sized from it).
# The benchmark file never enters the page cache (O_DIRECT).
# Target (issue 35): 8 MiB of resident memory excluding the page cache, i.e. the
# RssAnon + RssShmem peak; exit 0 when it is within it.  VmHWM is printed too.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
export SDTUNER_BUILDDIR=${BUILDDIR:-$top/_build}
exec /usr/bin/python3 - "${1:-quick}" "${2:-pi3}" "$top" <<'PY'
import json, os, sys, time
profile, fixture, top = sys.argv[1:4]
sys.path.insert(0, os.path.join(top, 'tests', 'integration'))
from sdtharness import TestEnv, JOB_IFACE
from gi.repository import Gio, GLib

LIMIT_KIB = 8 * 1024


def status(pid):
    out = {}
    with open(f'/proc/{pid}/status') as f:
        for line in f:
            k, _, v = line.partition(':')
            if k in ('VmHWM', 'VmRSS', 'RssAnon', 'RssFile', 'RssShmem', 'Threads'):
                out[k] = int(v.split()[0])
    return out


with TestEnv(fixture=fixture, idle_timeout=120) as env:
    conn = env.connect()
    env.call('GetInfo', '(a{sv})', ({},), conn=conn)
    pid = env.helper_pid()
    idle = status(pid)
    done = []
    path = env.call('StartBenchmark', '(sa{sv})', (profile, {}), conn=conn)[0]
    conn.signal_subscribe(None, JOB_IFACE, 'Completed', path, None, Gio.DBusSignalFlags.NONE,
                          lambda *a: done.append(a[-1].unpack()))
    peak = idle
    own_peak = idle['RssAnon'] + idle['RssShmem']
    threads_peak = idle['Threads']
    ctx = GLib.MainContext.default()
    t0 = time.monotonic()
    while not done and time.monotonic() - t0 < 600:
        while ctx.iteration(False):
            pass
        s = status(pid)
        if s['VmRSS'] > peak['VmRSS']:
            peak = s
        own_peak = max(own_peak, s['RssAnon'] + s['RssShmem'])
        threads_peak = max(threads_peak, s['Threads'])
        time.sleep(0.02)
    final = status(pid)
    if not done:
        sys.exit('the benchmark did not complete within 600 s')
    result, err, msg = done[0]
    if err:
        sys.exit(f'the benchmark failed: {err}: {msg}')
    tests = json.loads(result).get('tests', [])
    print(f'profile {profile}, fixture {fixture}, {time.monotonic() - t0:.1f} s, '
          f'{len(tests)} tests, target {env.bench_dir}')
    print(f'idle after GetInfo: VmRSS {idle["VmRSS"]} KiB')
    print(f'highest sample:     VmRSS {peak["VmRSS"]} KiB (RssAnon {peak["RssAnon"]}, '
          f'RssFile {peak["RssFile"]}, RssShmem {peak["RssShmem"]})')
    print(f'own memory peak:    RssAnon + RssShmem {own_peak} KiB = {own_peak / 1024:.1f} MiB '
          '(resident set without page-cache pages)')
    hwm = final['VmHWM']
    print(f'peak (VmHWM):       {hwm} KiB = {hwm / 1024:.1f} MiB, including '
          'shared-library pages')
    print(f'threads:            {idle["Threads"]} idle, at most {threads_peak} while '
          'benchmarking')
    verdict = 'PASS' if own_peak <= LIMIT_KIB else 'FAIL'
    print(f'target: own memory peak <= 8 MiB (RSS without page cache): {verdict}')
    sys.exit(0 if own_peak <= LIMIT_KIB else 1)
PY
