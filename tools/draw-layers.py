#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""draw-layers.py [--check] SVG: the picture of the house in docs/ARCHITECTURE.md.

Draws the folders of src/ from tests/layers.py (the table the build checks: what each
folder's meson.build lets it use) as an SVG: one floor per layer, each folder on the
floor above the highest it stands on, an arrow to every folder it uses directly.  No
arrow can point up: a folder's floor is above all of its dependencies' by construction,
and the table has no circles (check-shape.py fails a circle in the code itself).

With --check, compares SVG with what it would write and exits 1 when they differ (the
`layers-picture` test: the picture follows the table).  Standard library only."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'tests'))
from layers import LAYERS  # noqa: E402

BOX_W, BOX_H, GAP_X, FLOOR_H, MARGIN = 112, 30, 22, 78, 24
# what each kind of folder is, for the fill: the wire, the ground, the root-only engines,
# the user side, the programs
KIND = {
    'wire': '#ffd966', 'libsdt': '#d9d9d9', 'dbus': '#d9d9d9',
    'app': '#b6d7a8', 'app/logic': '#b6d7a8', 'client': '#b6d7a8',
    'cli': '#9fc5e8', 'helper': '#9fc5e8',
}
ENGINE = '#f4cccc'


def floors():
    """folder -> floor (0: the ground), the longest way down to a folder using nothing"""
    memo = {}

    def floor(f):
        if f not in memo:
            memo[f] = 1 + max((floor(d) for d in LAYERS[f]), default=-1)
        return memo[f]
    for f in LAYERS:
        floor(f)
    return memo


def layout():
    fl = floors()
    top = max(fl.values())
    # the user's side on the left, root's on the right, the ground under both
    side = {'cli': 0, 'app': 0, 'app/logic': 0, 'client': 0, 'dbus': 1, 'helper': 2}
    rows = [sorted((f for f in LAYERS if fl[f] == k), key=lambda f: (side.get(f, 1), f))
            for k in range(top + 1)]
    width = max(len(r) for r in rows) * (BOX_W + GAP_X) - GAP_X + 2 * MARGIN
    pos = {}
    for k, row in enumerate(rows):
        row_w = len(row) * (BOX_W + GAP_X) - GAP_X
        x0 = (width - row_w) / 2
        y = MARGIN + (top - k) * FLOOR_H
        for i, f in enumerate(row):
            pos[f] = (x0 + i * (BOX_W + GAP_X), y)
    height = MARGIN * 2 + top * FLOOR_H + BOX_H
    return pos, width, height, top


def svg():
    pos, width, height, top = layout()
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="13">',
           '<title>The folders of src/ and what each uses directly (tests/layers.py)</title>',
           '<defs><marker id="a" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
           'fill="#555"/></marker></defs>',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>']
    for f in sorted(LAYERS):
        x, y = pos[f]
        for d in LAYERS[f]:
            dx, dy = pos[d]
            out.append(f'<line x1="{x + BOX_W / 2:.1f}" y1="{y + BOX_H:.1f}" '
                       f'x2="{dx + BOX_W / 2:.1f}" y2="{dy:.1f}" stroke="#555" '
                       'stroke-opacity="0.55" marker-end="url(#a)"/>')
    for f in sorted(LAYERS):
        x, y = pos[f]
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{BOX_W}" height="{BOX_H}" rx="5" '
                   f'fill="{KIND.get(f, ENGINE)}" stroke="#333"/>')
        out.append(f'<text x="{x + BOX_W / 2:.1f}" y="{y + BOX_H / 2 + 4.5:.1f}" '
                   f'text-anchor="middle">{f}</text>')
    out.append('</svg>')
    return '\n'.join(out) + '\n'


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(args) != 1:
        sys.exit(__doc__)
    text = svg()
    if '--check' in sys.argv:
        try:
            with open(args[0]) as f:
                same = f.read() == text
        except OSError:
            same = False
        if not same:
            print(f'{args[0]} does not show tests/layers.py as it is: run '
                  f'tools/draw-layers.py {args[0]}', file=sys.stderr)
            sys.exit(1)
        print(f'{args[0]}: the picture shows tests/layers.py ({len(LAYERS)} folders)')
        return
    with open(args[0], 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
