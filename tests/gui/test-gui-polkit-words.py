#!/usr/bin/python3
# meson-test: gui-polkit-words suite=gui timeout=240 parallel=false run=system needs=gtk,polkit
#    env=gui args={builddir} depends=sd_tuner,sd_tuner_helper
"""test-gui-polkit-words.py BUILDDIR - what the window says when polkit says no (issue 26).

The app runs as in test-gui-flow.py (nobody, private system bus, the built helper on the
simulated Raspberry Pi 3, the real polkitd). Tuning -> Apply Without Trial, three ways:
  no agent at all: polkitd has nobody to ask (is_challenge). The window says that no
               password dialog can appear here and what to do instead, not "enter an
               administrator password when asked".
  cancel:      the test agent answers Cancelled, as an agent's Cancel button does
               (polkit.dismissed): the window says the password dialog was cancelled.
  wrong password: the test agent ends the authentication without gaining it and without
               an error (pk-agent-run.py fail): the window says the dialog ended without
               a correct password (cancelled, or a wrong password: lxpolkit's Cancel ends
               the same way, tests/agents), not that the system policy forbids it.
config.txt stays byte-identical each time. Real agents (lxpolkit, MATE's) need a logind
session to register (polkit_unix_session_new_for_process): the test's own machine has
none, so the stand-in agent of tests/integration/pk-agent-run.py answers here; the real
ones are driven in a container booted with systemd-nspawn by tests/agents/test-agents.py.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check  # noqa: E402

CASES = [
    (None, r'^The setting was not applied\. Permission was not given\.\n\(Not authorized: '
     r'org\.example\.sdtuner\.modify-boot-config needs an administrator.s password, and no '
     r'password dialog can appear here: no polkit authentication agent is running for this '
     r'session\. Start SD Tuner from the desktop.s own session, or run sdtunerctl in a '
     r'terminal, which asks for the password itself\)$'),
    ('deny', r'^The setting was not applied\. Permission was not given\.\n\(Not authorized: '
     r'the password dialog was cancelled\)$'),
    ('fail', r'^The setting was not applied\. Permission was not given\.\n\(Not authorized: '
     r'the password dialog ended without a correct password \(it was cancelled, or the '
     r'password was wrong\)\)$'),
]


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    with sdtgui.sim_env() as env:
        config = os.path.join(env.root, 'boot', 'firmware', 'config.txt')
        before = open(config, 'rb').read()
        for agent, words in CASES:
            with sdtgui.Session(app) as s:
                s.start_app(env.address, prefix=env.agent_cmd(agent, []) if agent else ())
                s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B', 'page', 'Tuning',
                        'wait-text', r'^Run the SD card at 100 MHz',
                        'click', 'Apply Without Trial', 'wait-text', words,
                        'no-text', r'enter an administrator password when asked|system policy')
                check(s.app_running(), f'the app runs on ({agent or "no agent"})')
            check(open(config, 'rb').read() == before,
                  f'config.txt is byte-identical ({agent or "no agent"})')
    print('PASS')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
