#!/usr/bin/python3
# meson-test: gui-devices suite=gui timeout=240 parallel=false run=system needs=gtk,polkit
#    env=gui args={builddir} depends=sd_tuner,sd_tuner_helper
"""test-gui-devices.py BUILDDIR - issue 34: the Cards page follows cards as they come and go.

A UMockdevTestbed made here from tests/data/umockdev/card-readers.umockdev, without the USB
reader that holds a card (sda), is the device data of both the BUILT sd-tuner-helper
(D-Bus activated on a private system bus beside the real polkitd, tests/integration/
sdtharness.py) and the app (as nobody, under Xvfb, read over AT-SPI). The page shows the
system's own card as "the system disk", the empty reader, the mounted card; then the test
plugs in the reader with its card (the devices added to the testbed with udev "add"
events): the app hears it from udev, asks the helper again, and the card shows as one that
can be checked. Then the card is taken out ("remove" events) and its row goes. No restart.
Screenshot devices-800x480 goes to $SDTUNER_SCREENSHOT_DIR.
"""
import os
import subprocess
import sys
import tempfile

import gi

gi.require_version('UMockdev', '1.0')
from gi.repository import UMockdev  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check  # noqa: E402

FIXTURE = os.path.join(HERE, '..', 'data', 'umockdev', 'card-readers.umockdev')
READER = '/devices/platform/soc/3f980000.usb/usb1/1-1/1-1.1/1-1.1.2'


def split_fixture():
    """the fixture's records without the reader on port 2 (sda), and those of it (parents
    first, so that each one's parent exists when it is added)"""
    records = open(FIXTURE).read().strip().split('\n\n')
    rest = [r for r in records if not r.startswith(f'P: {READER}')]
    reader = [r for r in records if r.startswith(f'P: {READER}')]
    reader.sort(key=lambda r: len(r.split('\n', 1)[0]))
    return '\n\n'.join(rest) + '\n', reader


def driver():
    """--driver: owns the testbed, under umockdev-wrapper (umockdev delivers the uevents of
    a testbed to other processes only when the process that sends them is preloaded too).
    Prints the testbed's root, then on each line of stdin: "add" plugs the reader in,
    "remove" takes it out; answers "done" after each."""
    rest, reader = split_fixture()
    testbed = UMockdev.Testbed.new()
    # stdout is the pipe to the test: nothing else goes there
    if not testbed.add_from_string(rest):
        raise SystemExit('the fixture does not load')
    tbdir = testbed.get_root_dir()
    print(tbdir, flush=True)
    for line in sys.stdin:
        if line.strip() == 'add':
            # udev's add events, parents first
            for record in reader:
                if not testbed.add_from_string(record + '\n'):
                    raise SystemExit('cannot add ' + record.split('\n')[0])
        elif line.strip() == 'remove':
            # remove events, children first
            for record in reversed(reader):
                path = '/sys' + record.split('\n', 1)[0][3:]
                testbed.uevent(path, 'remove')
                testbed.remove_device(path)
        # the app runs as nobody: it reads the testbed and binds its uevent socket there
        for dirpath, dirnames, filenames in os.walk(tbdir):
            os.chmod(dirpath, 0o777)
        print('done', flush=True)


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    shots = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-shots-')
    drv = subprocess.Popen(['umockdev-wrapper', '/usr/bin/python3', os.path.abspath(__file__),
                            '--driver'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True)

    def tell(what):
        drv.stdin.write(what + '\n')
        drv.stdin.flush()
        check(drv.stdout.readline().strip() == 'done', f'the testbed did "{what}"')

    try:
        tbdir = drv.stdout.readline().strip()
        check(os.path.isdir(tbdir), f'the testbed is at {tbdir}')
        tell('chmod')
        run(app, shots, tbdir, tell)
    finally:
        drv.stdin.close()
        drv.wait(timeout=30)
    print(f'PASS (screenshots in {shots})')


def run(app, shots, tbdir, tell):
    sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
    from sdtharness import TestEnv
    preload = {'LD_PRELOAD': 'libumockdev-preload.so.0', 'UMOCKDEV_DIR': tbdir}
    with TestEnv(fixture='card-readers', bench_dir=False, umockdev_dir=tbdir) as env, \
            sdtgui.Session(app, out_dir=shots) as s:
        s.start_app(env.address, prefix=env.agent_cmd('deny', []), extra_env=preload)
        s.steps('page', 'Cards',
                'wait-text', r'^SU08G \(mmcblk0\), 7\.9\sGB$',
                'wait-text', r'^It is the system disk$',
                'wait-text', r'^Generic- SD/MMC \(sdb\)$',
                'wait-text', r'^There is no card in it$',
                'wait-text', r'^It is mounted: unmount it first$',
                'no-text', r'STORAGE DEVICE')
        # the reader with a card is plugged in: the app hears udev and asks the helper
        tell('add')
        s.steps('wait-text', r'^Generic STORAGE DEVICE \(sda\), 31\.9\sGB$',
                'names')
        s.screenshot('devices-800x480', 800, 480)
        # the card is taken out, and its row goes
        tell('remove')
        s.steps('wait-no-text', r'STORAGE DEVICE',
                'wait-text', r'^It is the system disk$')
        check(s.app_running(), 'the app still runs after the card came and went')


if __name__ == '__main__':
    if sys.argv[1:] == ['--driver']:
        driver()
    else:
        main()
