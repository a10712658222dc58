#!/usr/bin/python3
# meson-test: gui-cards-check suite=gui timeout=480 parallel=false run=system
#    needs=fuse3,gtk,polkit env=gui-health args={builddir}
#    depends=sd_tuner,sd_tuner_helper,polkit_policy,sdt_fake_card
"""test-gui-cards-check.py BUILDDIR - issue 34: the app checks a card in a reader and shows
its map.

The card is a FUSE fake under a loop device (tests/fake-card): it claims 1000 MiB, holds
700 MiB and wraps there, unmounted, filled with random bytes. The BUILT sd-tuner-helper runs
D-Bus activated on a private system bus beside the real polkitd (tests/integration/
sdtharness.py) on a simulated board (a root prefix: tests/data/roots/card-readers, for its
mount table) and the real kernel's devices (no umockdev: a loop device is in the real /sys
only), where a loop device that nothing but being fixed keeps from a check is offered as a
stand-in for a card (docs/DESIGN.md "Stand-ins"). The app runs as nobody under Xvfb, read
over AT-SPI, with the test polkit agent answering its password prompt. Steps: the Cards
page offers the card; with the password refused, Check says so and the card is as before;
given, Check runs the quick check (org.example.sdtuner.check-device) with a progress bar;
the verdict is the Health page's: fake, it really holds 734 MB; the map's accessible
description puts the wrap where the card stops holding data (within one 64th of the claim
below 700 MiB = 734.0 MB); every byte of the card is as before (SHA-256 of its backing
file). Screenshot cards-check-800x480 goes to $SDTUNER_SCREENSHOT_DIR.
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'fake-card'))
import sdtgui  # noqa: E402
from sdtgui import check  # noqa: E402

ROOT = os.path.join(HERE, '..', 'data', 'roots', 'card-readers')


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    import sdtfakecard
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    shots = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-shots-')
    sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
    from sdtharness import TestEnv
    card = sdtfakecard.Card('wrap', 1000, 700, layout='raw', mounted=False)
    try:
        before = sdtfakecard.sha256_file(card.backing)
        name = os.path.basename(card.loop)
        with TestEnv(root=os.path.abspath(ROOT), bench_dir=False) as env:
            # the password refused: the page says so, and the card is not touched
            with sdtgui.Session(app, out_dir=shots) as s:
                s.start_app(env.address, prefix=env.agent_cmd('deny', []))
                s.steps('page', 'Cards',
                        'wait-text', r'^Can be checked: a loop device standing in for a card',
                        'click', f'Check {card.loop}',
                        'wait-text', r'Permission was not given\.\n\(Not authorized: the '
                                     r'password dialog was cancelled\)$')
            check(sdtfakecard.sha256_file(card.backing) == before,
                  'refused: every byte of the card as before')
            checked(app, shots, env, card, name)
        check(sdtfakecard.sha256_file(card.backing) == before,
              'every byte of the card as before (SHA-256 of its backing file)')
    finally:
        card.down()
    print(f'PASS (screenshots in {shots})')


def checked(app, shots, env, card, name):
    """the password given: the check, its verdict and its map"""
    with sdtgui.Session(app, out_dir=shots) as s:
        s.start_app(env.address, prefix=env.agent_cmd('allow', []))
        s.steps('page', 'Cards',
                'wait-text', rf'^{name}, 1\.0\sGB$',
                'wait-text', r'^Can be checked: a loop device standing in for a card',
                'names',
                'click', f'Check {card.loop}',
                'progress', 'Progress of the card check',
                'wait-text-long', r'^Fake: the card holds less than it claims\.',
                'wait-text', r'It really holds 734 MB\. Files written past about '
                             r'734 MB are lost on this card',
                'wait-text', r'Checked [1-9]\d*% of the card',
                # the wrap begins where the card stops holding data: the cell of the
                # map (1/64 of the claim, 16.4 MB) that holds 700 MiB = 734.0 MB
                'description', 'Map of the card',
                r'^From 0\sbytes to (7[23]\d\.\d)\sMB: holds data\. '
                r'From \1\sMB to 1\.0\sGB: wraps to a lower address\.$',
                'names')
        s.screenshot('cards-check-800x480', 800, 480)
        check(s.app_running(), 'the app runs on after the check')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
