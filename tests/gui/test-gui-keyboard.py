#!/usr/bin/python3
# meson-test: gui-keyboard suite=gui timeout=240 parallel=false run=system needs=gtk,polkit
#    env=gui args={builddir} depends=sd_tuner,sd_tuner_helper
"""test-gui-keyboard.py BUILDDIR - the whole window from the keyboard alone (issue 26).

The app runs as in test-gui-flow.py (nobody, private system bus, the built helper on the
simulated Raspberry Pi 3, real polkitd, the allowing test agent) under Xvfb. Each page is
shown with its key (Alt+1 ... Alt+5), then Tab is really pressed (xdotool, through the X
server) until the focus comes back to where it started, and Shift+Tab the same way
round (sdt-gui-steps.py tab-walk). It fails on a keyboard trap (a press that does not move
the focus, a loop that never comes back), on a showing control with an action that Tab
never reaches, on a focus stop or a focusable object without an accessible name. Then a
benchmark is started from the keyboard alone (Tab to Benchmark, Space) and, while it runs,
the Speed page is walked again: Stop is reached and pressed with Space.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check  # noqa: E402

PAGES = ['Overview', 'Speed', 'Tuning', 'History', 'Health']


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    with sdtgui.sim_env() as env, sdtgui.Session(app) as s:
        s.start_app(env.address, prefix=env.agent_cmd('allow', []))
        s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B',
                'wait-text', r'MB/s\. No card can go faster')
        steps = []
        for i, page in enumerate(PAGES):
            steps += ['key', f'alt+{i + 1}', 'wait-page', page, 'tab-walk']
        s.steps(*steps, timeout=300)
        # Speed, from the keyboard: Tab to Benchmark and press it, then Tab to Stop
        s.steps('key', 'alt+2', 'wait-page', 'Speed', 'focus', 'Benchmark', 'key', 'space',
                'progress', 'Benchmark progress', 'focus', 'Stop', 'key', 'space',
                'wait-text', r'^The benchmark did not finish\. It was cancelled\.')
        check(s.app_running(), 'the app runs on after the keyboard walk')
    print('PASS')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
