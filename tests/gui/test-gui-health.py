#!/usr/bin/python3
# meson-test: gui-health suite=gui timeout=480 parallel=false run=system
#    needs=fuse3,gtk,polkit env=gui-health args={builddir}
#    depends=sd_tuner,sd_tuner_helper,polkit_policy,sdt_fake_card
"""test-gui-health.py BUILDDIR - the Health page against the real helper, over AT-SPI.

The app runs as nobody on a private system bus with the BUILT sd-tuner-helper on the
simulated Raspberry Pi 3 (data/sim), whose check directory (--bench-dir) is the mount
of a FUSE fake card that claims 512 MiB and wraps at 333 MiB (tests/fake-card), and
the real polkitd answered by the test polkit agent.  Steps: the Health page shows the
register verdict and the wear figures; Quick check says the card is fake, how much it
really holds (333 MiB = 349 MB) and past where files are lost; the fake's user files, file
system and free space are intact.
Screenshots health-1280x800 and health-800x480 go to $SDTUNER_SCREENSHOT_DIR.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check  # noqa: E402

FAKE_CARD = os.path.join(HERE, '..', 'fake-card', 'fake-card.sh')


def fake(cmd, d, *args):
    r = subprocess.run([FAKE_CARD, cmd, d] + list(args), capture_output=True, text=True,
                       timeout=120)
    if r.returncode != 0:
        raise AssertionError(f'fake-card.sh {cmd}: {r.stdout}{r.stderr}')
    return r.stdout


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    shots = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-shots-')
    card = tempfile.mkdtemp(prefix='sdt-check-gui-', dir='/var/tmp')
    fake('up', card, 'wrap', '512', '333')
    try:
        mnt = os.path.join(card, 'mnt')
        with sdtgui.sim_env(bench_dir=False, extra_helper_args=('--bench-dir', mnt)) as env:
            with sdtgui.Session(app, out_dir=shots) as s:
                s.start_app(env.address, prefix=env.agent_cmd('allow', []))
                s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B',
                        'page', 'Health',
                        'wait-text', r'^Registers: (plausible|suspicious)',
                        'wait-text', r'^(Written|The kernel reported|The card.s write counters)',
                        'names',
                        'click', 'Quick check',
                        'wait-text-long', r'^Fake: the card holds less than it claims\.',
                        'wait-text', r'It really holds 349 MB\. Files written past about '
                                     r'349 MB are lost on this card',
                        'wait-text', r'Checked [1-9]\d*% of the card',
                        'names')
                s.screenshot('health-1280x800', 1280, 800)
                s.screenshot('health-800x480', 800, 480)
                check(s.app_running(), 'the app runs on after the check')
        fake('verify', card)
        check(True, 'the fake card\'s files, file system and free space are intact')
    finally:
        fake('down', card)
    print(f'PASS (screenshots in {shots})')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
