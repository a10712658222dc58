#!/usr/bin/python3
# meson-test: gui-emmc suite=gui timeout=240 parallel=false run=system needs=gtk,polkit
#    env=gui args={builddir} depends=sd_tuner,sd_tuner_helper
"""test-gui-emmc.py BUILDDIR - issue 27 on the Overview, Tuning and Health pages, over AT-SPI.

The app runs as nobody on a private system bus with the BUILT sd-tuner-helper, D-Bus
activated under umockdev-run, and the real polkitd (tests/integration/sdtharness.py):
  cm4-emmc:      a CM4 running from its eMMC (tests/data cm4-emmc): the Overview says eMMC
                 and its wear in words, Tuning says there is nothing to tune and why, Health
                 shows the life used and the reserved blocks, and no SD register verdict.
  pi5-nvme-boot: a Pi 5 running from NVMe with an A2 card in the slot (the card main offered
                 sd-cqe-2 for): the Overview and Tuning say the system does not run from the
                 card, Apply cannot be pressed, Health says whose figures they are.
Screenshots emmc-* and nvme-* at 800x480 go to $SDTUNER_SCREENSHOT_DIR.
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check  # noqa: E402


def cm4_emmc(app, shots):
    sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
    from sdtharness import TestEnv
    with TestEnv(fixture='cm4-emmc', bench_dir=False) as env, \
            sdtgui.Session(app, out_dir=shots) as s:
        s.start_app(env.address, prefix=env.agent_cmd('deny', []))
        s.steps('wait-text', r'^Raspberry Pi Compute Module 4 Rev 1\.0',
                'wait-text', r'^eMMC \(not an SD card\): Samsung 8GTF4R',
                'wait-text', r'^The eMMC reports normal wear\.\nLife used, type A memory: '
                             r'10–20% of its rated life used \(0x02\)',
                'no-text', r'No SD card found',
                'names',
                'page', 'Tuning',
                'wait-text', r'^Nothing to tune: this board runs from eMMC, not from an SD card',
                'wait-text', r'do not apply to eMMC',
                'insensitive', 'Apply',
                'page', 'Health',
                'wait-text', r'^This is eMMC, not an SD card: the SD register checks do not',
                'wait-text', r'Reserved blocks \(pre-EOL\): normal \(0x01\)',
                'no-text', r'^Registers: ',
                'names')
        s.screenshot('emmc-health-800x480', 800, 480)
        check(s.app_running(), 'the app runs on a CM4 with eMMC')


def pi5_nvme(app, shots):
    sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
    from sdtharness import TestEnv
    with TestEnv(fixture='pi5-nvme-boot', bench_dir=False) as env, \
            sdtgui.Session(app, out_dir=shots) as s:
        s.start_app(env.address, prefix=env.agent_cmd('deny', []))
        s.steps('wait-text', r'^Raspberry Pi 5 Model B',
                'wait-text', r'^The system runs from nvme0n1p2 \(an NVMe drive\), not from '
                             r'this card: SD Tuner tunes nothing for it\.',
                'page', 'Tuning',
                'wait-text', r'^Nothing to tune: the system does not run from this SD card',
                'no-text', r'^Turn on SD command queueing',
                'insensitive', 'Apply',
                'page', 'Health',
                'wait-text', r'^The system runs from nvme0n1p2 \(an NVMe drive\)',
                'names')
        s.screenshot('nvme-tuning-800x480', 800, 480)
        check(s.app_running(), 'the app runs on a Pi 5 booted from NVMe')


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    shots = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-shots-')
    cm4_emmc(app, shots)
    pi5_nvme(app, shots)
    print(f'PASS (screenshots in {shots})')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
