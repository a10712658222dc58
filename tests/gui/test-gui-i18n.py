#!/usr/bin/python3
# meson-test: gui-i18n suite=gui,i18n timeout=900 parallel=false run=system needs=gtk,polkit
#    env=gui args={builddir} depends=sd_tuner,sd_tuner_helper
"""test-gui-i18n.py BUILDDIR PSEUDO-LOCALEDIR - the window in other languages, over AT-SPI.

The app runs as in test-gui-flow.py (user nobody, the built helper on the simulated
Raspberry Pi 3, the real polkitd and the test agent), in two languages (the pseudo-locale
"qps" over every page and state: test-gui-pseudo.py):
  ja    a known Japanese label on each page (on Health, the wear estimate's assumption,
        which the helper sends in English); no label is clipped (the app's layout
        report: allocated width >= natural width, wrapped labels get the height they
        need, nothing outside the window, which fits the screen) at 1280x800 and
        800x480; Tuning's Apply is on screen without scrolling at 800x480; screenshots of Overview, Speed with results and Tuning (with
        fonts-noto-cjk) into $SDTUNER_SCREENSHOT_DIR as ja-*.png;
  de    the same clipping checks (German has long words).
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check, log  # noqa: E402

SIZES = [(1280, 800), (800, 480)]


def session(app, shots, env, agent, language, localedir):
    s = sdtgui.Session(app, out_dir=shots)
    s.__enter__()
    s.env['SDTUNER_LAYOUT_REPORT'] = os.path.join(s.home, 'layout.json')
    s.start_app(env.address, prefix=env.agent_cmd(agent, []),
                extra_env={'LANGUAGE': language, 'SDTUNER_LOCALEDIR': localedir})
    return s


def layouts(s, what):
    for w, h in SIZES:
        s.resize(w, h)
        s.steps('layout', str(w), str(h))
        log(f'{what}: no label clipped at {w}x{h}')


def japanese(env, app, shots, localedir):
    s = session(app, shots, env, 'allow', 'ja', localedir)
    try:
        s.steps('wait-text', r'^シミュレーションの Raspberry Pi 3 Model B',
                'wait-text', r'^SD カード$', 'wait-text', r'上限: \d+\.\d MB/s。')
        layouts(s, 'ja Overview')
        s.screenshot('ja-overview-1280x800', 1280, 800)
        s.steps('page', '速度', 'wait-text', r'^カードの本当の速さを測ります',
                'click', 'ベンチマーク(B)',
                'wait-text-long', r'^代わりの場所で測定|^このカードは、このボードで|^判定できません',
                'value', 'シーケンシャル読み取り、MB/s', r'^\d+\.\d$', timeout=300)
        layouts(s, 'ja Speed')
        s.screenshot('ja-benchmark-1280x800', 1280, 800)
        s.steps('page', 'チューニング', 'wait-text', r'^SD カードを 100 MHz で動かす$',
                'wait-text', r'^このボードの SD コントローラー（sdhost）は')
        layouts(s, 'ja Tuning')
        s.resize(800, 480)
        s.steps('in-view', r'^適用\(A\)$')
        s.screenshot('ja-tuning-800x480')
        s.screenshot('ja-tuning-1280x800', 1280, 800)
        s.steps('page', '履歴', 'wait-text', r'^最新のベンチマークとその前|^まだベンチマーク|^SD Tuner の直近|^代わりのフォルダーで行ったベンチマーク')
        layouts(s, 'ja History')
        # the wear estimate's assumption and the notes come from the helper in English:
        # the Health page shows them in Japanese (issue 24)
        s.steps('page', '健康状態', 'wait-text', r'^レジスター: ',
                'wait-text', r'このペースなら.*\n大まかな見積もりです。',
                'no-text', r'rough estimate|Registers: ')
        check(s.app_running(), 'ja: the app runs on')
    finally:
        s.close()


def german(env, app, shots, localedir):
    t = catalogue(localedir, 'de')
    s = session(app, shots, env, 'allow', 'de', localedir)
    try:
        s.steps('wait-text', r'Raspberry Pi 3 Model B')
        layouts(s, 'de Overview')
        s.resize(1280, 800)
        # a results table full of figures: the widest the Speed page gets
        s.steps('page', t.gettext('Speed'), 'click', mnemonic_free(t.gettext('_Benchmark')),
                'wait-text-long', r'^\d+\.\d\d?$', timeout=300)
        layouts(s, 'de Speed')
        s.resize(1280, 800)
        s.steps('page', t.gettext('Tuning'), 'wait-text', r'100 MHz')
        layouts(s, 'de Tuning')
        s.resize(1280, 800)
        s.steps('page', t.gettext('History'))
        layouts(s, 'de History')
        # the check can fail: squeezed below its minimum size the window is clipped
        s.resize(400, 240)
        try:
            s.steps('layout', '400', '240')
            squeezed_ok = True
        except AssertionError:
            squeezed_ok = False
        check(not squeezed_ok, 'the layout check reports a window squeezed to 400x240')
    finally:
        s.close()


def catalogue(localedir, language):
    import gettext
    return gettext.translation('sd-tuner', localedir, [language], fallback=True)


def mnemonic_free(label):
    """a button's accessible name: its label without the mnemonic mark"""
    return label.replace('(_', '(').replace('_', '')


def main():
    builddir = sys.argv[1]
    po_dir = os.path.join(builddir, 'po')
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    shots = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-shots-')
    with sdtgui.sim_env() as env:
        japanese(env, app, shots, po_dir)
        german(env, app, shots, po_dir)
    print(f'PASS (screenshots in {shots})')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
