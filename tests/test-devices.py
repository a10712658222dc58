#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: devices-cli suite=integration timeout=120 protocol=tap env=test
#    args=@sdtunerctl@
"""Issue 34: `sdtunerctl devices [--json]`, which block devices can be checked and why not.
  card-readers: `sdtunerctl --root DIR devices` under umockdev-run on
      tests/data/umockdev/card-readers.umockdev (the Pi's own SD card holding the system, a
      USB reader with a card, an empty reader, a USB SSD, a reader whose card is mounted,
      a second built-in SD slot): text and JSON agree, each with its reason.
  bad input: an argument (exit 2), a root without a mount table (exit 1, nothing offered).
  real kernel: `sdtunerctl --root / --json devices` on this machine, no umockdev: the disk
      holding / is "the system disk"; as root, a loop device this test attaches to a file
      is listed and not offered (not removable), and is detached again. On a simulated
      board (`--root DIR`, the card-readers mount table, the real kernel's devices) the same
      loop device is offered as a stand-in for a card ("stand-in"), judged against the
      host's mount table: mounted (on the host) it is refused as mounted.

usage: test-devices.py SDTUNERCTL   (run by meson; prints TAP)"""
import json
import os
import shutil
import subprocess

import sdtcli
from sdtcli import DATA, ok

SDTUNERCTL = sdtcli.init()
UMOCKDEV = os.path.join(DATA, 'umockdev', 'card-readers.umockdev')
ROOT = os.path.join(DATA, 'roots', 'card-readers')

EXPECT = {  # device -> (offered, reason_code, vendor, model, serial, mount points)
    'mmcblk0': (False, 'system-disk', None, 'SU08G', '0x1e4c2983',
                ['/', '/boot/firmware']),  # in the mount table's order
    'mmcblk1': (True, None, None, 'SC64G', '0x5a3c0e1b', []),
    'sda': (True, None, 'Generic', 'STORAGE DEVICE', '000000000819', []),
    'sdb': (False, 'no-medium', 'Generic-', 'SD/MMC', '058F63666485', []),
    'sdc': (False, 'not-removable', 'Samsung', 'PSSD T7', 'S5T2NG0R123456A', []),
    'sdd': (False, 'mounted', 'Mass', 'Storage Device', '121220160204', ['/media/pi/NIKON D']),
}

TEXT = {  # device -> the words of its line
    'mmcblk0': ['SU08G (mmcblk0), 7.9 GB', 'It is the system disk'],
    'mmcblk1': ['SC64G (mmcblk1), 63.9 GB', 'Can be checked'],
    'sda': ['Generic STORAGE DEVICE (sda), 31.9 GB', 'Can be checked'],
    'sdb': ['Generic- SD/MMC (sdb)', 'There is no card in it'],
    'sdc': ['Samsung PSSD T7 (sdc), 256.1 GB', 'It is not removable and not an SD card'],
    'sdd': ['Mass Storage Device (sdd), 15.9 GB', 'It is mounted: unmount it first'],
}


def case_card_readers(tmp):
    p = sdtcli.run(['--json', 'devices'], umockdev=UMOCKDEV, root=ROOT)
    ok(p.returncode == 0, 'card-readers devices --json: exit 0', p.stderr)
    devices = {d['device']: d for d in json.loads(p.stdout or '{"devices": []}')['devices']}
    ok(sorted(devices) == sorted(EXPECT), 'card-readers: the six disks, no partitions',
       sorted(devices))
    for name, (offered, code, vendor, model, serial, mounts) in EXPECT.items():
        d = devices.get(name, {})
        got = (d.get('offered'), d.get('reason_code'), d.get('vendor'), d.get('model'),
               d.get('serial'), d.get('mount_points'))
        ok(got == (offered, code, vendor, model, serial, mounts), f'card-readers {name}: {got}',
           f'expected {(offered, code, vendor, model, serial, mounts)}')
        ok((d.get('reason') is None) == offered, f'card-readers {name}: a reason iff not offered',
           d.get('reason'))
    ok(devices['sda']['bus'] == 'usb' and devices['sda']['path'] == '/dev/sda' and
       devices['sda']['size_bytes'] == 62333952 * 512 and devices['sda']['removable'],
       'card-readers sda: usb, /dev/sda, its size, removable', devices['sda'])
    ok(devices['mmcblk0']['system_disk'] and devices['mmcblk0']['sd_card'],
       'card-readers mmcblk0: the system disk, an SD card')
    speeds = {name: d.get('usb_speed_mbit_s', 'absent') for name, d in devices.items()}
    ok(speeds == {'mmcblk0': None, 'mmcblk1': None, 'sda': 480, 'sdb': 480, 'sdc': 480,
                  'sdd': 12},
       'card-readers: usb_speed_mbit_s, the reader\'s own USB link (null off USB)', speeds)
    ok(devices['sdb']['size_bytes'] == 0 and devices['sdb']['signatures_from'] is None,
       'card-readers sdb: no medium, nothing read', devices['sdb'])

    p = sdtcli.run(['devices'], umockdev=UMOCKDEV, root=ROOT)
    ok(p.returncode == 0, 'card-readers devices: exit 0', p.stderr)
    lines = p.stdout.splitlines()
    ok(len(lines) == len(TEXT), 'card-readers devices: one line per device', p.stdout)
    for name, words in TEXT.items():
        line = [x for x in lines if x.startswith(f'/dev/{name} ')]
        # g_format_size() puts a no-break space between figure and unit
        ok(len(line) == 1 and all(w in line[0].replace('\u00a0', ' ') for w in words),
           f'card-readers devices: the line of {name} says {words}', p.stdout)


def case_bad_input(tmp):
    p = sdtcli.run(['devices', 'sda'], umockdev=UMOCKDEV, root=ROOT)
    ok(p.returncode == 2, 'devices sda: bad usage, exit 2', f'{p.returncode} {p.stderr}')
    root = os.path.join(tmp, 'no-mounts')
    os.makedirs(root)
    p = sdtcli.run(['--json', 'devices'], umockdev=UMOCKDEV, root=root)
    err = json.loads(p.stdout or '{}').get('error', {})
    ok(p.returncode == 1 and 'cannot read the mount table' in err.get('message', ''),
       'no mount table: exit 1, the error says why (the system disk would be unknown)',
       f'{p.returncode} {p.stdout} {p.stderr}')


def kernel_devices(root='/'):
    p = sdtcli.run(['--root', root, '--json', 'devices'])
    ok(p.returncode == 0, f'real kernel: devices --json exits 0 (--root {root})', p.stderr)
    return {d['device']: d for d in json.loads(p.stdout or '{"devices": []}')['devices']}


def system_disk_of_root():
    """the whole disk / is on, from the kernel: /sys/dev/block/MAJ:MIN, its parent for a
    partition; None for a / without a block device (overlay, tmpfs)"""
    st = os.stat('/')
    link = f'/sys/dev/block/{os.major(st.st_dev)}:{os.minor(st.st_dev)}'
    if os.major(st.st_dev) == 0 or not os.path.exists(link):
        return None
    path = os.path.realpath(link)
    if os.path.exists(os.path.join(path, 'partition')):
        path = os.path.dirname(path)
    return os.path.basename(path)


def case_real_kernel(tmp):
    devices = kernel_devices()
    system = system_disk_of_root()
    if system is None:
        ok(True, '# SKIP real kernel: / is not on a block device here')
    else:
        d = devices.get(system, {})
        ok(d.get('reason_code') == 'system-disk' and d.get('offered') is False and
           '/' in d.get('mount_points', []),
           f'real kernel: {system} (where / is) is the system disk, not offered', d)
    if os.geteuid() != 0 or shutil.which('losetup') is None:
        ok(True, '# SKIP real kernel loop device: not root')
        return
    image = os.path.join(tmp, 'card.img')
    with open(image, 'wb') as f:
        f.truncate(64 << 20)
    p = subprocess.run(['losetup', '--find', '--show', image], capture_output=True, text=True)
    if p.returncode != 0:
        ok(True, f'# SKIP real kernel loop device: losetup: {p.stderr.strip()}')
        return
    loop = os.path.basename(p.stdout.strip())
    try:
        d = kernel_devices().get(loop, {})
        ok(d.get('size_bytes') == 64 << 20 and d.get('offered') is False and
           d.get('reason_code') == 'not-removable' and d.get('path') == f'/dev/{loop}',
           f'real kernel: our {loop} (64 MiB file) is listed, not removable', d)
        d = kernel_devices(ROOT).get(loop, {})
        ok(d.get('offered') is True and d.get('reason_code') == 'stand-in' and
           'simulated board' in (d.get('reason') or ''),
           f'simulated board: our {loop} is offered as a stand-in for a card', d)
        subprocess.run(['mkfs.ext4', '-q', '-F', f'/dev/{loop}'], capture_output=True,
                       check=True)
        mnt = os.path.join(tmp, 'mnt')
        os.makedirs(mnt)
        # mounted in a mount namespace of its own, so that no namespace another program
        # makes meanwhile (a test tier building a root, a sandbox) copies the mount and
        # keeps the loop device busy after it is detached below
        argv = sdtcli.argv(['--root', ROOT, '--json', 'devices'], None, None)
        p = subprocess.run(['unshare', '--mount', '--propagation', 'private', 'sh', '-c',
                            'mount "$1" "$2" || exit 97; dev="$2"; shift 2; "$@"; rc=$?; '
                            'umount "$dev"; exit $rc', 'sh', f'/dev/{loop}', mnt] + argv,
                           capture_output=True, text=True, env=sdtcli.env(), timeout=60)
        ok(p.returncode == 0, 'real kernel: devices --json exits 0 with the loop device '
           'mounted (in a mount namespace of its own)', p.stderr)
        d = {e['device']: e for e in json.loads(p.stdout or '{"devices": []}')['devices']}
        d = d.get(loop, {})
        ok(d.get('offered') is False and d.get('reason_code') == 'mounted' and
           mnt in d.get('mount_points', []),
           f'simulated board: our {loop} mounted on the host is refused as mounted', d)
    finally:
        subprocess.run(['losetup', '-d', f'/dev/{loop}'], check=False)
    ok(loop not in kernel_devices(), f'real kernel: {loop} detached is no longer listed')


sdtcli.main('sdt-devices', case_card_readers, case_bad_input, case_real_kernel)
