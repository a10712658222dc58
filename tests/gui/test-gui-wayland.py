#!/usr/bin/python3
# meson-test: gui-wayland suite=gui timeout=240 parallel=false run=system needs=gtk,polkit
#    env=gui args={builddir} depends=sd_tuner,sd_tuner_helper
"""test-gui-wayland.py BUILDDIR - the app under Wayland (issue 26).

Raspberry Pi OS's desktop is a Wayland session. Here weston (Debian 12's weston 10) runs
as the app's user with its seat (a pointer and a keyboard) and the pixman renderer, on its
X11 backend inside the test's Xvfb: the headless backend has no seat at all, and GTK
itself then floods criticals (gdk_seat_get_keyboard: GDK_IS_SEAT) that no Pi OS session
shows. The app runs with GDK_BACKEND=wayland; AT-SPI reaches it through the accessibility bus as
on X11. Otherwise as test-gui-flow.py: nobody, the private system bus, the built helper on
the simulated Raspberry Pi 3, real polkitd, the allowing test agent. The main flow: the
overview shows the board and card, Speed -> Benchmark gives a result, Tuning shows the
recommendation, every showing control has a name; and the app's output has no Gtk, Gdk
or GLib warning or critical, and the window was on Wayland (GDK_BACKEND=wayland alone, and
no SD Tuner window on the X server that the test also runs).
"""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sdtgui  # noqa: E402
from sdtgui import check, log  # noqa: E402

WESTON = 'weston'
SOCKET = 'sdt-wayland-0'


def start_weston(s):
    """weston, headless, as nobody, its socket in nobody's XDG_RUNTIME_DIR"""
    log_path = os.path.join(s.home, 'weston.log')   # nobody writes it
    env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'HOME': s.home,
           'XDG_RUNTIME_DIR': s.home, 'DISPLAY': s.env['DISPLAY']}
    s._spawn('weston', sdtgui.NOBODY + ['env', '-i'] + [f'{k}={v}' for k, v in env.items()] +
             [WESTON, '--backend=x11-backend.so', '--use-pixman', f'--socket={SOCKET}',
              '--idle-time=0', '--width=1280', '--height=800', f'--log={log_path}'],
             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    sock = os.path.join(s.home, SOCKET)
    for _ in range(100):
        if os.path.exists(sock):
            log('weston on', sock)
            return log_path
        time.sleep(0.1)
    raise AssertionError('weston did not start: ' + (open(log_path).read()
                                                     if os.path.exists(log_path) else ''))


def main():
    builddir = sys.argv[1]
    os.environ.setdefault('SDTUNER_BUILDDIR', builddir)
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    with sdtgui.sim_env() as env, sdtgui.Session(app) as s:
        start_weston(s)
        s.start_app(env.address, prefix=env.agent_cmd('allow', []),
                    extra_env={'GDK_BACKEND': 'wayland', 'WAYLAND_DISPLAY': SOCKET})
        s.steps('wait-text', r'^Simulated Raspberry Pi 3 Model B',
                'wait-text', r'MB/s\. No card can go faster', 'names',
                'page', 'Speed', 'click', 'Benchmark',
                'wait-text-long', r'^Stand-in: the test file was in ',
                'value', 'Sequential read, MB/s', r'^\d+\.\d$', 'names',
                'page', 'Tuning', 'wait-text', r'^Run the SD card at 100 MHz', 'names')
        check(s.app_running(), 'the app runs on under Wayland')
        out = s.app_output()
        log('app output:\n' + out)
        seat = subprocess.run(sdtgui.NOBODY + ['env', '-i', f'XDG_RUNTIME_DIR={s.home}',
                                               f'WAYLAND_DISPLAY={SOCKET}', 'weston-info'],
                              capture_output=True, text=True, timeout=20).stdout
        check(re.search(r"interface: 'wl_seat'", seat) is not None and
              re.search(r'capabilities:.*pointer.*keyboard|capabilities:.*keyboard.*pointer',
                        seat) is not None,
              'weston has a seat with a pointer and a keyboard')
        xwin = subprocess.run(['xdotool', 'search', '--name', '^SD Tuner$'],
                              env=dict(os.environ, DISPLAY=s.env['DISPLAY']),
                              capture_output=True, text=True).stdout.split()
        check(xwin == [], 'the window is on Wayland: none on the X server')
        bad = [line for line in out.splitlines()
               if re.search(r'(Gtk|Gdk|GLib-GObject|GLib)-(WARNING|CRITICAL)', line)]
        check(bad == [], 'no Gtk or Gdk warning from the app: ' + '\n'.join(bad))
    print('PASS')


if __name__ == '__main__':
    sdtgui.main_wrapper(main, programs=(WESTON, "weston-info"))
