#!/usr/bin/python3
# meson-test: agents-trixie suite=agents timeout=1200 parallel=false priority=-10 run=system needs=gtk,polkit
#    args={srcdir},{builddir} depends=sd_tuner,sd_tuner_helper,polkit_policy
"""test-agents-trixie.py SRCDIR BUILDDIR - SD Tuner with mate-polkit in labwc, as Raspberry
Pi OS ships its desktop on Debian 13 "trixie" (issue 32).

test-agents.py's machinery (systemd-nspawn -b of a root: systemd 257's logind, the system
bus, polkitd 126; the desktop user's logind session from pam_systemd; the build's helper
D-Bus-activated on the simulated Raspberry Pi 3) on a trixie root from the shared builder
(tests/roots/make-root.sh, cached in SDT_VM_CACHE/roots/trixie-ARCH), and in each session,
agent-session.py with DESKTOP labwc: Debian's labwc on wlroots' headless backend, the
agent mate-polkit (mate-polkit-bin, what rpd-common pulls) and the build's sd-tuner as its
native Wayland clients, passwords typed through labwc's virtual keyboard (wtype). The
sessions, one boot each: Cancel, then a wrong password (mate-polkit says so and asks again)
and the right one in the retry (applied, config.txt has the block); the right password at
the first dialog (applied); no agent, as over SSH (the window says no password dialog can
appear and what to do; config.txt byte-identical). The first dialog's screenshot (grim) goes
to BUILDDIR/screenshots/agents-trixie-labwc-mate-password.png. At the first boot, every
polkit rule of the project (polkit/*.rules, and those its tests install) is in
/etc/polkit-1/rules.d, with a control rule in ES2015 (an arrow function and let: valid
JavaScript that duktape, ECMAScript 5.1, cannot parse): polkitd 126 must load them all and
refuse only the control, in its log.

The app and helper are this machine's build (bookworm): on amd64 and arm64 trixie kept the
sonames and ABI (the t64 rename changed package names only), and the test checks with ldd
in the root that every library is found. Needs root, systemd-nspawn, debootstrap; exit 77
when it cannot run, 1 under CI=true.
"""
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location(
    'sdt_test_agents', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    'test-agents.py'))
agents = importlib.util.module_from_spec(spec)
spec.loader.exec_module(agents)

if __name__ == '__main__':
    sys.exit(agents.main('trixie'))
