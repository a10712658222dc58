#!/usr/bin/python3
# meson-test: gui-no-helper suite=gui timeout=120 parallel=false run=system needs=gtk
#    env=gui args={builddir} depends=sd_tuner
"""test-gui-no-helper.py BUILDDIR - the window without its system service.

1. A private bus that has no sd-tuner-helper: the window opens, says in its info bar that
   the service is not installed and what to do, the Speed page's Benchmark button gives a
   clear message too, and the app keeps running.
   Then the bus goes away under it: the info bar says so, and the app keeps running.
2. No system bus at all: the info bar says the message bus is not running.
Every visible control has an accessible name. Screenshots go to $SDTUNER_SCREENSHOT_DIR
(or the test's temporary directory).
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtgui  # noqa: E402
from sdtgui import check, log  # noqa: E402

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


def helper_missing(app, shots):
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
            with sdtgui.Session(app, out_dir=shots) as s:
                s.start_app(f'unix:path={socket}')
                s.steps('wait-text', r'The SD Tuner system service \(sd-tuner-helper\) is not '
                        r'installed or could not start\. Reinstall SD Tuner, then press Retry\.',
                        'names')
                s.screenshot('no-helper-1280x800', 1280, 800)
                s.steps('page', 'Speed', 'click', 'Benchmark',
                        'wait-text', r'^The benchmark did not finish\. The SD Tuner system service',
                        'names', 'click', 'Retry',
                        'wait-text', r'could not start\. Reinstall SD Tuner')
                check(s.app_running(), 'the app is still running')
                s.screenshot('no-helper-800x480', 800, 480)

                # the bus goes away under the running app
                bus.terminate()
                bus.wait()
                s.steps('wait-text', r'^SD Tuner could not reach its system service\. The '
                        r'system message bus is not running\.')
                check(s.app_running(), 'the app is still running after the bus went away')
        finally:
            if bus.poll() is None:
                bus.terminate()
                bus.wait()


def bus_missing(app, shots):
    with sdtgui.Session(app, out_dir=shots) as s:
        s.start_app('unix:path=/nonexistent/sd-tuner-test-bus')
        s.steps('wait-text', r'^SD Tuner could not reach its system service\. The system '
                r'message bus is not running\.', 'click', 'Retry',
                'wait-text', r'The system message bus is not running')
        check(s.app_running(), 'the app is still running without a bus')


def main():
    builddir = sys.argv[1]
    app = os.path.join(builddir, 'src', 'app', 'sd-tuner')
    shots = os.environ.get('SDTUNER_SCREENSHOT_DIR') or tempfile.mkdtemp(prefix='sdt-shots-')
    helper_missing(app, shots)
    bus_missing(app, shots)
    print(f'PASS (screenshots in {shots})')


if __name__ == '__main__':
    sdtgui.main_wrapper(main)
