# SPDX-License-Identifier: GPL-2.0-or-later
"""The engine against fio on a real kernel (issue 35): a boot of the real-kernel tier that runs
`sdtunerctl bench --profile quick` and Debian's fio with bench/compare.py's jobs for the same
tests, interleaved (engine, fio, fio, engine, ... as compare.py alternates), on the emulated
card's ext4 (/var/tmp, the same file system, each tool its own 64 MiB file) and the same raw
partition, and the analysis of what it printed.

Recorded per run: the guest's /proc/loadavg and /proc/stat (the guest's CPU busy over the run),
the host's load average and CPU busy at the run's start and end (the console is read as it is
written), each test's figure, its latency percentiles (the engine's latency_us, fio's lat_ns
with lat_percentiles=1: submission to completion for both), CPU time per I/O (the engine's
cpu_us_per_io; fio's as compare.py counts it: the job process's cgroup v2 CPU time between
exec_prerun and exec_postrun, the bracket's own cost measured with a one-I/O job and
subtracted) and the I/O path (the engine's io_engine member; fio's ioengine, and `strace -f -c`
of one QD1 read of each).

usage (a console log from a boot of script()): vmbench.py LOG NONCE-FILE
"""
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'bench'))
import compare  # noqa: E402  (bench/compare.py: the jobs, the tests, the profile)

PROFILE = 'quick'
W = '/run/sdt-fio'  # fio's working folder in the guest (its job file, prerun/postrun output)
FIO_DIR = '/var/tmp/sdt-fio'
ENGINE_DIR = '/var/tmp/sdt-engine'
RAW = '/dev/mmcblk0p2'
CG = '/sys/fs/cgroup/sdt-cpu'
FIO = 'env LD_LIBRARY_PATH=/opt/fio/lib /opt/fio/bin/fio'
STRACE = 'env LD_LIBRARY_PATH=/opt/fio/lib /opt/fio/bin/strace'
STRACE_ENGINE = ('env LD_LIBRARY_PATH=/opt/fio/lib:/opt/sdt/lib /opt/fio/bin/strace '
                 '-E LD_LIBRARY_PATH=/opt/sdt/lib')
# a ratio is taken as meaningful when each tool's figure spreads at most this much over the
# rounds ((max - min) / median): then a ratio outside 0.9-1.1 is more than the noise
MEANINGFUL_SPREAD = 0.10
RATIO_RANGE = (0.9, 1.1)
# the guest's clock from its instruction count, 8 ns an instruction (a 125 MIPS core), idle
# time skipped: what the host's load does to QEMU's speed does not reach the figures
ICOUNT = '-icount shift=3,sleep=off'
# and one CPU: under icount QEMU runs the 4 vCPUs of a Pi 2/3 in turn on one host thread, and
# Debian's armmp kernel on raspi2b then stopped at boot (migration/2 in a soft lockup for
# minutes of guest time); one core, as a Pi Zero has
ICOUNT_KARGS = 'maxcpus=1'


class GuestCgroup(compare.CpuCgroup):
    """compare.py's CPU bracket, with the guest's cgroup v2 paths"""

    def __init__(self):  # pylint: disable=super-init-not-called
        self.path, self.usage, self.home = CG, 'cpu.stat', '/sys/fs/cgroup'
        self.pre, self.post = W + '/cpu-prerun.sh', W + '/cpu-postrun.sh'

    def scripts(self):
        """the two scripts' text, as compare.py writes them"""
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            pre, post = self.pre, self.post
            self.write_scripts(d)
            with open(self.pre) as f:
                a = f.read()
            with open(self.post) as f:
                b = f.read()
            self.pre, self.post = pre, post
        return a, b


def fio_job():
    job = compare.fio_job(PROFILE, FIO_DIR, RAW, GuestCgroup())
    # the latency of every I/O from its submission to its completion, at the engine's percentiles
    return job.replace('[global]\n', '[global]\nlat_percentiles=1\nclat_percentiles=0\n'
                       'percentile_list=50:90:99:99.9\n', 1)


def calib_job():
    cg = GuestCgroup()
    return '\n'.join(['[calib]', 'direct=1', 'rw=read', 'bs=4096', 'size=4096', 'ioengine=psync',
                      'filename=' + FIO_DIR + '/sdt.fio.calib'] +
                     compare.fio_cpu_lines(cg, 'calib')) + '\n'


def qd1_job(who):
    """the QD1 read alone, for strace (fio's job as compare.py's, 1 s)"""
    return '\n'.join(['[rand-4k-read-qd1]', 'direct=1', 'randrepeat=1', 'norandommap=1',
                      'rw=randread', 'bs=4096', 'iodepth=1', 'ioengine=psync', 'size=16m',
                      'runtime=1', 'time_based=1',
                      'filename=' + FIO_DIR + '/sdt.fio.' + who]) + '\n'


# the raw read's region: the engine reads the whole card from its start (the partition table,
# the gap and the boot partition first), compare.py's fio job the root partition; one tool
# (fio, psync, 2 MiB, as both raw reads) over 64 MiB of each, with the card's request counts
RAW_REGIONS = (('disk-start', '/dev/mmcblk0'), ('partition-2', RAW))
# sdt-vm-rawread's runs: (MODE, BUFFER), each RAWREAD_RUNS times, RAWREAD_MIB MiB from the card's start
RAWREAD_KINDS = (('same', 'page'), ('thread', 'page'), ('same', 'huge'), ('thread', 'huge'))
RAWREAD_MIB = 48
RAWREAD_RUNS = 2


def region_job():
    lines = []
    for name, dev in RAW_REGIONS:
        lines += [f'[{name}]', 'stonewall', 'direct=1', 'rw=read', 'bs=2m', 'iodepth=1',
                  'ioengine=psync', 'size=64m', 'filename=' + dev]
    return '\n'.join(lines) + '\n'


# the sequential read taken apart: fio's 4 MiB io_uring read of one 64 MiB file with one thing
# changed at a time: (name, more job lines). The engine registers its buffers with the ring
# (io_uring_register_buffers: "fixed" buffers); compare.py's fio does not.
SEQ_KINDS = (('seq-huge', ['iomem_align=2m']),
             ('seq-huge-fixed', ['iomem_align=2m', 'fixedbufs=1']),
             ('seq-page-fixed', ['fixedbufs=1']),
             ('seq-huge-psync', ['iomem_align=2m', 'ioengine=psync']))


def seq_job():
    lines = ['[global]', 'direct=1', 'rw=read', 'bs=4m', 'iodepth=1', 'ioengine=io_uring',
             'size=64m', 'filename=' + FIO_DIR + '/sdt.fio.seq']
    for name, more in SEQ_KINDS:
        lines += ['', f'[{name}]', 'stonewall'] + more
    return '\n'.join(lines) + '\n'


def regions(out, section='raw-regions-json'):
    """{job: (MB/s, µs CPU per I/O (usr + sys of its job), I/Os)} from a fio JSON run's
    output (the raw regions', or SECTION's)"""
    import json
    text = out.get(section, ('', None))[0]
    try:
        d = json.loads(text[text.index('{'):])
    except ValueError:
        return {}
    res = {}
    for job in d.get('jobs', []):
        r = job['read']
        n = max(r.get('total_ios', 0), 1)
        res[job['jobname']] = (r['bw_bytes'] / 1e6, (job['usr_cpu'] + job['sys_cpu']) / 100 *
                               job['job_runtime'] * 1000 / n, n)
    return res


def rawreads(out):
    """{(MODE, BUFFER): {'mb_s': [...], 'cpu': [...], 'kib_per_request': [...]}} from
    sdt-vm-rawread's runs"""
    res = {}
    for i in range(1, RAWREAD_RUNS + 1):
        for m, b in RAWREAD_KINDS:
            text = out.get(f'rawread-{m}-{b}-{i}', ('', None))[0]
            f = dict(kv.split('=', 1) for kv in text.split() if '=' in kv)
            if 'mb_s' not in f:
                continue
            r = res.setdefault((m, b), {'mb_s': [], 'cpu': [], 'kib_per_request': []})
            r['mb_s'].append(float(f['mb_s']))
            r['cpu'].append(float(f['cpu_us_per_io']))
            r['kib_per_request'].append(float(f['kib_per_request']))
    return res


def script(ctl, rounds, strace_engine=False):
    """the guest's commands (guest-init.sh's `run`): the environment, the calibration,
    ROUNDS interleaved rounds, `strace -f -c` of fio's QD1 read (and of one quick profile of
    the engine with STRACE_ENGINE: a whole run more, 3-4 min under icount)"""
    pre, post = GuestCgroup().scripts()
    sh = [f'''
mount -t cgroup2 cgroup2 /sys/fs/cgroup || echo "@@SDT-MARK no-cgroup2"
# a fresh ext4 zeroes its inode tables in the background (ext4lazyinit) in the first minutes
# after its first mount: CPU and card time taken from the first runs. Stopped here.
LAZY='grep -l ext4lazyinit /proc/[0-9]*/comm | wc -l'
run lazyinit sh -c "$LAZY; mount -o remount,noinit_itable /; sleep 1; $LAZY"
mkdir -p {W} {FIO_DIR} {ENGINE_DIR} {CG}
cd {W}
cat >job.fio <<'SDT_EOF'
{fio_job()}SDT_EOF
cat >calib.fio <<'SDT_EOF'
{calib_job()}SDT_EOF
cat >qd1.fio <<'SDT_EOF'
{qd1_job('strace')}SDT_EOF
cat >cpu-prerun.sh <<'SDT_EOF'
{pre}SDT_EOF
cat >cpu-postrun.sh <<'SDT_EOF'
{post}SDT_EOF
run bench-env sh -c 'echo cpus $(grep -c ^processor /proc/cpuinfo); uname -r; \
echo io_uring_disabled $(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo absent); \
echo thp $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo absent); \
{FIO} --version; grep MemTotal /proc/meminfo'
sample() {{ run "$1" sh -c 'cat /proc/uptime /proc/loadavg; head -n 1 /proc/stat; \
cat /sys/block/mmcblk0/stat'; }}
quiet() {{ sync; echo 3 >/proc/sys/vm/drop_caches; }}
engine() {{
  quiet; sample "engine-$1-before"; echo "@@SDT-MARK start engine-$1"
  run "engine-$1" {ctl} bench --profile {PROFILE} --dir {ENGINE_DIR}
  echo "@@SDT-MARK end engine-$1"; sample "engine-$1-after"
}}
fio_run() {{
  rm -f ./*.prerun.txt ./*.postrun.txt
  quiet; sample "fio-$1-before"; echo "@@SDT-MARK start fio-$1"
  run "fio-$1" {FIO} --eta=never --output-format=json --output={W}/fio.json {W}/job.fio
  echo "@@SDT-MARK end fio-$1"; sample "fio-$1-after"
  run "fio-$1-json" cat {W}/fio.json
  run "fio-$1-cpu" sh -c 'for f in *.prerun.txt *.postrun.txt; do echo "== $f"; cat "$f"; done'
  rm -f {FIO_DIR}/sdt.fio.file
}}
for i in 1 2 3; do
  rm -f ./*.prerun.txt ./*.postrun.txt
  run "calib-$i" {FIO} --eta=never --output-format=json --output={W}/calib.json {W}/calib.fio
  run "calib-$i-cpu" sh -c 'cat calib.prerun.txt; echo ==; cat calib.postrun.txt'
done
rm -f {FIO_DIR}/sdt.fio.calib
''']
    for i in range(1, rounds + 1):
        order = ('engine', 'fio_run') if i % 2 == 1 else ('fio_run', 'engine')
        sh.append(f'{order[0]} {i}\n{order[1]} {i}\n')
    sh.append(f'''cat >regions.fio <<'SDT_EOF'
{region_job()}SDT_EOF
quiet
run raw-regions {FIO} --eta=never --output-format=json --output={W}/regions.json {W}/regions.fio
run raw-regions-json cat {W}/regions.json
''')
    sh.append(f'''cat >seq.fio <<'SDT_EOF'
{seq_job()}SDT_EOF
mkdir -p {FIO_DIR}
{FIO} --eta=never --output-format=json --create_only=1 --output={W}/seq-layout.json {W}/seq.fio >/dev/null
quiet
run seq-parts {FIO} --eta=never --output-format=json --output={W}/seq.json {W}/seq.fio
run seq-parts-json cat {W}/seq.json
rm -f {FIO_DIR}/sdt.fio.seq
''')
    # the raw read taken apart: the thread that reads, the buffer's pages (sdt-vm-rawread.c)
    sh.append(''.join(f'quiet\nrun rawread-{m}-{b}-{i} sdt-vm-rawread /dev/mmcblk0 {RAWREAD_MIB} {m} {b}\n'
                      for i in range(1, RAWREAD_RUNS + 1) for m, b in RAWREAD_KINDS))
    # the system calls each makes for a QD1 read (one run each, outside the rounds)
    sh.append(f'''
run strace-fio {STRACE} -f -c -o {W}/strace-fio.txt \\
  {FIO} --eta=never --output-format=json {W}/qd1.fio
run strace-fio-summary cat {W}/strace-fio.txt
''')
    if strace_engine:
        sh.append(f'''run strace-engine {STRACE_ENGINE} -f -c -o \\
  {W}/strace-engine.txt {ctl} bench --profile {PROFILE} --dir {ENGINE_DIR}
run strace-engine-summary cat {W}/strace-engine.txt
''')
    sh.append(f'''rm -rf {FIO_DIR} {ENGINE_DIR}
cd /
umount /sys/fs/cgroup 2>/dev/null
''')
    return ''.join(sh)


class HostWatch:
    """reads the console LOG as QEMU writes it and records, at each '@@SDT-MARK start|end
    NAME' line, the host's load average and /proc/stat: marks() gives {NAME: dict(load0,
    load1, busy)} (the host's CPU busy fraction over the run, all its cores)"""

    def __init__(self, log):
        import threading
        self.log, self.stop, self.seen = log, threading.Event(), {}
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    @staticmethod
    def _host():
        with open('/proc/loadavg') as f:
            load = float(f.read().split()[0])
        with open('/proc/stat') as f:
            return load, f.readline()

    def _loop(self):
        pos, rest = 0, ''
        while True:
            done = self.stop.is_set()
            try:
                with open(self.log, errors='replace') as f:
                    f.seek(pos)
                    chunk = f.read()
                    pos = f.tell()
            except OSError:
                chunk = ''
            lines = (rest + chunk).split('\n')
            rest = lines.pop()
            for line in lines:
                m = re.search(r'@@SDT-MARK (start|end) (\S+)', line)
                if m:
                    self.seen.setdefault(m.group(2), {})[m.group(1)] = self._host()
            if done:
                return
            self.stop.wait(0.25)

    def marks(self):
        self.stop.set()
        self.thread.join()
        res = {}
        for name, v in self.seen.items():
            if 'start' in v and 'end' in v:
                res[name] = dict(load0=v['start'][0], load1=v['end'][0],
                                 busy=_cpu_busy(v['start'][1], v['end'][1]))
        return res


def _cpu_busy(a, b):
    """the CPU busy fraction between two /proc/stat 'cpu' lines"""
    x = [int(v) for v in a.split()[1:]]
    y = [int(v) for v in b.split()[1:]]
    d = [q - p for p, q in zip(x, y)]
    total = sum(d[:8])
    idle = d[3] + (d[4] if len(d) > 4 else 0)
    return (total - idle) / total if total else float('nan')


def _sample(out, name):
    text = out.get(name, ('', None))[0].split('\n')
    if len(text) < 3:
        return None
    disk = [int(x) for x in text[3].split()] if len(text) > 3 and text[3].strip() else None
    return dict(uptime=float(text[0].split()[0]), load=float(text[1].split()[0]), cpu=text[2],
                disk=disk)


def _disk(a, b):
    """the card's requests over a run (/sys/block/mmcblk0/stat after - before): reads and
    their KiB on average, writes and theirs; None unless both were read"""
    if not a or not b or not a.get('disk') or not b.get('disk'):
        return None
    d = [y - x for x, y in zip(a['disk'], b['disk'])]
    return dict(reads=d[0], read_kib=d[2] / 2 / max(d[0], 1), writes=d[4],
                write_kib=d[6] / 2 / max(d[4], 1))


def _fio_cpu(text, calib):
    """{job: CPU seconds} from the prerun/postrun outputs ('== NAME.prerun.txt' headers)"""
    vals, cur = {}, None
    for line in text.split('\n'):
        if line.startswith('== '):
            cur = line[3:].strip()
            vals[cur] = ''
        elif cur:
            vals[cur] += line + '\n'
    cg = GuestCgroup()
    res = {}
    for k in vals:
        if k.endswith('.prerun.txt'):
            job = k[:-len('.prerun.txt')]
            post = vals.get(job + '.postrun.txt')
            if post:
                res[job] = max(cg.read(post) - cg.read(vals[k]) - calib, 0.0)
    return res


def _fio_lat(d):
    lat = d.get('lat_ns') or {}
    pct = lat.get('percentile') or (d.get('clat_ns') or {}).get('percentile') or {}

    def p(x):
        for k, v in pct.items():
            if abs(float(k) - x) < 1e-6:
                return v / 1000.0
        return None
    return dict(p50=p(50), p90=p(90), p99=p(99), p99_9=p(99.9),
                mean=(lat.get('mean') or 0) / 1000.0, max=(lat.get('max') or 0) / 1000.0)


def parse(out, marks, rounds):
    """{'engine': {test: [run...]}, 'fio': {...}, 'runs': [...], 'calib': s, 'env': text}; a
    run: dict(value, cpu, lat, path), a 'runs' entry: who, round, guest busy, guest load,
    host load at start and end, host busy"""
    import json
    calib = []
    cg = GuestCgroup()
    for i in (1, 2, 3):
        t = out.get(f'calib-{i}-cpu', ('', None))[0]
        if '==' in t:
            a, b = t.split('==', 1)
            try:
                calib.append(cg.read(b) - cg.read(a))
            except (ValueError, IndexError):
                pass
    overhead = statistics.median(calib) if calib else 0.0
    res = dict(engine={}, fio={}, runs=[], calib=overhead, calib_runs=calib,
               env=out.get('bench-env', ('', None))[0], errors=[])
    for i in range(1, rounds + 1):
        for who in ('engine', 'fio'):
            name = f'{who}-{i}'
            text, rc = out.get(name, ('', None))
            a, b = _sample(out, name + '-before'), _sample(out, name + '-after')
            run = dict(who=who, round=i, rc=rc, host=marks.get(name),
                       guest_busy=_cpu_busy(a['cpu'], b['cpu']) if a and b else None,
                       guest_load=(a['load'], b['load']) if a and b else None,
                       start=a['uptime'] if a else None, disk=_disk(a, b))
            res['runs'].append(run)
            try:
                doc = json.loads(text if who == 'engine' else
                                 out.get(name + '-json', ('', None))[0])
            except ValueError:
                res['errors'].append(f'{name}: no JSON (exit status {rc}): '
                                     + out.get(name + '.err', ('', None))[0][-500:])
                continue
            if who == 'engine':
                run['raw_device'] = (doc.get('target') or {}).get('raw_device')
                for t in doc.get('tests') or []:
                    key = 'iops' if t.get('block_size') == 4096 else 'mb_s'
                    res['engine'].setdefault(t['name'], []).append(dict(
                        value=t.get(key), cpu=t.get('cpu_us_per_io'),
                        lat=t.get('latency_us') or {}, path=t.get('io_engine'),
                        stopped=t.get('stopped'), ios=t.get('ios')))
            else:
                cpus = _fio_cpu(out.get(name + '-cpu', ('', None))[0], overhead)
                for j in doc.get('jobs') or []:
                    d = j['write'] if j['write']['io_bytes'] else j['read']
                    secs = max(j['job_runtime'], 1) / 1000.0
                    bs = int(j['job options'].get('bs', 0))
                    value = d['total_ios'] / secs if bs == 4096 else d['io_bytes'] / secs / 1e6
                    cpu = cpus.get(j['jobname'])
                    ios = max(d['total_ios'], 1)
                    # fio's own: getrusage(RUSAGE_THREAD) of the job thread, in percent of
                    # its runtime (io-wq workers are other threads: not in it)
                    own = (j['usr_cpu'] + j['sys_cpu']) / 100.0 * j['job_runtime'] / 1000.0
                    res['fio'].setdefault(j['jobname'], []).append(dict(
                        value=value, cpu=own * 1e6 / ios,
                        cpu_cg=cpu * 1e6 / ios if cpu is not None else None,
                        lat=_fio_lat(d), path=j['job options'].get('ioengine'), ios=ios))
    return res


def spread(v):
    m = statistics.median(v)
    return (max(v) - min(v)) / m if m else float('inf')


def strace_top(text, n=4):
    """the system calls with most calls in a `strace -c` summary: [(calls, name)]"""
    rows = []
    for line in text.split('\n'):
        f = line.split()
        if len(f) >= 5 and re.fullmatch(r'[0-9.]+', f[0]) and f[-1] != 'total':
            try:
                calls = int(f[3])
            except ValueError:
                continue
            rows.append((calls, f[-1]))
    return sorted(rows, reverse=True)[:n]


def table(res):
    """the printed table (lines) and per test: (name, ratio, paired, spreads, meaningful,
    why not)"""
    lines, verdicts = [], []
    lines.append('%-19s %9s %9s %6s %6s %13s %13s %13s %17s %17s %s' % (
        'test', 'engine', 'fio', 'ratio', 'p.rate', 'p.min-max', 'spread e/f', 'CPU us/IO e/f',
        'lat p50 us e/f', 'lat p99 us e/f', 'path e/f'))
    for name, _rw, bs, _qd, _eng, _timed in compare.TESTS:
        e = [r for r in res['engine'].get(name, []) if r['value']]
        f = [r for r in res['fio'].get(name, []) if r['value']]
        if not e or not f:
            lines.append('%-19s missing (engine %d runs, fio %d)' % (name, len(e), len(f)))
            verdicts.append(dict(name=name, present=False))
            continue
        ev, fv = [r['value'] for r in e], [r['value'] for r in f]
        em, fm = statistics.median(ev), statistics.median(fv)
        paired = [a / b for a, b in zip(ev, fv) if b]
        pr = statistics.median(paired)
        es, fs = spread(ev), spread(fv)

        def med(rows, key, sub=None):
            v = [(r[key] or {}).get(sub) if sub else r[key] for r in rows]
            v = [x for x in v if x is not None]
            return statistics.median(v) if v else float('nan')
        unit = 'IOPS' if bs == 4096 else 'MB/s'
        lines.append('%-19s %9.1f %9.1f %6.3f %6.3f %6.3f-%-6.3f %5.1f%%/%5.1f%% %6.1f/%-6.1f '
                     '%8.0f/%-8.0f %8.0f/%-8.0f %s/%s %s' % (
                         name, em, fm, em / fm, pr, min(paired), max(paired), es * 100, fs * 100,
                         med(e, 'cpu'), med(f, 'cpu'), med(e, 'lat', 'p50'), med(f, 'lat', 'p50'),
                         med(e, 'lat', 'p99'), med(f, 'lat', 'p99'),
                         '+'.join(sorted({r['path'] or '?' for r in e})),
                         '+'.join(sorted({r['path'] or '?' for r in f})), unit))
        # a spread needs two runs of each
        meaningful = (len(ev) >= 2 and len(fv) >= 2 and es <= MEANINGFUL_SPREAD and
                      fs <= MEANINGFUL_SPREAD)
        verdicts.append(dict(name=name, present=True, ratio=em / fm, paired=pr, spread_e=es,
                             spread_f=fs, meaningful=meaningful, n_e=len(ev), n_f=len(fv),
                             values_e=ev, values_f=fv, cpu_e=med(e, 'cpu'),
                             cpu_f=med(f, 'cpu')))
    return lines, verdicts


def runs_lines(res):
    lines = ['%-10s %6s %8s %11s %11s %9s  %s' % ('run', 'start', 'guest CPU', 'guest load',
                                                  'host load', 'host CPU',
                                                  'card requests: reads (KiB each), writes')]
    for r in res['runs']:
        h = r.get('host') or {}
        lines.append('%-10s %6s %7s %11s %11s %9s' % (
            '%s-%d' % (r['who'], r['round']),
            '%.0f s' % r['start'] if r['start'] is not None else '?',
            '%.0f%%' % (r['guest_busy'] * 100) if r['guest_busy'] is not None else '?',
            '%.2f-%.2f' % r['guest_load'] if r['guest_load'] else '?',
            '%.1f-%.1f' % (h['load0'], h['load1']) if h else '?',
            '%.0f%%' % (h['busy'] * 100) if h else '?') + (
            '  %d (%.0f), %d (%.0f)' % (r['disk']['reads'], r['disk']['read_kib'],
                                        r['disk']['writes'], r['disk']['write_kib'])
            if r.get('disk') else ''))
    return lines


def markdown(res):
    """the table as docs/BENCHMARK-ENGINE.md shows it"""
    def med(rows, key, sub=None):
        v = [(r[key] or {}).get(sub) if sub else r[key] for r in rows]
        v = [x for x in v if x is not None]
        return statistics.median(v) if v else None
    _lines, verdicts = table(res)
    for v, (name, _rw, bs, *_r) in zip(verdicts, compare.TESTS):
        if not v['present']:
            continue
        e, f = res['engine'][name], res['fio'][name]
        pr = [a / b for a, b in zip(v['values_e'], v['values_f'])]
        lat = ''
        if bs == 4096:
            lat = '%.0f / %.0f' % (med(e, 'lat', 'p50'), med(f, 'lat', 'p50'))
        print('| %s | %.1f | %.1f | %.3f | %.3f-%.3f | %.1f%% / %.1f%% | %.0f / %.0f | %s |' % (
            name, statistics.median(v['values_e']), statistics.median(v['values_f']), v['ratio'],
            min(pr), max(pr), v['spread_e'] * 100, v['spread_f'] * 100, med(e, 'cpu'),
            med(f, 'cpu'), lat))


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    log, nonce_file, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(nonce_file) as f:
        nonce = f.read().strip()
    with open(log, errors='replace') as f:
        console = f.read().replace('\r', '')
    out, cur, buf = {}, None, []
    for line in console.split('\n'):
        if cur is None and line.startswith(f'@@SDT-BEGIN {nonce} '):
            cur, buf = line.split(' ', 2)[2], []
        elif cur is not None and line.startswith(f'@@SDT-END {nonce} {cur} rc='):
            m = re.search(r' rc=(\d+) secs=([0-9.]+)$', line)
            out[cur] = ('\n'.join(buf), int(m.group(1)) if m else -1)
            cur = None
        elif cur is not None:
            buf.append(line)
    res = parse(out, {}, rounds)
    if len(sys.argv) > 4 and sys.argv[4] == '--markdown':
        markdown(res)
        return
    print('\n'.join(runs_lines(res)))
    print('\n'.join(table(res)[0]))
    print('calib', res['calib_runs'], 'errors', res['errors'])
    print('raw regions', regions(out))
    for w in ('fio', 'engine'):
        print(w, strace_top(out.get(f'strace-{w}-summary', ('', None))[0], 8))


if __name__ == '__main__':
    main()
