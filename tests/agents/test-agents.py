#!/usr/bin/python3
# meson-test: agents suite=agents timeout=1200 parallel=false priority=-10 run=system needs=gtk,polkit
#    args={srcdir},{builddir} depends=sd_tuner,sd_tuner_helper,polkit_policy
"""test-agents.py SRCDIR BUILDDIR - SD Tuner with the real polkit agents (issue 26).

The polkit agents of Raspberry Pi OS, lxpolkit (its X11 session) and mate-polkit (the one
its Wayland session starts), register only for a process in a logind session, and a logind
session needs systemd as PID 1. So this test boots a Debian 12 root with `systemd-nspawn -b`:
systemd, its logind, the system bus and polkitd 122 run there as on a desktop. A desktop user
(in group sudo, so an administrator for polkit, with a known password) gets a logind session
the way a login makes one (systemd-run -p PAMName=login: pam_systemd), and in it
agent-session.py starts Xvfb, a session bus, the agent and the build's sd-tuner, and drives
both over AT-SPI: Apply Without Trial -> the agent's password dialog appears; Cancel -> the
window says it was cancelled (MATE), or, after lxpolkit's Cancel, which polkitd cannot
tell from a failed password, that the dialog ended without a correct password; a wrong
password (typed with xdotool) -> the agent says so and asks again (MATE's then takes the
right one; lxpolkit 0.5.5's second try is broken, see agent-session.py); the right one ->
applied
(and config.txt has the block). Then a session without any agent: the window says no
password dialog can appear and what to do. Each session gets a fresh boot.
The helper is the build's, D-Bus-activated by the container's system bus on the simulated
Raspberry Pi 3 (data/sim), as tools/run.sh shows it.

The root (debootstrap --variant=minbase bookworm from the mirror this machine's apt uses,
plus systemd, dbus, polkitd, the agents, Xvfb, AT-SPI, xdotool and the app's libraries) comes
from the shared root builder, tests/roots/make-root.sh, cached as a tarball in SDT_VM_CACHE
(default /var/cache/sd-tuner-vm)/roots/bookworm-ARCH with every downloaded .deb; a cold run
builds it (minutes). Needs root, systemd-nspawn
(systemd-container) and debootstrap; exit 77 (skip) when it cannot run, 1 under CI=true.
"""
import glob
import re
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

USER, PASSWORD, WRONG = 'pi', 'raspberry-sdt', 'not-the-password'
PACKAGES = ('systemd systemd-sysv libpam-systemd dbus polkitd pkexec lxpolkit mate-polkit '
            'xvfb xauth at-spi2-core python3-pyatspi python3-gi xdotool umockdev '
            'libjson-glib-1.0-0 libgtk-3-0 libpolkit-agent-1-0 libpolkit-gobject-1-0 '
            'liburing2 libudev1 fonts-dejavu-core libgail-common libatk-adaptor').split()
# the sessions, AGENT:CASES:CONFIG (agent-session.py; CONFIG: what config.txt is after it,
# kept byte-identical or applied), one boot each: auth_admin_keep would let an applied
# setting's authorization answer the next Apply of the same session
SESSIONS = 'lxpolkit:cancel:kept lxpolkit:wrong:kept lxpolkit:right:applied ' \
    'mate:cancel,wrong:applied none:none:kept'
# Raspberry Pi OS on trixie (test-agents-trixie.py): the desktop is labwc on Wayland
# (rpd-labwc) and rpd-common pulls mate-polkit-bin as the agent; polkitd 126 (duktape).
# Package names as trixie has them (libgtk-3-0t64: the t64 rename of every arch; on
# amd64 and arm64 the soname and ABI are bookworm's, so the build's binaries run there).
TRIXIE_PACKAGES = ('systemd systemd-sysv libpam-systemd dbus polkitd labwc mate-polkit-bin '
                   'at-spi2-core python3-pyatspi python3-gi wtype grim umockdev '
                   'libjson-glib-1.0-0 libgtk-3-0t64 libpolkit-agent-1-0 '
                   'libpolkit-gobject-1-0 liburing2 libudev1 fonts-dejavu-core '
                   'libatk-adaptor').split()
TRIXIE_SESSIONS = 'mate:cancel,wrong:applied mate:right:applied none:none:kept'
SHOT = 'agents-trixie-labwc-mate-password.png'


def log(*args):
    print('agents:', *args, flush=True)


def cannot_run(why):
    if os.environ.get('CI') == 'true':
        print(f'FAIL (CI=true: a test that cannot run is a failure): {why}', flush=True)
        sys.exit(1)
    print(f'SKIP: {why}', flush=True)
    sys.exit(77)


def run(argv, what, **kw):
    r = subprocess.run(argv, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-3000:] + r.stderr[-3000:])
        raise AssertionError(f'{what} failed (exit status {r.returncode}): {" ".join(argv)}')
    return r.stdout


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    os.chmod(path, mode)


def set_up_root(root, src, build):
    """the desktop user, and the build's helper as the container's system bus service"""
    run(['chroot', root, 'useradd', '-m', '-G', 'sudo', '-s', '/bin/bash', USER], 'useradd')
    run(['chroot', root, 'chpasswd'], 'chpasswd', input=f'{USER}:{PASSWORD}\n')
    write(os.path.join(root, 'etc/hostname'), 'sdt-agents\n')
    sim = os.path.join(root, 'var/lib/sdt-sim/rpi3')
    shutil.copytree(os.path.join(src, 'data/sim/rpi3'), sim, symlinks=True)
    write(os.path.join(root, 'usr/local/libexec/sdt-helper-sim'),
          '#!/bin/sh\n# the build\'s helper on the simulated Raspberry Pi 3 (data/sim).\n'
          '# Not from /: umockdev 0.17 takes the name in openat(dirfd, "dev") as relative\n'
          '# to the working directory, so from / the /sys/dev/block/MAJ:MIN lookups of\n'
          '# libudev end in its /dev and fail\n'
          'cd /var/lib/sdt-sim\n'
          f'exec /usr/bin/umockdev-run -d {src}/data/sim/rpi3.umockdev -- '
          f'{build}/src/helper/sd-tuner-helper --root /var/lib/sdt-sim/rpi3 '
          '--idle-timeout 60 --bench-dir /var/lib/sdt-sim/bench --verbose\n', 0o755)
    os.makedirs(os.path.join(root, 'var/lib/sdt-sim/bench'))
    write(os.path.join(root, 'usr/share/dbus-1/system-services/org.example.SdTuner1.service'),
          '[D-BUS Service]\nName=org.example.SdTuner1\n'
          'Exec=/usr/local/libexec/sdt-helper-sim\nUser=root\n')
    shutil.copy(os.path.join(src, 'data/dbus/org.example.SdTuner1.conf'),
                os.path.join(root, 'usr/share/dbus-1/system.d/'))
    shutil.copy(os.path.join(build, 'polkit/org.example.sdtuner.policy'),
                os.path.join(root, 'usr/share/polkit-1/actions/'))
    return os.path.join(sim, 'boot/firmware/config.txt')


class Container:
    def __init__(self, root, binds, logpath):
        self.root = root
        name = f'sdt-agents-{os.getpid()}'
        argv = ['systemd-nspawn', '-q', '-b', '-D', root, '-M', name, '--register=no', '--keep-unit',
                '--resolv-conf=off', '--timezone=off', '--link-journal=no',
                '--console=pipe'] + [f'--bind-ro={b}' for b in binds]
        self.log = open(logpath, 'w')
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.leader = None

    def find_leader(self, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                self.log.flush()
                raise AssertionError(f'systemd-nspawn ended (exit status {self.proc.returncode}):'
                                     f' {open(self.log.name, errors="replace").read()[-2000:]}')
            for stat in glob.glob('/proc/[0-9]*/stat'):
                try:
                    f = open(stat).read().rsplit(')', 1)[1].split()
                except OSError:
                    continue
                if int(f[1]) == self.proc.pid:
                    pid = int(stat.split('/')[2])
                    try:
                        exe = os.readlink(f'/proc/{pid}/exe')
                    except OSError:   # a child of nspawn that ended meanwhile
                        continue
                    if exe.endswith('/systemd'):
                        self.leader = pid
                        return pid
            time.sleep(0.2)
        raise AssertionError('the container\'s systemd did not start')

    def cmd(self, argv, **kw):
        return subprocess.run(['nsenter', '-t', str(self.leader), '-a', '--'] + argv, **kw)

    def wait_booted(self, timeout=120):
        """systemctl is-system-running --wait, once the container's systemd answers"""
        deadline = time.time() + timeout
        state = ''
        while time.time() < deadline:
            r = self.cmd(['timeout', str(max(1, int(deadline - time.time()))), 'systemctl',
                          'is-system-running', '--wait'], capture_output=True, text=True)
            state = r.stdout.strip()
            if state in ('running', 'degraded'):
                return state
            if state not in ('', 'offline', 'initializing', 'starting'):
                break
            time.sleep(0.5)
        failed = self.cmd(['systemctl', '--failed', '--no-legend'], capture_output=True,
                          text=True).stdout
        raise AssertionError(f'the container did not boot: {state!r}; failed: {failed}')

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)   # nspawn halts the container cleanly
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def make_shared_root(src, suite, arch, packages):
    """the root from the shared builder (tests/roots/make-root.sh; cached in
    SDT_VM_CACHE/roots/SUITE-ARCH, keyed on the package list)"""
    t0 = time.time()
    r = subprocess.run([os.path.join(src, 'tests/roots/make-root.sh'), suite, arch] +
                       list(packages), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    for line in r.stderr.splitlines():
        log(line)
    if r.returncode != 0 or not r.stdout.strip():
        why = (r.stderr.strip().splitlines() or ['no reason given'])[-1]
        cannot_run(f'no {suite} root: {why}')
    log(f'{suite} root ready in {time.time() - t0:.0f} s: {r.stdout.strip()}')
    return r.stdout.strip()


def main(suite='bookworm'):
    src, build = (os.path.realpath(p) for p in sys.argv[1:3])
    if os.geteuid() != 0:
        cannot_run('needs root (debootstrap, systemd-nspawn)')
    for prog in ('systemd-nspawn', 'debootstrap', 'nsenter'):
        if shutil.which(prog) is None:
            cannot_run(f'{prog} is not installed (tools/deps.sh test)')
    arch = run(['dpkg', '--print-architecture'], 'dpkg').strip()
    if '--make-root-only' in sys.argv[3:]:
        # tests/roots/prepare-roots.sh: the root made (or found cached) ahead of the test
        make_shared_root(src, suite, arch, TRIXIE_PACKAGES if suite == 'trixie' else PACKAGES)
        return 0
    sessions = [x.split(':') for x in os.environ.get(
        'SDT_AGENT_SESSIONS', TRIXIE_SESSIONS if suite == 'trixie' else SESSIONS).split()]
    work = tempfile.mkdtemp(prefix='sdt-agents-', dir='/var/tmp')
    t0 = time.time()
    box = None
    try:
        tarball = make_shared_root(src, suite, arch,
                                   TRIXIE_PACKAGES if suite == 'trixie' else PACKAGES)
        root = os.path.join(work, 'root')
        os.mkdir(root)
        run(['tar', '-C', root, '--numeric-owner', '-xf', tarball], 'tar -x')
        config = set_up_root(root, src, build)
        rules = install_rules(root, src) if suite == 'trixie' else None
        shot = None
        # the shared root keeps its no-service-starts guard for chroot use; booted, a
        # desktop has none
        if os.path.exists(os.path.join(root, 'usr/sbin/policy-rc.d')):
            os.remove(os.path.join(root, 'usr/sbin/policy-rc.d'))
        if suite == 'trixie':
            shots = os.path.join(root, 'var/lib/sdt-shots')
            os.makedirs(shots)
            run(['chroot', root, 'chown', USER, '/var/lib/sdt-shots'], 'chown')
            shot = '/var/lib/sdt-shots/' + SHOT
        sim = os.path.join(root, 'var/lib/sdt-sim/rpi3')
        original = open(config, 'rb').read()
        t1 = time.time()
        binds = [src] + ([build] if not build.startswith(src + '/') else [])
        # one boot per session: the helper's records of an applied setting go with it
        for agent, cases, config_after in sessions:
            shutil.rmtree(sim)
            shutil.copytree(os.path.join(src, 'data/sim/rpi3'), sim, symlinks=True)
            t2 = time.time()
            box = Container(root, binds, os.path.join(work, 'boot.log'))
            box.find_leader()
            log(f'booted: {box.wait_booted()} in {time.time() - t2:.1f} s')
            if rules is not None:
                missing = box_ldd(box, build)
                check(not missing, 'the build\'s sd-tuner and helper find every library in '
                      f'the trixie root (missing: {missing or "none"})')
                check_rules(box, rules)
                rules = None   # once: every boot loads the same files
            if suite == 'trixie':
                want_shot = shot if agent != 'none' and not os.path.exists(
                    root + shot) else None
                try:
                    session(box, agent, cases, src, build, 'labwc', want_shot)
                finally:
                    if want_shot and os.path.exists(root + shot):
                        out = os.path.join(build, 'screenshots')
                        os.makedirs(out, exist_ok=True)
                        shutil.copy(root + shot, os.path.join(out, SHOT))
                        log(f'saved {os.path.join(out, SHOT)}')
                if want_shot:
                    check(os.path.exists(root + shot), 'the session saved its screenshot')
            else:
                session(box, agent, cases, src, build)
            box.stop()
            box = None
            after = open(config, 'rb').read()
            if config_after == 'kept':
                check(after == original, f'{agent} {cases}: config.txt is byte-identical')
            else:
                check(after != original and b'sd_overclock' in after,
                      f'{agent} {cases}: the right password applied the setting (config.txt '
                      'has it)')
        log(f'PASS: root {t1 - t0:.0f} s, boot and sessions {time.time() - t1:.0f} s')
    except AssertionError as e:
        if box is not None:
            sys.stderr.write(box.cmd(['journalctl', '-b', '--no-pager', '-n', '300'],
                                     capture_output=True, text=True).stdout)
        print(f'FAIL: {e}', file=sys.stderr, flush=True)
        return 1
    finally:
        if box is not None:
            box.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


# every polkit rule the project ships (polkit/*.rules) or its tests install (a
# polkit.addRule/addAdminRule script in a string of tests/**), for polkitd 126 to load
RULE_RX = re.compile(r'polkit\.add(?:Admin)?Rule\(function.*?\n\}\);', re.S)
# a rule polkitd 126 must refuse: valid JavaScript (ES2015: an arrow function and let)
# that duktape, ECMAScript 5.1, cannot parse (Debian's polkitd 122 on bookworm is built
# with duktape too and refuses it alike: "SyntaxError: parse error (line 1)"); it shows
# that the log check sees an error, and what a rule must not use
CONTROL_RULE = ('polkit.addRule((action, subject) => {\n'
                '    let id = "org.example.sdtuner.never-an-action";\n'
                '    if (action.id == id)\n        return polkit.Result.NO;\n});\n')
CONTROL = '61-sdt-check-es2015.rules'


def install_rules(root, src):
    """the project's polkit rules into the root's /etc/polkit-1/rules.d, one file each,
    and the ES2015 control rule; {file name: where it came from}"""
    found = {}
    for path in sorted(glob.glob(os.path.join(src, 'polkit', '*.rules'))):
        found[os.path.relpath(path, src)] = open(path).read()
    for path in sorted(glob.glob(os.path.join(src, 'tests', '**', '*.py'), recursive=True) +
                       glob.glob(os.path.join(src, 'tests', '**', '*.sh'), recursive=True)):
        if os.path.realpath(path) == os.path.realpath(__file__):
            continue
        for i, m in enumerate(RULE_RX.finditer(open(path, errors='replace').read())):
            found[f'{os.path.relpath(path, src)} #{i + 1}'] = m.group(0) + '\n'
    if not found:
        raise AssertionError('no polkit rule found in polkit/ or tests/ (the pattern broke?)')
    d = os.path.join(root, 'etc/polkit-1/rules.d')
    os.makedirs(d, exist_ok=True)
    names = {}
    for i, (where, text) in enumerate(sorted(found.items())):
        name = f'60-sdt-check-{i + 1}.rules'
        write(os.path.join(d, name), text)
        names[name] = where
    write(os.path.join(d, CONTROL), CONTROL_RULE)
    log(f'{len(found)} polkit rules of the project installed for polkitd 126 to load: ' +
        ', '.join(f'{n} ({w})' for n, w in names.items()))
    return names


def check_rules(box, names):
    """polkitd 126 (duktape) loaded every rule without an error, and refused the
    ES2015 control rule: its own log, at its start"""
    box.cmd(['systemctl', 'start', 'polkit.service'], check=True, timeout=60)
    deadline = time.time() + 30
    text = ''
    while time.time() < deadline:
        text = box.cmd(['journalctl', '-b', '-u', 'polkit.service', '--no-pager', '-o', 'cat'],
                       capture_output=True, text=True).stdout
        if 'Finished loading' in text:
            break
        time.sleep(0.5)
    version = box.cmd(['dpkg-query', '-W', '-f', '${Version}', 'polkitd'],
                      capture_output=True, text=True).stdout
    log(f'polkitd {version}: ' + ' | '.join(
        ln for ln in text.splitlines() if 'rules' in ln or 'rror' in ln))
    check('Finished loading' in text, 'polkitd logged that it loaded its rules')
    bad = [ln for ln in text.splitlines() if 'sdt-check' in ln and
           re.search(r'rror|failed|xception', ln)]
    check(any(CONTROL in ln for ln in bad),
          'polkitd 126 refuses the control rule in ES2015 (duktape parses ECMAScript 5.1; the '
          'log check sees an error)')
    bad = [ln for ln in bad if CONTROL not in ln]
    check(not bad, f'polkitd 126 (duktape) loads the project\'s {len(names)} rules without an '
          f'error ({bad or "none"})')


def box_ldd(box, build):
    """the libraries the build's binaries (built on this machine) do not find in the
    booted root"""
    missing = []
    for exe in ('src/app/sd-tuner', 'src/helper/sd-tuner-helper'):
        out = box.cmd(['ldd', os.path.join(build, exe)], capture_output=True,
                      text=True).stdout
        missing += [f'{exe}: {ln.strip()}' for ln in out.splitlines() if 'not found' in ln]
    return missing


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    log('ok:', what)


def session(box, agent, cases, src, build, desktop='xvfb', shot=None):
    """agent-session.py as the desktop user, in a logind session made by pam_systemd"""
    log(f'session with agent {agent} ({desktop})')
    r = box.cmd(['systemd-run', '--quiet', '--wait', '--pipe', f'--uid={USER}',
                 '-p', 'PAMName=login', '-p', 'RuntimeMaxSec=240',
                 '/usr/bin/python3', os.path.join(src, 'tests/agents/agent-session.py'),
                 agent, cases, os.path.join(build, 'src/app/sd-tuner'), PASSWORD, WRONG,
                 desktop] + ([shot] if shot else []),
                stdin=subprocess.DEVNULL, timeout=300)
    check(r.returncode == 0, f'{agent} ({cases}): the session said what it should')


if __name__ == '__main__':
    sys.exit(main())
