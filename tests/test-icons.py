#!/usr/bin/python3
# meson-test: icons suite=data run=system needs=gtk args={srcdir}
"""test-icons.py SRCDIR - the hicolor icons: an SVG and every PNG size at its real size."""
import os
import struct
import sys
import xml.etree.ElementTree as ET

src = sys.argv[1]
base = os.path.join(src, 'data', 'icons', 'hicolor')
name = 'org.example.SdTuner'
svg = ET.parse(os.path.join(base, 'scalable', 'apps', name + '.svg')).getroot()
assert svg.tag.endswith('svg'), svg.tag
print('ok scalable svg', svg.get('viewBox'))
for size in (16, 24, 32, 48, 64, 128, 256):
    path = os.path.join(base, f'{size}x{size}', 'apps', name + '.png')
    with open(path, 'rb') as f:
        head = f.read(24)
    assert head[:8] == b'\x89PNG\r\n\x1a\n', f'{path}: not a PNG'
    w, h = struct.unpack('>II', head[16:24])
    assert (w, h) == (size, size), f'{path}: {w}x{h}, expected {size}x{size}'
    print(f'ok {size}x{size}')
