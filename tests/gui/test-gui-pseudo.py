#!/usr/bin/python3
"""test-gui-pseudo.py BUILDDIR PSEUDO-LOCALEDIR - no English left in the window (issue 24).

The app runs as nobody against the BUILT helper on the simulated Raspberry Pi 3 (a private
system bus, the real polkitd, the test agent), the helper's --bench-dir being the mount of
a FUSE fake card (tests/fake-card: claims 512 MiB, wraps at 333 MiB), so the check fails.
Under the pseudo-locale "qps" (make-pseudo.sh: every literal piece of every msgstr in ⟦…⟧,
placeholders outside) the AT-SPI steps read every showing text (names, descriptions and
tooltips, text views, table cells) on each page and state and run the English detector of
tests/i18n/sdti18n.py over it:
  refused (agent denies): Overview; Tuning's refused Apply (its error bar); Health's
      refused Quick check;
  allowed: Overview; Speed before and after a benchmark; Tuning with the recommendation
      and, after Apply, the trial; History; Health with the registers and wear, then a
      Quick check that finds the fake; Tuning after Revert; History after all that;
  no helper: a bus without sd-tuner-helper (the info bar, Speed's refused benchmark);
      no system bus at all.
Every run of English found is listed with where and the full line; the test fails if
there is any. Screenshots (qps-*.png) and, under LANGUAGE=ja, the Health page after the
failed check (ja-health-failed-check-1280x800.png) go to $SDTUNER_SCREENSHOT_DIR.
"""
import json
import os
import shutil
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
        config = os.path.join(s.tmp, 'config-lines.txt')
        with open(config, 'w') as f:
            for path in [BOOKWORM] + ([os.path.join(root, 'boot', 'firmware', n)
                                       for n in ('config.txt', 'tryboot.txt')] if root else []):
                if os.path.exists(path):
                    f.write(open(path, errors='replace').read() + '\n')
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
                    'page', '⟦Tuning⟧', 'click', '⟦Revert⟧', 'wait-text', r'^⟦Reverted',
                    'where', 'Tuning (reverted)', 'marked',
                    'page', '⟦History⟧', 'where', 'History (after the check and revert)',
                    'marked', timeout=480)
            s.screenshot('qps-history-1280x800', 1280, 800)
            check(s.app_running(), 'qps: the app runs on')
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
    card = tempfile.mkdtemp(prefix='sdt-pseudo-gui-', dir='/var/tmp')
    fake('up', card, 'wrap', '512', '333')
    p = Pseudo(app, shots, pseudo_dir)
    try:
        mnt = os.path.join(card, 'mnt')
        with sdtgui.sim_env(bench_dir=False, extra_helper_args=('--bench-dir', mnt)) as env:
            if os.environ.get('SDTUNER_PSEUDO_ONLY') != 'ja':
                p.refused(env)
                p.allowed(env)
            japanese_health(env, app, shots, po_dir)
        if os.environ.get('SDTUNER_PSEUDO_ONLY') != 'ja':
            p.no_helper()
    finally:
        fake('down', card)
    p.report()
    print(f'PASS (screenshots in {shots})')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
