#!/usr/bin/python3
# meson-test: gui-history suite=gui timeout=240 parallel=false run=system needs=gtk,polkit
#    env=gui args={builddir} depends=sd_tuner,sd_tuner_helper
"""test-gui-history.py BUILDDIR - the History page's figures over time, over AT-SPI.

The app runs as nobody against the BUILT helper on the simulated Raspberry Pi 3
(sdtgui.sim_env()), whose history is written first: five benchmarks of the card in the
slot (its CID from data/sim/rpi3.umockdev) with SD Tuner's change applied between the
second and the third, a benchmark of another card and one of a stand-in folder.  Steps:
the History page shows "Each test over time" with the slot card's figures in its
accessible description (each run, the setting in force, the apply as a marker), never
the other card's or the stand-in's; the screenshot history-over-time-1280x1000 goes to
$SDTUNER_SCREENSHOT_DIR (docs/screenshots in the README).  The Speed page's "Compare with
the run before" shows the slot card's last run beside the one before (compare-runs).  Then the state folder is made
writable by others (issue 33): the Health page says that it cannot read it and what to
do (it said nothing before).
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check  # noqa: E402

SLOT = '0353445355303847801e4c298300d28e'
OTHER = '1b534d4542314b4d105a3c7e21013cbf'


def bench(card, day, seq_read, seq_write, rr, rw, stand_in=False):
    def test(name, mb_s, iops, ci):
        return {'name': name, 'block_size': 4096, 'queue_depth': 1, 'mb_s': mb_s,
                'iops': iops, 'seconds': 2.0, 'ci_percent': ci}
    return {'kind': 'bench', 'time': f'2026-{day}T09:00:00.000000Z', 'profile': 'standard',
            'target': {'path': '/var/lib/sd-tuner', 'device': '/dev/mmcblk0p2',
                       'filesystem': 'ext4', 'stand_in': stand_in},
            'card': None if card is None else {'id': card, 'name': 'SU08G',
                                               'serial': '0x1e4c2983'},
            'tests': [test('seq-read', seq_read, seq_read, 2.0),
                      test('seq-write', seq_write, seq_write, 4.0),
                      test('rand-4k-read-qd1', rr * 4096 / 1e6, rr, 3.0),
                      test('rand-4k-write-qd1', rw * 4096 / 1e6, rw, 6.0)],
            'verdict': {'a1': True, 'a2': False}, 'ceiling_mb_s': 25.0}


def write_history(root):
    d = os.path.join(root, 'var', 'lib', 'sd-tuner', 'history')
    os.makedirs(d, mode=0o755, exist_ok=True)
    entries = [bench(SLOT, '01-05', 22.1, 18.0, 2100, 610),
               bench(SLOT, '01-19', 22.4, 17.6, 2080, 600),
               {'kind': 'apply', 'time': '2026-02-02T10:00:00.000000Z',
                'id': 'sd-overclock-100', 'trial': False, 'changed': True},
               bench(SLOT, '02-03', 39.8, 24.1, 2650, 640),
               bench(OTHER, '02-10', 77.7, 66.6, 9999, 9999),
               bench(SLOT, '02-16', 77.7, 66.6, 9999, 9999, stand_in=True),
               bench(SLOT, '03-02', 38.9, 21.3, 2590, 520),
               bench(SLOT, '03-30', 37.6, 16.2, 2500, 430)]
    for i, e in enumerate(entries):
        with open(os.path.join(d, f'{1767600000000000 + i}-{e["kind"]}.json'), 'w') as f:
            json.dump(e, f)


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    shots = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-shots-')
    with sdtgui.sim_env() as env:
        write_history(env.root)
        with sdtgui.Session(app, width=1280, height=1000, out_dir=shots) as s:
            s.start_app(env.address, prefix=env.agent_cmd('allow', []))
            s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B',
                    'page', 'History',
                    'wait-text', r'^Every benchmark of the card in the slot, test by test',
                    # the slot card's five runs, the setting in force at each
                    'description', 'Each test over time',
                    r'^(?!.*(77\.7|66\.6|9999))'
                    r'(?=.*Sequential read, \d{4}-\d\d-\d\d \d\d:\d\d: 22\.1 ± 0\.4 MB/s \(no SD Tuner setting\))'
                    r'(?=.*Sequential read, \d{4}-\d\d-\d\d \d\d:\d\d: 39\.8 ± 0\.8 MB/s \(with sd-overclock-100\))'
                    r'(?=.*Sequential write, \d{4}-\d\d-\d\d \d\d:\d\d: 16\.2 ± 0\.6 MB/s \(with sd-overclock-100\))'
                    r'(?=.*Random 4K write, one at a time, \d{4}-\d\d-\d\d \d\d:\d\d: 430 ± 26 IOPS)'
                    r'(?=.*: SD Tuner applied sd-overclock-100\.)',
                    'names')
            s.screenshot('history-over-time-1280x1000', 1280, 1000)
            s.screenshot('history-over-time-800x480', 800, 480)
            check(s.app_running(), 'the app runs on')

            # the Speed page: the last run beside the one before, for the same card
            s.steps('page', 'Speed',
                    'click', 'Compare with the run before')
            s.screenshot('compare-runs-1280x1000', 1280, 1000)
            s.steps('description', 'The last run beside the one before',
                    r'^Sequential read: The run before 38\.9 ± 0\.8 MB/s, The last run '
                    r'37\.6 ± 0\.8 MB/s\. .*Random 4K write, one at a time: The run before '
                    r'520 ± 31 IOPS, The last run 430 ± 26 IOPS\.')

            # a state folder others may write: the Health page says so and what to do
            os.chmod(os.path.join(env.root, 'var', 'lib', 'sd-tuner'), 0o777)
            s.steps('page', 'Health',
                    'click', 'Refresh',
                    'wait-text', r'SD Tuner cannot read its state folder, so the benchmark '
                                 r'trend leaves out its history until it is fixed: .*'
                                 r'other users.*chmod go-w')
            os.chmod(os.path.join(env.root, 'var', 'lib', 'sd-tuner'), 0o755)
            check(s.app_running(), 'the app runs on')
    print(f'PASS (screenshots in {shots})')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
