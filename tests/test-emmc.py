#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: emmc-and-system-disk suite=integration timeout=180 protocol=tap env=test
#    args=@sdtunerctl@
"""Issue 27 items 3 and 4: a CM4 running from its eMMC, and a Pi that does not run from
its SD card (Pi 5 from NVMe, Pi 4 from USB), through whole `sdtunerctl --root DIR` runs
under umockdev-run: `info`, `health` and `recommend`, text and JSON, give the right words;
`apply` is refused and `bench` goes to the card, never to the system disk.

usage: test-emmc.py SDTUNERCTL   (run by meson; prints TAP)"""
import json
import os

import sdtcli
from sdtcli import DATA, ok

SDTUNERCTL = sdtcli.init()

CM4 = 'cm4-emmc'
NVME = ('pi5-nvme-boot.umockdev', 'pi5-nvme-boot')
USB = ('pi4.umockdev', 'pi4-usb-boot')


def get(doc, dotted):
    for part in dotted.split('.'):
        if not isinstance(doc, dict) or part not in doc:
            raise KeyError(dotted)
        doc = doc[part]
    return doc


def check_keys(name, doc, expect):
    for key, want in expect.items():
        try:
            got = get(doc, key)
        except KeyError:
            ok(False, f'{name}: {key}', 'missing')
            continue
        ok(got == want and type(got) is type(want), f'{name}: {key} == {want!r}', f'got {got!r}')


def run_json(root, umockdev, *args):
    p = sdtcli.run(['--json'] + list(args), umockdev=umockdev, root=root)
    ok(p.returncode == 0, f'{os.path.basename(root)} {args[0]} --json: exit 0', p.stderr)
    try:
        return json.loads(p.stdout)
    except ValueError:
        return {}


def run_text(root, umockdev, *args):
    p = sdtcli.run(list(args), umockdev=umockdev, root=root)
    ok(p.returncode == 0, f'{os.path.basename(root)} {args[0]}: exit 0', p.stderr)
    return p.stdout


def has_lines(name, text, lines):
    for line in lines:
        ok(line in text.splitlines(), f'{name}: line "{line.strip()}"', text)


def has_words(name, text, words):
    for w in words:
        ok(w in text, f'{name}: says "{w}"', text)


def emmc_life(value, state, lo, hi):
    return {'value': value, 'state': state, 'used_min_percent': lo, 'used_max_percent': hi}


# (umockdev file, card.emmc expected, info text lines about the wear, health words)
CM4_CASES = [
    ('cm4-emmc.umockdev', {
        'wear': 'normal', 'life_time_a': emmc_life(2, 'used', 10, 20),
        'life_time_b': emmc_life(3, 'used', 20, 30), 'pre_eol': {'value': 1, 'state': 'normal'},
        'ext_csd_rev': 8,
    }, ['  Wear               The eMMC reports normal wear.',
        '  Life used (A)      10–20% of its rated life used (0x02)',
        '  Life used (B)      20–30% of its rated life used (0x03)',
        '  Reserved blocks    normal (0x01)']),
    ('cm4-emmc-warning.umockdev', {
        'wear': 'warning', 'life_time_b': emmc_life(9, 'used', 80, 90),
        'pre_eol': {'value': 2, 'state': 'warning'},
    }, ['  Wear               The eMMC reports heavy wear: back up your data and plan to '
        'replace the board or module.',
        '  Life used (B)      80–90% of its rated life used (0x09)',
        '  Reserved blocks    warning (0x02): 80% of the reserved blocks are used']),
    ('cm4-emmc-urgent.umockdev', {
        'wear': 'urgent', 'life_time_b': emmc_life(10, 'used', 90, 100),
        'pre_eol': {'value': 3, 'state': 'urgent'},
    }, ['  Reserved blocks    urgent (0x03): the reserved blocks are almost used up',
        '  Wear               The eMMC reports that it is worn out: back up your data now and '
        'replace the board or module.']),
    ('cm4-emmc-worn-out.umockdev', {
        'wear': 'urgent', 'life_time_a': emmc_life(11, 'exceeded', 100, None),
        'life_time_b': emmc_life(11, 'exceeded', 100, None),
    }, ['  Life used (A)      past its rated life (0x0B: more than 100% used)']),
    ('cm4-emmc-odd-values.umockdev', {
        'wear': 'unknown', 'life_time_a': emmc_life(12, 'unknown', None, None),
        'life_time_b': emmc_life(255, 'unknown', None, None),
        'pre_eol': {'value': 7, 'state': 'unknown'},
        'raw': {'life_time': '0x0c 0xff', 'pre_eol_info': '0x07', 'rev': '0x8'},
    }, ['  Life used (A)      unknown value 0x0C (not in the JEDEC table)',
        '  Life used (B)      unknown value 0xFF (not in the JEDEC table)',
        '  Reserved blocks    unknown value 0x07 (not in the JEDEC table)',
        "  Wear               The eMMC's wear is unknown: it reports no life-time or pre-EOL "
        'figure that SD Tuner can interpret.']),
    ('cm4-emmc-garbage.umockdev', {
        'wear': 'unknown', 'life_time_a': emmc_life(None, 'unknown', None, None),
        'pre_eol': {'value': None, 'state': 'unknown'},
        'raw': {'life_time': 'worn out', 'pre_eol_info': None, 'rev': '0x8'},
    }, ["  Life used (A)      unknown (the chip's report cannot be read)",
        "  Reserved blocks    unknown (the chip's report cannot be read)"]),
]


def case_cm4_emmc(tmp):
    root = sdtcli.Root(tmp, 'cm4', CM4, 'cm4-emmc.umockdev')
    for umockdev, emmc, lines in CM4_CASES:
        u = os.path.join(DATA, 'umockdev', umockdev)
        name = umockdev.replace('.umockdev', '')
        doc = run_json(root.path, u, 'info')
        check_keys(f'{name} info', doc, {
            'board.key': 'cm4', 'board.sd_controller': 'emmc2', 'card.present': True,
            'card.kind': 'emmc', 'card.type': 'MMC', 'card.device': 'mmcblk0',
            'card.holds_system': True, 'card.manfid': 0x15, 'card.manufacturer': 'Samsung',
            'card.oemid': None, 'card.name': '8GTF4R', 'card.date': '2020-06',
            'card.capacity_bytes': 15269888 * 512, 'card.app_class': None,
            'card.spec_version': None, 'bus.timing': 'mmc-ddr52', 'bus.bus_width': 8,
        })
        check_keys(f'{name} info', doc, {f'card.emmc.{k}': v for k, v in emmc.items()})
        if name == 'cm4-emmc-garbage':
            ok(any('life-time estimate cannot be read' in w for w in doc.get('warnings', [])) and
               any('pre-EOL information cannot be read' in w for w in doc['warnings']),
               f'{name}: warnings name the unreadable files', doc.get('warnings'))
        else:
            ok(doc.get('warnings') == [], f'{name}: no warning (SD registers are not asked for)',
               doc.get('warnings'))
        text = run_text(root.path, u, 'info')
        has_lines(f'{name} info text', text, ['eMMC (not an SD card)',
                                              '  Maker              likely Samsung (eMMC '
                                              'manufacturer id 0x15)',
                                              '  System on eMMC     yes, mounted at /, '
                                              '/boot/firmware'] + lines)
        ok('No SD card' not in text and 'App class' not in text,
           f'{name} info text: no SD card words', text)

        health = run_json(root.path, u, 'health')
        check_keys(f'{name} health', health, {
            'card.present': True, 'card.kind': 'emmc', 'card.holds_system': True,
            'registers': None,
        })
        check_keys(f'{name} health', health, {f'card.emmc.{k}': v for k, v in emmc.items()})
        htext = run_text(root.path, u, 'health')
        summary = [x for x in lines if x.startswith('  Wear')]
        if summary:
            has_words(f'{name} health text', htext,
                      ['eMMC mmcblk0 (not an SD card): ' + summary[0].split('Wear', 1)[1].strip()])
        has_words(f'{name} health text', htext, ['  Life used (type A memory): ',
                                                 '  Reserved blocks (pre-EOL): ',
                                                 'Note: This is eMMC, not an SD card'])

    rec = run_json(root.path, root.umockdev, 'recommend')
    ok(rec.get('recommendations') == [], 'cm4 recommend: nothing to apply', rec)
    ok(any('do not apply to eMMC' in n for n in rec.get('notes', [])),
       'cm4 recommend: the SD settings do not apply to eMMC', rec.get('notes'))
    ok(not any('A1 and A2' in n for n in rec.get('notes', [])),
       'cm4 recommend: no SD class notes', rec.get('notes'))
    text = run_text(root.path, root.umockdev, 'recommend')
    has_words('cm4 recommend text', text, ['Nothing to change in config.txt.',
                                           'This board stores its system on eMMC, not on an '
                                           'SD card.'])


def case_not_the_system_disk(tmp):
    for (umockdev, fixture), system, what in [(NVME, 'nvme0n1p2', 'an NVMe drive'),
                                              (USB, 'sda2', 'a USB drive')]:
        root = sdtcli.Root(tmp, fixture, fixture, umockdev)
        name = fixture
        doc = run_json(root.path, root.umockdev, 'info')
        check_keys(f'{name} info', doc, {
            'card.present': True, 'card.kind': 'sd', 'card.holds_system': False,
            'card.system_device': system, 'card.mount_points': [], 'card.emmc': None,
        })
        text = run_text(root.path, root.umockdev, 'info')
        has_lines(f'{name} info text', text, [
            f'  System on card     no: the system runs from {system} ({what}); SD Tuner tunes '
            'nothing for this card'])

        rec = run_json(root.path, root.umockdev, 'recommend')
        ok(rec.get('recommendations') == [], f'{name} recommend: nothing to apply', rec)
        ok(any(f'The system runs from {system}, not from this card' in n and
               'You can still benchmark and check the card' in n for n in rec.get('notes', [])),
           f'{name} recommend: says the card is not the system disk', rec.get('notes'))
        text = run_text(root.path, root.umockdev, 'recommend')
        has_words(f'{name} recommend text', text, [
            'Nothing to change in config.txt.',
            f'The system runs from {system}, not from this card: SD Tuner changes nothing for '
            'a card that is not the system disk.'])

        health = run_json(root.path, root.umockdev, 'health')
        check_keys(f'{name} health', health, {
            'card.kind': 'sd', 'card.holds_system': False, 'card.system_device': system,
            'card.emmc': None})
        htext = run_text(root.path, root.umockdev, 'health')
        has_words(f'{name} health text', htext, [
            f'The system does not run from this card: the figures below are for mmcblk0, not '
            f'for the system disk {system}'])

    # what old code offered on the NVMe Pi 5 (sd-cqe-2 for the card in the slot) is refused
    root = sdtcli.Root(tmp, 'nvme-apply', NVME[1], NVME[0])
    before = sdtcli.read(root.config)
    p = root.run('apply', 'sd-cqe-2', '--trial')
    ok(p.returncode == 1 and 'is not a recommendation for this board and card' in p.stderr,
       'pi5-nvme-boot apply sd-cqe-2: refused', f'{p.returncode} {p.stderr}')
    ok(sdtcli.read(root.config) == before and
       not os.path.exists(os.path.join(root.boot, 'tryboot.txt')),
       'pi5-nvme-boot apply: config.txt untouched, no tryboot.txt')
    # the benchmark is for the card: unmounted, it says how, and never measures the NVMe
    p = root.run('bench', '--profile', 'quick')
    ok(p.returncode == 1 and 'is not mounted: mount its root or boot partition' in p.stderr
       and 'nvme' not in p.stdout, 'pi5-nvme-boot bench: goes to the card, asks to mount it',
       f'{p.returncode} {p.stdout} {p.stderr}')


sdtcli.main('sdt-emmc', case_cm4_emmc, case_not_the_system_disk)
