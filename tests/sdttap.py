# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""TAP for every Python test that prints it: one numbering, one ok(), one plan.

    from sdttap import finish, ok, skip
    ok(cond, 'name', detail)    # "ok N - name"; on failure "not ok N - name" and
                                # the detail as "# " lines
    skip('name', 'reason')      # "ok N - name # SKIP reason"
    sys.exit(finish())          # the plan "1..N"; 1 if any test failed, else 0

Scripts in tests/ import it directly; those in a subfolder put tests/ on
sys.path first.  Lines are flushed at once, so they interleave in order with
what the programs under test print.
"""

# at most this many lines of a failure's detail: the first N, or with a
# negative number the last -N; None: all
detail_lines = None

_n = 0
_failed = 0


def ok(cond, name, detail=''):
    global _n, _failed
    _n += 1
    print(f'{"ok" if cond else "not ok"} {_n} - {name}', flush=True)
    if cond:
        return
    _failed += 1
    lines = str(detail).splitlines()
    if detail_lines is not None:
        lines = lines[:detail_lines] if detail_lines >= 0 else lines[detail_lines:]
    for line in lines:
        print(f'# {line}', flush=True)


def skip(name, reason):
    global _n
    _n += 1
    print(f'ok {_n} - {name} # SKIP {reason}', flush=True)


def finish():
    """prints the plan; returns the exit status"""
    print(f'1..{_n}', flush=True)
    return 1 if _failed else 0
