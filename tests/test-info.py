#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: info suite=integration timeout=120 protocol=tap env=test args=@sdtunerctl@
"""Whole `sdtunerctl --root DIR --json info` runs under umockdev-run: every fixture gives
exactly the board key, card classes and bus facts it should.

usage: test-info.py SDTUNERCTL   (run by meson; prints TAP)"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtcli  # noqa: E402
from sdtcli import DATA, HERE, ok  # noqa: E402

SDTUNERCTL = sdtcli.init()
SIM = os.path.join(HERE, '..', 'data', 'sim')

ZERO_SSR = '0' * 128

# (name, umockdev file, root, {dotted key: exact value}, warnings that must be there)
CASES = [
    ('pi3-sdhost-overclocked', 'umockdev/pi3.umockdev', 'roots/pi3', {
        'board.model': 'Raspberry Pi 3 Model B Rev 1.2', 'board.key': '3', 'board.revision': 'a02082',
        'board.type_code': 8, 'board.soc': 'BCM2837', 'board.sd_controller': 'sdhost',
        'board.filter': '[board-type=0x08]', 'board.core_clock_hz': 400000000,
        'card.present': True, 'card.device': 'mmcblk0', 'card.manfid': 3,
        'card.manufacturer': 'SanDisk/Western Digital', 'card.oemid': 'SD', 'card.name': 'SU08G',
        'card.date': '2013-02', 'card.capacity_bytes': 7948206080, 'card.spec_version': '3.0x',
        'card.speed_class': 4, 'card.uhs_grade': 0, 'card.video_class': 0, 'card.app_class': 0,
        'card.cq_depth': 0, 'card.cache': False, 'card.cmd48': False,
        'card.host': 'mmc0', 'card.host_device': '3f202000.mmc', 'card.host_driver': 'sdhost-bcm2835',
        'card.holds_system': True, 'card.mount_points': ['/', '/boot/firmware'],
        'card.serial': '0x1e4c2983', 'card.ext_perf': None, 'card.ext_power': None,
        'bus.clock_hz': 50000000, 'bus.actual_clock_hz': 100000000, 'bus.timing': 'sd-high-speed',
        'bus.bus_width': 4, 'bus.ceiling_mb_s': 50.0, 'bus.cqe': 'off', 'bus.signal_voltage': 3.3,
        'bus.source': 'debugfs', 'kernel_log.read': True, 'kernel_log.overclock_hz': 100000000,
        'kernel_log.overclock_reduced': 0, 'kernel_log.overclock_cancelled': False,
        'kernel_log.quirks': None, 'simulated': True, 'warnings': [],
    }, []),
    ('pi3-no-debugfs-overclock-reduced', 'umockdev/pi3.umockdev', 'roots/pi3-no-debugfs', {
        'board.key': '3', 'bus.source': 'kernel-log', 'bus.timing': 'sd-high-speed',
        'bus.clock_hz': 50000000, 'bus.actual_clock_hz': 80000000, 'bus.bus_width': 4,
        'bus.ceiling_mb_s': 40.0, 'bus.signal_voltage': None, 'bus.cqe': 'off',
        'kernel_log.overclock_hz': 80000000, 'kernel_log.overclock_current_hz': 80000000,
        'kernel_log.overclock_reduced': 1, 'kernel_log.overclock_cancelled': False,
    }, ['mmc0/ios does not exist (debugfs is not mounted): the bus state comes from the kernel log']),
    ('pi3-qemu-emulated-card', 'umockdev/pi3-qemu.umockdev', 'roots/pi3-qemu', {
        'board.model': 'Raspberry Pi 3 Model B', 'board.key': '3', 'board.revision': None,
        'board.type_code': None, 'board.soc': 'BCM2837', 'board.sd_controller': 'sdhost',
        'board.source': 'compatible',
        'card.present': True, 'card.manfid': 0xaa, 'card.oemid': 'XY', 'card.name': 'QEMU!',
        'card.date': '2006-02', 'card.capacity_bytes': 4294967296, 'card.spec_version': '2.00',
        'card.speed_class': None, 'card.uhs_grade': None, 'card.video_class': None,
        'card.app_class': None, 'card.cq_depth': None, 'card.cache': None,
        'card.registers.ssr': ZERO_SSR, 'card.holds_system': True,
        'bus.clock_hz': 50000000, 'bus.actual_clock_hz': 50000000, 'bus.timing': 'sd-high-speed',
        'bus.bus_width': 4, 'bus.ceiling_mb_s': 25.0, 'bus.cqe': 'off',
        'kernel_log.overclock_hz': None,
    }, ['SSR is all zeros']),
    ('pi4-emmc2-ddr50', 'umockdev/pi4.umockdev', 'roots/pi4', {
        'board.key': '4', 'board.revision': 'd03115', 'board.type_code': 0x11, 'board.soc': 'BCM2711',
        'board.sd_controller': 'emmc2', 'board.core_clock_hz': None, 'board.memory_mb': 8192,
        'card.present': True, 'card.manufacturer': 'Samsung', 'card.oemid': 'SM', 'card.name': 'JD1Y7',
        'card.capacity_bytes': 128177930240, 'card.spec_version': '6.xx', 'card.speed_class': 10,
        'card.uhs_grade': 3, 'card.video_class': 30, 'card.app_class': 2, 'card.cq_depth': 32,
        'card.cache': True, 'card.cmd48': True, 'card.host_device': 'fe340000.mmc',
        'card.host_driver': 'sdhci-iproc',
        'bus.clock_hz': 50000000, 'bus.actual_clock_hz': 50000000, 'bus.timing': 'uhs-ddr50',
        'bus.bus_width': 4, 'bus.ceiling_mb_s': 50.0, 'bus.cqe': 'off', 'bus.signal_voltage': 1.8,
        'kernel_log.card_timing': 'uhs-ddr50', 'warnings': [],
    }, []),
    ('pi4-usb-boot-card-present', 'umockdev/pi4.umockdev', 'roots/pi4-usb-boot', {
        'board.key': '4', 'card.present': True, 'card.device': 'mmcblk0', 'card.holds_system': False,
        'card.system_device': 'sda2', 'card.mount_points': [], 'card.app_class': 2,
        'bus.ceiling_mb_s': 50.0,
    }, ['does not run from this SD card (/ is on sda2)']),
    ('pi4-no-card', 'umockdev/pi4-no-card.umockdev', 'roots/pi4-no-card', {
        'board.key': '4', 'card.present': False, 'card.device': None, 'card.manfid': None,
        'card.name': None, 'card.capacity_bytes': None, 'card.app_class': None,
        'card.holds_system': None, 'bus.clock_hz': None, 'bus.timing': 'unknown',
        'bus.ceiling_mb_s': None, 'bus.cqe': 'unknown',
    }, ['No SD card found']),
    ('pi5-sdhci-brcmstb-cqe', 'umockdev/pi5.umockdev', 'roots/pi5', {
        'board.model': 'Raspberry Pi 5 Model B Rev 1.0', 'board.key': '5', 'board.revision': 'd04170',
        'board.type_code': 0x17, 'board.soc': 'BCM2712', 'board.sd_controller': 'sdhci-brcmstb',
        'board.filter': '[board-type=0x17]',
        'card.present': True, 'card.manfid': 3, 'card.manufacturer': 'SanDisk/Western Digital',
        'card.oemid': 'SD', 'card.name': 'SN64G', 'card.date': '2022-11',
        'card.capacity_bytes': 63864569856, 'card.spec_version': '6.xx', 'card.speed_class': 10,
        'card.uhs_grade': 3, 'card.video_class': 30, 'card.app_class': 2, 'card.cq_depth': 32,
        'card.cache': True, 'card.cmd48': True, 'card.host_device': '1000fff000.mmc',
        'card.host_driver': 'sdhci-brcmstb',
        'card.ext_perf': {'raw': 0x18, 'cache': True, 'cmd_queue': True, 'card_maintenance': False,
                          'host_maintenance': False},
        'card.ext_power': {'raw': 1, 'power_off_notify': True},
        'bus.clock_hz': 200000000, 'bus.actual_clock_hz': 200000000, 'bus.timing': 'uhs-sdr104',
        'bus.bus_width': 4, 'bus.ceiling_mb_s': 100.0, 'bus.cqe': 'enabled', 'bus.signal_voltage': 1.8,
        'kernel_log.cqe_enabled': True, 'kernel_log.cqe_tags': 31, 'kernel_log.cqe_recovery': 0,
        'kernel_log.quirks': '0x00004000', 'warnings': [],
    }, []),
    ('pi5-bad-input', 'umockdev/pi5.umockdev', 'roots/pi5-bad-input', {
        'board.key': '5', 'card.app_class': 2,
        'bus.source': 'kernel-log', 'bus.timing': 'uhs-sdr104', 'bus.clock_hz': 208000000,
        'bus.actual_clock_hz': 208000000, 'bus.bus_width': 4, 'bus.ceiling_mb_s': 104.0,
        'bus.signal_voltage': None, 'bus.cqe': 'host-software-queue',
        'kernel_log.host_software_queue': True, 'kernel_log.cqe_enabled': False,
        'kernel_log.cqe_recovery': 2, 'kernel_log.quirks': '0x00004000',
    }, ['1 line of the kernel log is not a kmsg record', 'ios cannot be read']),
    ('non-pi-tinker-board', 'umockdev/tinker-board.umockdev', 'roots/tinker-board', {
        'board.model': 'Rockchip RK3288 Asus Tinker Board', 'board.key': 'unknown',
        'board.revision': None, 'board.type_code': None, 'board.soc': None,
        'board.sd_controller': 'unknown', 'board.filter': None,
        'board.compatible': ['asus,rk3288-tinker', 'rockchip,rk3288'],
        'card.present': True, 'card.device': 'mmcblk1', 'card.host': 'mmc1',
        'card.host_driver': 'dwmmc_rockchip', 'card.name': 'SU08G', 'card.speed_class': 4,
        'card.holds_system': True, 'card.mount_points': ['/', '/boot'],
        'bus.source': 'kernel-log', 'bus.timing': 'sd-high-speed', 'bus.clock_hz': 50000000,
        'bus.bus_width': None, 'bus.ceiling_mb_s': None, 'bus.cqe': 'off',
    }, ['Revision code 0000', 'not a Raspberry Pi', 'mmc1/ios does not exist',
        'bus width of this board is not known']),
    ('bad-registers-garbage-board', 'umockdev/bad-registers.umockdev', 'roots/garbage', {
        'board.model': None, 'board.key': 'unknown', 'board.compatible': [],
        'card.present': True, 'card.manfid': None, 'card.manufacturer': None, 'card.oemid': None,
        'card.name': 'SU08G', 'card.date': None, 'card.capacity_bytes': 7948206080,
        'card.spec_version': None, 'card.speed_class': None, 'card.cmd48': None,
        'card.holds_system': None, 'card.ext_perf': None, 'card.ext_power': None,
        'bus.timing': 'unknown', 'bus.ceiling_mb_s': None, 'kernel_log.read': True,
    }, ['CID) cannot be decoded (CID has 26 hex digits instead of 32)',
        'CSD) cannot be decoded (CSD has a non-hex character at position 28)',
        'SCR) cannot be decoded (SCR has 17 hex digits instead of 16)',
        'SSR) cannot be used (SSR has 127 hex digits instead of 128)',
        'ext_perf cannot be read', 'device-tree model string is empty or not readable text',
        'compatible list is empty', 'revision has 2 bytes instead of 4', 'zz-not-hex',
        'cannot read the mount table', 'is not an mmc ios file', 'does not say how the card was set up']),
    ('simulated-pi3', '../../data/sim/rpi3.umockdev', '../../data/sim/rpi3', {
        'board.key': '3', 'board.revision': 'a02082', 'card.name': 'SU08G',
        'bus.actual_clock_hz': 50000000, 'bus.ceiling_mb_s': 25.0, 'kernel_log.overclock_hz': None,
        'simulated': True, 'warnings': [],
    }, []),
]

def run(umockdev, args):
    return sdtcli.run(args, umockdev=os.path.join(DATA, umockdev))


def get(doc, dotted):
    for part in dotted.split('.'):
        if not isinstance(doc, dict) or part not in doc:
            raise KeyError(dotted)
        doc = doc[part]
    return doc


REQUIRED = {
    'board': ['model', 'key', 'revision', 'type_code', 'soc', 'sd_controller'],
    'card': ['present', 'device', 'manfid', 'manufacturer', 'oemid', 'name', 'date',
             'capacity_bytes', 'spec_version', 'speed_class', 'uhs_grade', 'video_class',
             'app_class', 'cq_depth', 'cache'],
    'bus': ['clock_hz', 'actual_clock_hz', 'timing', 'bus_width', 'ceiling_mb_s', 'cqe'],
    'config': ['path', 'sd_settings'],
}

for name, umockdev, root, expect, warnings in CASES:
    p = run(umockdev, ['--root', os.path.join(DATA, root), '--json', 'info'])
    ok(p.returncode == 0, f'{name}: exit status 0', p.stderr)
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        ok(False, f'{name}: JSON output', f'{e}\n{p.stdout}\n{p.stderr}')
        continue
    missing = [f'{s}.{k}' for s, keys in REQUIRED.items() for k in keys if k not in doc.get(s, {})]
    ok(not missing and isinstance(doc.get('warnings'), list) and
       isinstance(doc['config']['sd_settings'], list),
       f'{name}: every DESIGN.md key is there', missing)
    for key, want in expect.items():
        try:
            got = get(doc, key)
        except KeyError:
            ok(False, f'{name}: {key}', 'missing')
            continue
        same = got == want and type(got) is type(want)
        ok(same, f'{name}: {key} == {want!r}', f'got {got!r}')
    for w in warnings:
        ok(any(w in text for text in doc['warnings']), f'{name}: warning "{w}"',
           json.dumps(doc['warnings'], indent=1))

# the human output: aligned, with units
p = run('umockdev/pi3.umockdev', ['--root', os.path.join(DATA, 'roots/pi3'), 'info'])
ok(p.returncode == 0, 'human: exit status 0', p.stderr)
for line in ['SIMULATED: this is read from a test root, not from the hardware of this machine',
             '  Board key          3 (3B)',
             '  SD controller      sdhost (default core clock 400.00 MHz)',
             '  Capacity           7.9 GB (7948206080 bytes, 7.4 GiB)',
             '  Speed class        C4',
             '  Clock              100.00 MHz actual (50.00 MHz requested)',
             '  Bus width          4 bits',
             '  Bus ceiling        50.0 MB/s (10^6 bytes/s, from clock × width)',
             '  Maker              likely SanDisk/Western Digital (manufacturer id 0x03, OEM “SD”)',
             '  Command queue      not supported',
             '  SD overclock       100.00 MHz, reduced 0 times']:
    ok(line in p.stdout.splitlines(), f'human: line "{line.strip()}"', p.stdout)

p = run('umockdev/pi5.umockdev', ['--root', os.path.join(DATA, 'roots/pi5'), 'info'])
ok(p.returncode == 0, 'human pi5: exit status 0', p.stderr)
for line in ['  Board key          5',
             '  App class          A2',
             '  Command queue      card supports depth 32',
             '  Cache              card supports a cache',
             '  Linux detected     cache, command queue, power-off notification',
             '  Bus ceiling        100.0 MB/s (10^6 bytes/s, from clock × width)',
             '  Command queueing   enabled',
             '  CQ engine          enabled, 31 tags',
             '  mmcblk quirks      0x00004000']:
    ok(line in p.stdout.splitlines(), f'human pi5: line "{line.strip()}"', p.stdout)

# the human output names config.txt and every SD line in it, with its filter and owner
with tempfile.TemporaryDirectory(prefix='sdt-info-config-') as scratch:
    shutil.copytree(os.path.join(SIM, 'rpi3'), scratch, dirs_exist_ok=True)
    with open(os.path.join(scratch, 'boot/firmware/config.txt'), 'a') as f:
        f.write('[pi3]\ndtoverlay=sdhost,overclock_50=80\n[all]\n')
    p = run('../../data/sim/rpi3.umockdev', ['--root', scratch, 'info'])
    ok(p.returncode == 0, 'human config: exit status 0', p.stderr)
    for line in ['Boot configuration',
                 '  config.txt         /boot/firmware/config.txt',
                 '  SD Tuner block     none',
                 '  line 50            dtoverlay=sdhost,overclock_50=80  [pi3], '
                 'applies to this board, written by hand',
                 '                     warning: the sdhost overlay switches off Wi-Fi on this '
                 'board: use dtparam=sd_overclock instead']:
        ok(line in p.stdout.splitlines(), f'human config: line "{line.strip()}"', p.stdout)
p = run('umockdev/pi3.umockdev', ['--root', os.path.join(DATA, 'roots/pi3'), 'info'])
ok(any(l.startswith('  config.txt         neither ') and l.endswith('then try again')
       for l in p.stdout.splitlines()),
   'human config: a missing config.txt is explained', p.stdout)

# without --root and without a helper on the bus, info reads this machine in-process
p = sdtcli.run(['--json', 'info'],
               environ=sdtcli.env(DBUS_SYSTEM_BUS_ADDRESS='unix:path=/nonexistent/sd-tuner-test-bus'))
ok(p.returncode == 0 and 'reading this machine directly' in p.stderr,
   'no helper: info reads this machine directly', f'{p.returncode} {p.stderr}')
if p.returncode == 0:
    doc = json.loads(p.stdout)
    ok(doc['simulated'] is False and isinstance(doc['warnings'], list),
       'no helper: the document is not simulated', p.stdout)

# bad usage is the only error: exit 2 with a message
p = run('umockdev/pi3.umockdev', ['--root', os.path.join(DATA, 'no-such-dir'), 'info'])
ok(p.returncode == 2 and 'no-such-dir' in p.stderr, 'missing --root directory: exit 2',
   f'{p.returncode} {p.stderr}')
p = run('umockdev/pi3.umockdev', ['--root', os.path.join(DATA, 'roots/pi3'), '--bogus', 'info'])
ok(p.returncode == 2 and p.stdout == '', 'unknown option: exit 2', f'{p.returncode} {p.stderr}')
p = run('umockdev/pi3.umockdev', ['--root', os.path.join(DATA, 'roots/pi3'), 'info', 'extra'])
ok(p.returncode == 2 and 'extra' in p.stderr, 'extra argument: exit 2', f'{p.returncode} {p.stderr}')

sys.exit(sdtcli.finish())
