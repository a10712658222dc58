#!/usr/bin/python3
# meson-test: gui-inhibit suite=gui timeout=480 parallel=false run=system needs=gtk,polkit
#    env=gui args={builddir} depends=sd_tuner,sd_tuner_helper
"""test-gui-inhibit.py BUILDDIR - the app holds a logind inhibitor while it benchmarks (issue 26).

Raspberry Pi OS's desktop has no GNOME session manager, so gtk_application_inhibit() does
nothing there; logind is on every Pi OS. The app runs as in test-gui-flow.py (nobody,
private system bus, the built helper on the simulated Raspberry Pi 3, real polkitd, the
allowing test agent), and the REAL systemd-logind of this machine runs on that private bus
(in a private mount namespace: its own /run/systemd and a logind.conf that leaves the
VTs and the power keys alone; systemd is not PID 1 here, which Inhibit does not need).
  1. polkit's defaults: nobody outside a local session may not block sleep or shutdown
     (org.freedesktop.login1.inhibit-block-*: allow_any no), so the app takes delay
     inhibitors instead: while the benchmark runs, ListInhibitors shows "sleep" and
     "shutdown" (two inhibitors: logind 252 checks a "shutdown:sleep" request against
     the lid-switch action, which nobody may not have), who SD Tuner, why "The SD card
     benchmark is running", mode delay, the app's uid and pid; after it finished, none.
  2. a polkit rule lets nobody block (as the active desktop session user may): mode
     block; the app is killed (SIGKILL) in the middle: the inhibitor goes with it.
"""
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check, log  # noqa: E402

LOGIND = '/lib/systemd/systemd-logind'  # as TestEnv.start_logind() runs it
ALLOW_BLOCK_RULE = """polkit.addRule(function(action, subject) {
    if (action.id.indexOf("org.freedesktop.login1.inhibit-block-") == 0 &&
        subject.user == "nobody")
        return polkit.Result.YES;
});
"""
WHY = 'The SD card benchmark is running'


def inhibitors(env):
    out = env.run_as(None, ['gdbus', 'call', '--system', '-d', 'org.freedesktop.login1',
                            '-o', '/org/freedesktop/login1', '-m',
                            'org.freedesktop.login1.Manager.ListInhibitors'])
    if out.returncode != 0:
        raise AssertionError('ListInhibitors failed: ' + out.stderr)
    from gi.repository import GLib
    return GLib.Variant.parse(None, out.stdout.strip(), None, None).unpack()[0]


def ours(env, pid):
    return [i for i in inhibitors(env) if i[5] == pid]


def wait_for(pred, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.1)
    raise AssertionError(f'timed out after {timeout} s waiting for {what}')


def app_pid(s):
    """the app's own pid: the agent forks it, setpriv and env exec it"""
    out = subprocess.run(['pgrep', '-x', '-P', str(s.app.pid), 'sd-tuner'],
                         capture_output=True, text=True).stdout.split()
    check(len(out) == 1, f'the app runs under the agent (pid {out})')
    return int(out[0])


def run(env, app, mode, kill):
    with sdtgui.Session(app) as s:
        # the app's debug log says what logind answered
        s.start_app(env.address, prefix=env.agent_cmd('allow', []),
                    extra_env={'G_MESSAGES_DEBUG': 'all'})
        s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B')
        pid = app_pid(s)
        check(ours(env, pid) == [], 'no inhibitor before the benchmark')
        s.steps('page', 'Speed', 'click', 'Benchmark', 'progress', 'Benchmark progress')
        try:
            held = wait_for(lambda: len(ours(env, pid)) == 2 and ours(env, pid), 10,
                        'the app\'s two inhibitors')
        except AssertionError:
            print(s.app_output(), file=sys.stderr)
            raise
        log('inhibitors:', held)
        check(sorted(held) == [('shutdown', 'SD Tuner', WHY, mode, 65534, pid),
                               ('sleep', 'SD Tuner', WHY, mode, 65534, pid)],
              f'while it benchmarks the app holds logind\'s "sleep" and "shutdown" '
              f'inhibitors, mode {mode}')
        if kill:
            os.kill(pid, signal.SIGKILL)
            wait_for(lambda: not s.app_running(), 10, 'the app to die')
            wait_for(lambda: ours(env, pid) == [], 10, 'the inhibitor to go with the app')
            check(True, 'the inhibitor went with the killed app')
        else:
            s.steps('wait-text-long', r'^Stand-in: the test file was in ')
            wait_for(lambda: ours(env, pid) == [], 10, 'the inhibitor to be released')
            check(s.app_running(), 'the benchmark finished, the inhibitor is released, '
                  'the app runs on')


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    with sdtgui.sim_env() as env:
        p = env.start_logind()
        log('systemd-logind on the private bus, pid', p.pid)
        run(env, app, 'delay', kill=False)
        env.add_polkit_rule('50-sdt-test-inhibit.rules', ALLOW_BLOCK_RULE)
        run(env, app, 'block', kill=True)
    print('PASS')


if __name__ == '__main__':
    sdtgui.main_wrapper(main, programs=(LOGIND, 'unshare', 'pgrep'))
