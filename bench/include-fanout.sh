#!/bin/sh
# include-fanout.sh [N=20] - time and peak memory of reading a config.txt with
# an include fan-out: config.txt includes N small files and each of them
# includes all N (about 8 KB in total for N = 20).
#
#   BUILDDIR=DIR   the build directory (default: _build)
# Builds a copy of the tests/data/roots/pi3 fixture with that config.txt in a
# scratch folder and runs the built `sdtunerctl --root COPY status` and
# `sdtunerctl --root COPY --json info` on it (the code the helper runs for
# GetStatus and GetInfo), one process each, and prints per command the wall
# time and the peak resident set (GNU time: ru_maxrss), then a flat case
# for comparison: config.txt including the N files once, with no nesting.
# Targets for the fan-out: under 1 s and under 32 MiB per command; exit 0 when
# every command is within them.  Before the include budget (issue 9, item 8)
# N = 20 took 12 s and 818 MiB for `status`.
set -eu
command -v /usr/bin/time >/dev/null || { echo "include-fanout: needs GNU time (apt-get install time)" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-20}
cli=${BUILDDIR:-$top/_build}/src/cli/sdtunerctl
[ -x "$cli" ] || { echo "include-fanout: build first ($cli missing)" >&2; exit 2; }
exec /usr/bin/python3 - "$top" "$cli" "$n" <<'PY'
import json, os, resource, shutil, subprocess, sys, tempfile, time

top, cli, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
LIMIT_S, LIMIT_KIB = 1.0, 32 * 1024


def make_root(tmp, name, nested):
    root = os.path.join(tmp, name)
    shutil.copytree(os.path.join(top, 'tests', 'data', 'roots', 'pi3'), root, symlinks=True)
    boot = os.path.join(root, 'boot', 'firmware')
    os.makedirs(boot, exist_ok=True)
    names = [f'inc{i}.txt' for i in range(1, n + 1)]
    with open(os.path.join(boot, 'config.txt'), 'w') as f:
        f.write('arm_64bit=1\n' + ''.join(f'include {x}\n' for x in names))
    for x in names:
        with open(os.path.join(boot, x), 'w') as f:
            f.write(''.join(f'include {y}\n' for y in names) if nested else f'# {x}\ndisable_splash=1\n')
    size = sum(os.path.getsize(os.path.join(boot, x)) for x in names + ['config.txt'])
    return root, size


def run(args):
    # GNU time: ru_maxrss of the command itself, from wait4() of a small parent
    # (a child forked from Python would carry Python's own peak into the figure)
    # (the wall time includes starting GNU time, a millisecond or so)
    t0 = time.monotonic()
    p = subprocess.run(['/usr/bin/time', '-f', '@@ %M'] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=dict(os.environ, LC_ALL='C.UTF-8'))
    dt = time.monotonic() - t0
    err = p.stderr.decode('utf-8', 'replace').splitlines()
    _, rss = [x for x in err if x.startswith('@@ ')][-1].split()
    rest = p.stdout.decode('utf-8', 'replace') + '\n'.join(x for x in err if not x.startswith('@@ '))
    return float(dt), int(rss), p.returncode, rest


ok = True
with tempfile.TemporaryDirectory(prefix='sdt-fanout-') as tmp:
    for label, nested in (('fan-out', True), ('flat', False)):
        root, size = make_root(tmp, label, nested)
        print(f'{label}: config.txt + {n} files ({size} bytes), '
              f'{"each including all " + str(n) if nested else "each included once"}')
        for args in (['status'], ['--json', 'info']):
            dt, rss, rc, text = run([cli, '--root', root] + args)
            detail = ''
            if args[-1] == 'info':
                try:
                    err = json.loads(text[:text.rfind('}') + 1] if '}' in text else text)['config']['error']
                except Exception:
                    err = None
                detail = f', config.error: {err!r}' if err else ''
            else:
                detail = ', says: ' + text.strip().splitlines()[0][:160] if text.strip() else ''
            within = dt < LIMIT_S and rss < LIMIT_KIB
            if nested:
                ok &= within
            print(f'  sdtunerctl {" ".join(args):12s} {dt * 1000:8.1f} ms  peak RSS {rss / 1024:6.1f} MiB'
                  f'  exit {rc}{detail}')
        if nested:
            print(f'  target: < {LIMIT_S:.0f} s and < {LIMIT_KIB // 1024} MiB per command: '
                  f'{"met" if ok else "NOT met"}')
sys.exit(0 if ok else 1)
PY
