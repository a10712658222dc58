#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: sdttap suite=unit
"""tests/sdttap.py, the TAP helper every Python test prints with, run in a child
Python: the numbering, the failure's detail (all, the first N, the last N), the
skip line, the plan and the exit status.  Plain asserts (exit status 1), so a
broken helper cannot pass its own test."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def child(code):
    prog = f'import sys\nsys.path.insert(0, {HERE!r})\nimport sdttap\nfrom sdttap import finish, ok, skip\n{code}\n'
    return subprocess.run([sys.executable, '-c', prog], capture_output=True, text=True, timeout=60)


p = child("ok(True, 'one')\nskip('two', 'no loop devices')\nok(1 == 1, 'three', 'unseen')\n"
          "sys.exit(finish())")
assert p.returncode == 0, p
assert p.stdout == 'ok 1 - one\nok 2 - two # SKIP no loop devices\nok 3 - three\n1..3\n', p.stdout

p = child("ok(False, 'bad', 'a\\nb\\nc')\nok(True, 'good')\nsys.exit(finish())")
assert p.returncode == 1, p
assert p.stdout == 'not ok 1 - bad\n# a\n# b\n# c\nok 2 - good\n1..2\n', p.stdout

p = child("sdttap.detail_lines = 2\nok(False, 'head', 'a\\nb\\nc')\n"
          "sdttap.detail_lines = -2\nok(False, 'tail', 'a\\nb\\nc')\nsys.exit(finish())")
assert p.returncode == 1, p
assert p.stdout == 'not ok 1 - head\n# a\n# b\nnot ok 2 - tail\n# b\n# c\n1..2\n', p.stdout

# sdtcli hands out the same helper: one numbering across both names
p = child("import sdtcli\nsdtcli.ok(True, 'via sdtcli')\nok(True, 'via sdttap')\n"
          "sys.exit(sdtcli.finish())")
assert p.returncode == 0, p
assert p.stdout == 'ok 1 - via sdtcli\nok 2 - via sdttap\n1..2\n', p.stdout
print('sdttap: numbering, detail, skip, plan and exit status as documented')
