# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""The layers of src/ (docs/ARCHITECTURE.md "Layers"): each folder and the
folders it depends on directly, as its meson.build declares them. A folder may
include the headers of every folder it reaches through these, and no other.
Read by check-shape.py (the includes in the sources) and
test-layer-includes.py (what the compiler lets each layer include)."""

LAYERS = {
    'libsdt': [],
    'wire': ['libsdt'],
    'platform': ['wire', 'libsdt'],
    'config/edit': ['libsdt'],
    'config/writer': ['config/edit', 'wire', 'libsdt'],
    'bench': ['wire', 'libsdt'],
    'check': ['bench', 'platform', 'wire', 'libsdt'],
    'decide': ['bench', 'platform', 'config/edit', 'wire', 'libsdt'],
    'state': ['decide', 'wire', 'libsdt'],
    'ops': ['config/writer', 'check', 'bench', 'decide', 'state', 'platform', 'config/edit',
            'libsdt'],
    'dbus': ['libsdt'],
    'client': ['dbus', 'wire', 'libsdt'],
    'cli': ['client', 'ops'],
    'helper': ['ops', 'dbus'],
    'app/logic': ['client', 'config/edit', 'libsdt', 'dbus'],
    'app': ['app/logic'],
}


def layer_closure(folder):
    """every folder @folder may use, itself excluded"""
    seen = set()
    todo = [folder]
    while todo:
        for dep in LAYERS.get(todo.pop(), []):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen
