#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""logind-bus.py TEST [ARGS...] - runs the C test TEST (it prints TAP) on a private system bus
with the real polkitd and the REAL systemd-logind of this machine (tests/integration/
sdtharness.py: TestEnv, TestEnv.start_logind(), as the gui-inhibit test runs them), the bus's
address in SDTUNER_TEST_LOGIND_BUS; exits with TEST's status.  Without root or one of the
programs TEST still runs its cases that need no logind and skips the others (a failure under
CI=true), saying why on stderr."""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'integration'))

PROGRAMS = ('dbus-daemon', 'unshare', '/usr/lib/polkit-1/polkitd', '/lib/systemd/systemd-logind')


def missing():
    if os.geteuid() != 0:
        return 'it needs root (a private system bus, polkitd, systemd-logind)'
    for prog in PROGRAMS:
        if shutil.which(prog) is None and not os.access(prog, os.X_OK):
            return f'{prog} is not installed (tools/deps.sh test)'
    return None


def main():
    argv = sys.argv[1:]
    why = missing()
    if why is not None:
        print(f'logind-bus.py: no private bus with systemd-logind: {why}', file=sys.stderr)
        env = {k: v for k, v in os.environ.items() if k != 'SDTUNER_TEST_LOGIND_BUS'}
        return subprocess.run(argv, env=env).returncode
    from sdtharness import TestEnv
    with TestEnv(polkit=True) as env:
        p = env.start_logind()
        # stderr: meson 1.7 (trixie) takes TAP's version line only as the first line of stdout
        print(f'logind-bus.py: systemd-logind on the private bus {env.address}, pid {p.pid}',
              file=sys.stderr, flush=True)
        environ = dict(env.environ, SDTUNER_TEST_LOGIND_BUS=env.address)
        rc = subprocess.run(argv, env=environ).returncode
        if rc != 0:
            print('# logind.log:\n' + ''.join('# ' + l for l in
                                              open(os.path.join(env.work, 'logind.log'))),
                  flush=True)
        return rc


if __name__ == '__main__':
    sys.exit(main())
