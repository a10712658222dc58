#!/usr/bin/python3
# meson-test: gui-pseudo suite=gui,i18n timeout=480 parallel=false run=system
#    needs=fuse3,gtk,polkit env=gui-health
#    args={builddir},{testsbuilddir}/i18n-pseudo-pieces
#    depends=sd_tuner,sd_tuner_helper,polkit_policy,sdt_fake_card,pseudo_pieces_install
"""test-gui-pseudo.py BUILDDIR PSEUDO-LOCALEDIR - no English left in the window (issue 24).

The app runs as nobody against the BUILT helper on the simulated Raspberry Pi 3 (a private
system bus, the real polkitd, the test agent), the helper's --bench-dir being the mount of
a FUSE fake card (tests/fake-card: claims 512 MiB, wraps at 333 MiB), so the check fails.
Under the pseudo-locale "qps" (make-pseudo.sh --pieces: every literal piece of every msgstr in ⟦…⟧,
placeholders outside) the AT-SPI steps read every showing text (names, descriptions and
tooltips, text views, table cells) on each page and state and run the English detector of
tests/i18n/sdti18n.py over it:
  refused (agent denies): Overview; Tuning's refused Apply (its error bar); Health's
      refused Quick check;
  allowed: Overview; Speed before and after a benchmark; Tuning with the recommendation
      and, after Apply, the trial; History; Health with the registers and wear, then a
      Quick check that finds the fake; Tuning after Revert; History after all that;
  the loop: a trial pending, being checked after the (simulated) restart, kept by the
      verify unit (run in the C locale, as at boot), History, the next start's message;
  no helper: a bus without sd-tuner-helper (the info bar, Speed's refused benchmark);
      no system bus at all.
Every run of English found is listed with where and the full line; the test fails if
there is any. Screenshots (qps-*.png) and, under LANGUAGE=ja, the Health page after the
failed check (ja-health-failed-check-1280x800.png) go to $SDTUNER_SCREENSHOT_DIR.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check, log  # noqa: E402

FAKE_CARD = os.path.join(HERE, '..', 'fake-card', 'fake-card.sh')
BOOKWORM = os.path.join(HERE, '..', 'data', 'config', 'rpios-bookworm.txt')
BARE_BUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""
# the state after a benchmark or a check: its verdict line (any of them)
BENCH_DONE = r'^⟦(Stand-in: |This card (reaches|does not reach)|No verdict)'
CHECK_DONE = r'^⟦(Fake|Genuine|Not determinable)'


def fake(cmd, d, *args):
    r = subprocess.run([FAKE_CARD, cmd, d] + list(args), capture_output=True, text=True,
                       timeout=180)
    if r.returncode != 0:
        raise AssertionError(f'fake-card.sh {cmd}: {r.stdout}{r.stderr}')


class Pseudo:
    def __init__(self, app, shots, pseudo_dir):
        self.app, self.shots, self.pseudo_dir = app, shots, pseudo_dir
        self.mo = os.path.join(pseudo_dir, 'qps', 'LC_MESSAGES', 'sd-tuner.mo')
        self.findings = []   # (where, role, line, run)
        self.places = 0

    def session(self, address, prefix=(), language='qps', localedir=None, root=None):
        s = sdtgui.Session(self.app, out_dir=self.shots)
        s.__enter__()
        s.findings = os.path.join(s.home, 'findings.jsonl')
        open(s.findings, 'w').close()
        shutil.chown(s.findings, 'nobody', 'nogroup')
        # shown as they are, never translated: config.txt lines, the kernel's messages
        config = os.path.join(s.tmp, 'config-lines.txt')
        with open(config, 'w') as f:
            for path in [BOOKWORM] + ([os.path.join(root, 'boot', 'firmware', n)
                                       for n in ('config.txt', 'tryboot.txt')] if root else []):
                if os.path.exists(path):
                    f.write(open(path, errors='replace').read() + '\n')
            kmsg = os.path.join(root, 'dev', 'kmsg') if root else None
            lines = LOOP_LOG + (open(kmsg, errors='replace').read().splitlines()
                                if kmsg and os.path.isfile(kmsg) else [])
            f.write('\n'.join(line.split(';', 1)[-1] for line in lines) + '\n')
        os.chmod(config, 0o644)
        s.env.update(SDTUNER_PSEUDO_FINDINGS=s.findings, SDTUNER_PSEUDO_MO=self.mo,
                     SDTUNER_PSEUDO_CONFIG=config)
        s.start_app(address, prefix=prefix,
                    extra_env={'LANGUAGE': language,
                               'SDTUNER_LOCALEDIR': localedir or self.pseudo_dir})
        return s

    def collect(self, s):
        with open(s.findings) as f:
            for line in f:
                rec = json.loads(line)
                self.places += 1
                check(rec['texts'] > 0, f'{rec["where"]}: AT-SPI shows {rec["texts"]} texts')
                for role, text, run in rec['runs']:
                    self.findings.append((rec['where'], role, text, run))
        s.close()

    def refused(self, env):
        s = self.session(env.address, env.agent_cmd('deny', []), root=env.root)
        try:
            s.steps('wait-text', r'^⟦Simulated ', 'where', 'refused: Overview', 'marked',
                    'page', '⟦Tuning⟧', 'wait-text', r'^⟦Run the SD card at ',
                    'click', '⟦Apply⟧', 'wait-text', r'⟦The setting was not applied\.',
                    'where', 'refused: Tuning, Apply refused (error bar)', 'marked',
                    'page', '⟦Health⟧', 'wait-text', r'^⟦Registers: ',
                    'click', '⟦Quick check⟧', 'wait-text', r'⟦Permission|⟦Not authorized|'
                    r'⟦The check did not|⟦SD Tuner may not',
                    'where', 'refused: Health, Quick check refused', 'marked')
            s.screenshot('qps-refused-check-1280x800', 1280, 800)
        finally:
            self.collect(s)

    def allowed(self, env):
        s = self.session(env.address, env.agent_cmd('allow', []), root=env.root)
        try:
            s.steps('wait-text', r'^⟦Simulated ', 'wait-text', r'MB/s',
                    'where', 'Overview', 'marked',
                    'page', '⟦Speed⟧', 'where', 'Speed (before a benchmark)', 'marked',
                    'click', '⟦Benchmark⟧', 'wait-text-long', BENCH_DONE,
                    'where', 'Speed (after a benchmark)', 'marked',
                    'page', '⟦Tuning⟧', 'wait-text', r'^⟦Run the SD card at ',
                    'where', 'Tuning (a recommendation)', 'marked',
                    'click', '⟦Apply⟧', 'wait-text', r'^⟦The trial of ⟧',
                    'where', 'Tuning (trial prepared)', 'marked',
                    'page', '⟦History⟧', 'where', 'History (benchmark, trial)', 'marked',
                    'page', '⟦Health⟧', 'wait-text', r'^⟦Registers: ',
                    'where', 'Health (registers, wear)', 'marked',
                    'click', '⟦Quick check⟧', 'wait-text-long', CHECK_DONE,
                    'where', 'Health (after a failed check)', 'marked',
                    'page', '⟦Tuning⟧', 'click', '⟦Revert⟧', 'wait-text', r'^⟦(Reverted|Cancelled the trial)',
                    'where', 'Tuning (trial cancelled)', 'marked',
                    'page', '⟦History⟧', 'where', 'History (after the check and revert)',
                    'marked', timeout=480)
            s.screenshot('qps-history-1280x800', 1280, 800)
            check(s.app_running(), 'qps: the app runs on')
        finally:
            self.collect(s)

    def loop(self, env, board):
        """the closed loop: a trial pending, being checked after the restart, decided by
        the verify unit (which runs at boot in the C locale), and the next start's message"""
        board.boot(0, 50000000, False)
        s = self.session(env.address, env.agent_cmd('allow', []), root=env.root)
        try:
            s.steps('wait-text', r'^⟦Simulated ', 'page', '⟦Tuning⟧',
                    'click', '⟦Apply⟧', 'wait-text', r'^⟦The trial of ⟧',
                    'where', 'loop: Tuning (trial pending)', 'marked')
            board.boot(1, 100000000, True)
            s.steps('click', '⟦Refresh⟧', 'wait-text', r'^⟦SD Tuner is checking ⟧',
                    'where', 'loop: Tuning (being checked after the restart)', 'marked')
            res = board.verify(LOOP_FASTER)
            check(res is not None and res.get('decision') == 'keep', 'the verification kept it')
            s.steps('click', '⟦Refresh⟧', 'wait-text', r'^⟦SD Tuner kept ⟧',
                    'where', 'loop: Tuning (kept by the verification)', 'marked',
                    'page', '⟦History⟧', 'wait-text', r'^⟦Before and after ',
                    'where', 'loop: History (the verification)', 'marked')
            s.screenshot('qps-loop-history-1280x800', 1280, 800)
        finally:
            self.collect(s)
        s = self.session(env.address, env.agent_cmd('allow', []), root=env.root)
        try:
            s.steps('wait-text', r'^⟦After the restart on ⟧',
                    'where', 'loop: next start (the outcome message)', 'marked')
            s.screenshot('qps-loop-message-1280x800', 1280, 800)
        finally:
            self.collect(s)

    def no_helper(self):
        with tempfile.TemporaryDirectory(prefix=f'sdt-bare-bus-{os.getpid()}-') as d:
            os.chmod(d, 0o755)
            socket = os.path.join(d, 'bus')
            conf = os.path.join(d, 'bus.conf')
            with open(conf, 'w') as f:
                f.write(BARE_BUS_CONF.format(socket=socket))
            bus = subprocess.Popen(['dbus-daemon', f'--config-file={conf}', '--nofork'],
                                   stderr=subprocess.DEVNULL)
            try:
                for _ in range(50):
                    if os.path.exists(socket):
                        break
                    time.sleep(0.1)
                s = self.session(f'unix:path={socket}')
                try:
                    s.steps('wait-text', r'⟦Retry⟧|sd-tuner-helper', 'where',
                            'no helper: Overview (info bar)', 'marked',
                            'page', '⟦Speed⟧', 'click', '⟦Benchmark⟧',
                            'wait-text', r'^⟦The benchmark did not finish',
                            'where', 'no helper: Speed, Benchmark', 'marked')
                    s.screenshot('qps-no-helper-1280x800', 1280, 800)
                finally:
                    self.collect(s)
            finally:
                bus.terminate()
                bus.wait()
        s = self.session('unix:path=/nonexistent/sd-tuner-test-bus')
        try:
            s.steps('wait-text', r'⟦Retry⟧|⟦SD Tuner could not', 'where',
                    'no system bus: Overview (info bar)', 'marked')
        finally:
            self.collect(s)

    def report(self):
        distinct = {}
        for where, role, line, run in self.findings:
            distinct.setdefault(run, (where, role, line))
        log(f'English left in the window: {len(self.findings)} runs, {len(distinct)} distinct, '
            f'over {self.places} places')
        for run, (where, role, line) in sorted(distinct.items()):
            log(f'  {run!r}  ({where}, {role}: {line!r})')
        with open(os.path.join(self.shots, 'pseudo-gui-english.txt'), 'w') as f:
            for run, (where, role, line) in sorted(distinct.items()):
                f.write(f'{run}\t{where}\t{role}\t{line}\n')
        check(not self.findings, 'no English left in the window under the pseudo-locale')


def fig(median, spread, unit='MB/s'):
    return {'median': median, 'spread': spread, 'unit': unit}


LOOP_FASTER = {'soak': {'bytes_written': 67108864, 'bytes_checked': 67108864, 'mismatches': 0,
                        'first_bad_offset': None},
               'before': {'seq-write': fig(18.0, 0.4), 'seq-read': fig(22.0, 0.3)},
               'after': {'seq-write': fig(21.5, 0.5), 'seq-read': fig(41.0, 0.6)}}
LOOP_BOOT = ['0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11', '5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70']
LOOP_LOG = ['6,0,0,-;Booting Linux on physical CPU 0x0000000000 [0x410fd034]',
            '6,3,1500000,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)',
            '6,4,1512345,-;mmc0: overclocking to 100000000Hz',
            '6,6,1537035,-;mmc0: new high speed SDHC card at address 0001']


class Board:
    """the helper's root as tests/gui/test-gui-loop.py simulates its restarts: boot id,
    clock, kernel log, tryboot flag; the verify unit's `sdtunerctl --root ROOT verify`"""

    def __init__(self, env, builddir):
        self.root = env.root
        self.sdtunerctl = os.path.join(builddir, 'src', 'cli', 'sdtunerctl')

    def _write(self, rel, data, mode='w'):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, mode) as f:
            f.write(data)

    def boot(self, i, clock_hz, tryboot):
        self._write('proc/sys/kernel/random/boot_id', LOOP_BOOT[i] + '\n')
        ios = os.path.join(self.root, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
        with open(ios) as f:
            lines = [f'actual clock:\t{clock_hz} Hz' if line.startswith('actual clock:')
                     else line for line in f.read().splitlines()]
        self._write('sys/kernel/debug/mmc0/ios', '\n'.join(lines) + '\n')
        if i > 0:
            self._write('dev/kmsg', '\n'.join(LOOP_LOG) + '\n')
        flag = os.path.join(self.root, 'proc', 'device-tree', 'chosen', 'bootloader', 'tryboot')
        if tryboot:
            self._write('proc/device-tree/chosen/bootloader/tryboot', b'\0\0\0\1', 'wb')
        elif os.path.exists(flag):
            os.unlink(flag)

    def verify(self, evidence):
        path = os.path.join(os.path.dirname(self.root), 'evidence.json')
        with open(path, 'w') as f:
            json.dump(evidence, f)
        cmd = [shutil.which('umockdev-run') or '/usr/bin/umockdev-run', '-d',
               os.path.abspath(sdtgui.SIM_UMOCKDEV), '--', self.sdtunerctl, '--root', self.root,
               '--json', 'verify', '--evidence', path]
        env = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
        env.pop('SDTUNER_ROOT', None)
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        log('verify:', p.returncode, p.stdout[:300], p.stderr[:300])
        return json.loads(p.stdout) if p.stdout.strip() else None


def japanese_health(env, app, shots, po_dir):
    """the Health page after the failed check, in Japanese: a screenshot for the lead"""
    s = sdtgui.Session(app, out_dir=shots)
    s.__enter__()
    try:
        s.start_app(env.address, prefix=env.agent_cmd('allow', []),
                    extra_env={'LANGUAGE': 'ja', 'SDTUNER_LOCALEDIR': po_dir})
        import gettext
        import re
        t = gettext.translation('sd-tuner', po_dir, ['ja'])
        s.steps('wait-text', r'^シミュレーションの Raspberry Pi', 'page', t.gettext('Health'),
                'click', t.gettext('Quick check'),
                'wait-text-long', '^' + re.escape(t.gettext('Fake: the card holds less than '
                                                            'it claims.')), timeout=240)
        path = s.screenshot('ja-health-failed-check-1280x800', 1280, 800)
        log('Japanese Health page after the failed check:', path)
    finally:
        s.close()


def main():
    builddir, pseudo_dir = sys.argv[1], sys.argv[2]
    po_dir = os.path.join(builddir, 'po')
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    shots = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-shots-')
    os.makedirs(shots, exist_ok=True)
    # a timeout's SIGTERM unwinds like an exception: the fake card goes down
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: sys.exit(128 + signum))
    card = tempfile.mkdtemp(prefix='sdt-pseudo-gui-', dir='/var/tmp')
    fake('up', card, 'wrap', '512', '333')
    p = Pseudo(app, shots, pseudo_dir)
    try:
        mnt = os.path.join(card, 'mnt')
        with sdtgui.sim_env(bench_dir=False, extra_helper_args=('--bench-dir', mnt)) as env:
            if os.environ.get('SDTUNER_PSEUDO_ONLY') != 'ja':
                p.refused(env)
                p.allowed(env)
                p.loop(env, Board(env, builddir))
            japanese_health(env, app, shots, po_dir)
        if os.environ.get('SDTUNER_PSEUDO_ONLY') != 'ja':
            p.no_helper()
    finally:
        fake('down', card)
    p.report()
    print(f'PASS (screenshots in {shots})')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
