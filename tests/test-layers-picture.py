#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: layers-picture suite=style timeout=60 args={srcdir}
"""The picture of the house in docs/ARCHITECTURE.md (docs/pictures/layers.svg) shows
tests/layers.py as it is: tools/draw-layers.py --check; after a change of the table,
`tools/draw-layers.py docs/pictures/layers.svg` draws it again.

usage: test-layers-picture.py SRCDIR"""
import os
import subprocess
import sys

src = os.path.abspath(sys.argv[1])
r = subprocess.run([sys.executable, os.path.join(src, 'tools', 'draw-layers.py'), '--check',
                    os.path.join(src, 'docs', 'pictures', 'layers.svg')],
                   capture_output=True, text=True)
sys.stdout.write(r.stdout)
sys.stderr.write(r.stderr)
sys.exit(r.returncode)
