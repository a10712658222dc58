#!/usr/bin/python3
"""agent-session.py AGENT CASES APP PASSWORD WRONG [DESKTOP [SHOT]] - one desktop session.

Run by test-agents.py inside the systemd-nspawn container, as the desktop user, in a logind
session of its own (systemd-run --uid=USER -p PAMName=login, which goes through pam_systemd
as a login does): the polkit agents register only for a process that has a logind session.
AGENT is lxpolkit (the X11 session's agent on Pi OS), mate (mate-polkit, the agent Pi OS's
Wayland session starts) or none. DESKTOP is xvfb (the default: Xvfb, the clients on X11,
passwords typed with xdotool) or labwc (Raspberry Pi OS's Wayland compositor since trixie,
Debian's labwc, run with wlroots' headless backend and pixman renderer: a real compositor
with no GPU and no seat; the agent and the app are its native Wayland clients, passwords
are typed with wtype through labwc's virtual-keyboard protocol, and SHOT, a PNG path, gets
grim's screenshot of labwc's output with the password dialog up). Starts the display, a
session bus (AT-SPI is D-Bus-activated on it), the agent and sd-tuner (APP: the build's,
bind-mounted), then drives both over AT-SPI: on the Tuning page Apply Without Trial, and in
the agent's password dialog:
  cancel: its Cancel button -> the window says the password dialog was cancelled (MATE's
          agent answers polkitd "dismissed"); lxpolkit's Cancel ends the authentication
          the way a failed password does, so there the window says that the dialog
          ended without a correct password, cancelled or wrong (not "the policy");
  wrong:  the password WRONG typed -> the agent itself says it was wrong and asks again
          (both agents do; the app hears nothing until the dialog ends); then MATE's
          takes PASSWORD and the window says Applied to ...; lxpolkit's retry is broken
          (see wrong()): there the case ends with its message;
  right:  PASSWORD in the first dialog -> the window says Applied to ...
CASES is a comma-separated list of them; config.txt is checked by the caller.
With AGENT none: the window says that no password dialog can appear here, and what to do.
The order matters: the policy is auth_admin_keep, so after the right password polkitd
would not ask again. Exit status 0 when every case said what it should.
"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GUI = os.path.join(HERE, '..', 'gui')

NO_DIALOG = (r'^The setting was not applied\. Permission was not given\.\n\(Not authorized: '
             r'org\.example\.sdtuner\.modify-boot-config needs an administrator.s password, '
             r'and no password dialog can appear here: no polkit authentication agent is '
             r'running for this session\. Start SD Tuner from the desktop.s own session, or '
             r'run sdtunerctl in a terminal, which asks for the password itself\)$')
CANCELLED = (r'^The setting was not applied\. Permission was not given\.\n\(Not authorized: '
             r'the password dialog was cancelled\)$')
# lxpolkit's Cancel ends the authentication as a failed password does: no polkit.dismissed
ENDED = (r'^The setting was not applied\. Permission was not given\.\n\(Not authorized: '
         r'the password dialog ended without a correct password \(it was cancelled, or the '
         r'password was wrong\)\)$')
APPLIED = r'^Applied to '
# what the window says after the agent's Cancel button
CANCEL_WORDS = {'lxpolkit': ENDED, 'mate': CANCELLED}
CANCEL_WORDS_SAY = {'lxpolkit': 'the dialog ended without a correct password',
                    'mate': 'the password dialog was cancelled'}
# what the agent itself says after a wrong password (it asks again)
WRONG_WORDS = {'lxpolkit': r'Authentication failed', 'mate': r'unsuccessful|failed|Failure'}
# the agents' own names on the AT-SPI bus, and their programs
AGENTS = {
    # GTK 2: its accessibility through the gail and atk-bridge modules
    'lxpolkit': ('lxpolkit', ['env', 'GTK_MODULES=gail:atk-bridge', '/usr/bin/lxpolkit']),
    'mate': ('polkit-mate-authentication-agent-1',
             ['/usr/libexec/polkit-mate-authentication-agent-1']),
}


def log(*args):
    print('session:', *args, flush=True)


def load_steps():
    spec = importlib.util.spec_from_file_location('sdt_gui_steps',
                                                  os.path.join(GUI, 'sdt-gui-steps.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Desktop:
    def __init__(self, kind='xvfb'):
        self.kind = kind
        self.tmp = tempfile.mkdtemp(prefix='sdt-agents-')
        self.procs = []
        self.env = dict(os.environ, LANG='C.UTF-8', LANGUAGE='C', GDK_BACKEND='x11',
                        GTK_A11Y='atk', NO_AT_BRIDGE='0', GSETTINGS_BACKEND='memory',
                        SDTUNER_DEBUG_MESSAGES='1')
        self.shot_taken = False
        self.agent_ui = None

    def spawn(self, name, argv, **kw):
        out = open(os.path.join(self.tmp, name + '.log'), 'w')
        p = subprocess.Popen(argv, env=self.env, stdout=out, stderr=subprocess.STDOUT, **kw)
        self.procs.append((name, p))
        return p

    def start(self):
        if self.kind == 'labwc':
            return self.start_labwc()
        r, w = os.pipe()
        p = subprocess.Popen(['Xvfb', '-displayfd', str(w), '-screen', '0', '1280x800x24',
                              '-nolisten', 'tcp', '-noreset'], pass_fds=(w,),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(('Xvfb', p))
        os.close(w)
        with os.fdopen(r) as f:
            display = f.readline().strip()
        if not display:
            raise AssertionError('Xvfb did not start')
        self.env['DISPLAY'] = ':' + display
        self.session_bus()
        log('Xvfb on', self.env['DISPLAY'], 'session bus', self.env['DBUS_SESSION_BUS_ADDRESS'])

    def session_bus(self):
        r, w = os.pipe()
        p = subprocess.Popen(['dbus-daemon', '--session', '--nofork', f'--print-address={w}'],
                             pass_fds=(w,), env=self.env, stderr=subprocess.DEVNULL)
        self.procs.append(('session-bus', p))
        os.close(w)
        with os.fdopen(r) as f:
            self.env['DBUS_SESSION_BUS_ADDRESS'] = f.readline().strip()

    def start_labwc(self):
        """labwc with wlroots' headless backend (one 1280x720 output) and the pixman
        renderer; its startup command writes the WAYLAND_DISPLAY it gives its clients"""
        self.env.pop('DISPLAY', None)
        self.env.update(GDK_BACKEND='wayland', XDG_SESSION_TYPE='wayland',
                        XDG_CURRENT_DESKTOP='labwc:wlroots')
        if not self.env.get('XDG_RUNTIME_DIR'):
            raise AssertionError('no XDG_RUNTIME_DIR: pam_systemd did not make one')
        # the session bus first, without DISPLAY or WAYLAND_DISPLAY in its environment
        self.session_bus()
        said = os.path.join(self.tmp, 'wayland-display')
        env = dict(self.env, WLR_BACKENDS='headless', WLR_RENDERER='pixman',
                   WLR_HEADLESS_OUTPUTS='1', WLR_LIBINPUT_NO_DEVICES='1')
        out = open(os.path.join(self.tmp, 'labwc.log'), 'w')
        p = subprocess.Popen(['labwc', '-s', f'sh -c \'echo "$WAYLAND_DISPLAY" > {said}\''],
                             env=env, stdout=out, stderr=subprocess.STDOUT)
        self.procs.append(('labwc', p))
        deadline = time.time() + 30
        while time.time() < deadline and not (os.path.exists(said) and
                                              open(said).read().strip()):
            if p.poll() is not None:
                raise AssertionError(f'labwc ended (exit status {p.returncode}): '
                                     f'{self.output("labwc")[-2000:]}')
            time.sleep(0.1)
        display = open(said).read().strip() if os.path.exists(said) else ''
        if not display:
            raise AssertionError('labwc did not start its clients within 30 s: '
                                 f'{self.output("labwc")[-2000:]}')
        self.env['WAYLAND_DISPLAY'] = display
        # a keyboard for the whole session, as a desktop has one plugged in: a virtual
        # keyboard (wtype sleeping) from before the clients start, so the seat offers them
        # a keyboard from the start; a wtype that only lives while it types would race
        # the clients binding their wl_keyboard after the seat gains it
        self.spawn('keyboard', ['wtype', '-s', '3600000'])
        log('labwc', subprocess.run(['labwc', '--version'], capture_output=True,
                                    text=True).stdout.strip(), 'on', display,
            '(headless backend, pixman renderer), session bus',
            self.env['DBUS_SESSION_BUS_ADDRESS'])

    def screenshot(self, path):
        """grim: labwc's output through wlr-screencopy, with what is on it now"""
        r = subprocess.run(['grim', path], env=self.env, capture_output=True, text=True,
                           timeout=30)
        if r.returncode != 0:
            raise AssertionError(f'grim failed: {r.stderr.strip()}')
        with open(path, 'rb') as f:
            head = f.read(24)
        if head[:8] != b'\x89PNG\r\n\x1a\n':
            raise AssertionError(f'grim did not write a PNG to {path}')
        w, h = int.from_bytes(head[16:20], 'big'), int.from_bytes(head[20:24], 'big')
        log(f'screenshot of the labwc session ({w}x{h}, {os.path.getsize(path)} bytes): {path}')
        self.shot_taken = True

    def type(self, text):
        """@text, as a user types it: xdotool on X11, wtype (a virtual keyboard of the
        compositor) on labwc"""
        if self.kind == 'labwc':
            argv = ['wtype', '-d', '20', '-s', '300', text]
        else:
            argv = ['xdotool', 'type', '--delay', '20', text]
        subprocess.run(argv, env=self.env, check=True, timeout=60)

    def output(self, name):
        path = os.path.join(self.tmp, name + '.log')
        return open(path, errors='replace').read() if os.path.exists(path) else ''

    def close(self):
        for name, p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


def main():
    agent, cases, app, password, wrong_password = sys.argv[1:6]
    kind = sys.argv[6] if len(sys.argv) > 6 else 'xvfb'
    shot = sys.argv[7] if len(sys.argv) > 7 else None
    log('user', os.getuid(), 'logind session', os.environ.get('XDG_SESSION_ID', '(none)'))
    if not os.environ.get('XDG_SESSION_ID'):
        raise AssertionError('this process has no logind session (pam_systemd did not run)')
    global DESKTOP
    d = DESKTOP = Desktop(kind)
    d.shot = shot
    try:
        d.start()
        os.environ.update(d.env)
        steps = load_steps()
        if agent != 'none':
            name, argv = AGENTS[agent]
            d.spawn('agent', argv)
            # it registers with polkitd right after its GTK start, which puts it on the
            # AT-SPI bus; a moment more for the registration's round trip
            steps.Ui(app_name=name)
            time.sleep(1)
        d.spawn('app', [app])
        ui = steps.Ui()
        ui.wait_text(r'^Simulated Raspberry Pi 3 Model B')
        ui.show_page('Tuning')
        ui.wait_text(r'^Run the SD card at 100 MHz')
        if agent == 'none':
            ui.click('Apply Without Trial')
            ui.wait_text(NO_DIALOG, timeout=30)
            log('ok: no agent: the window says no password dialog can appear here')
            return
        if 'cancel' in cases.split(','):
            cancel(steps, ui, agent, name)
        if 'wrong' in cases.split(','):
            wrong(steps, ui, d, agent, name, password, wrong_password)
        if 'right' in cases.split(','):
            right(steps, ui, d, agent, name, password)
    except BaseException:
        dump_labels(steps if 'steps' in locals() else None)
        for n in ('labwc', 'agent', 'app'):
            print(f'--- {n} output:\n{d.output(n)}', file=sys.stderr)
        raise
    finally:
        d.close()


def dump_labels(steps):
    """what the window and the agent show, when a case failed"""
    if steps is None:
        return
    import pyatspi
    for a in pyatspi.Registry.getDesktop(0):
        if a is None:
            continue
        try:
            ui = steps.Ui(app_name=a.name, timeout=1)
            names = [n.name for n in ui.find_all(lambda n: n.getRole() in (
                pyatspi.ROLE_LABEL, pyatspi.ROLE_PUSH_BUTTON) and ui.showing(n) and n.name)]
        except Exception as e:   # noqa: BLE001 - only a diagnostic
            names = [f'({e})']
        print(f'--- {a.name} shows: {names}', file=sys.stderr)


def cancel(steps, ui, agent, name):
    """Cancel in the password dialog"""
    ui.click('Apply Without Trial')
    a = password_field(steps, name)[0]
    a.click('Cancel')
    said = ui.wait_text(r'^The setting was not applied', timeout=30).name
    log(f'{agent}: cancel: the window says {said!r}')
    if not re.search(CANCEL_WORDS[agent], said):
        raise AssertionError(f'{agent}: after Cancel the window says {said!r}')
    log(f'ok: {agent}: cancel: the window says {CANCEL_WORDS_SAY[agent]}')


def right(steps, ui, d, agent, name, password):
    """the right password in the first dialog"""
    ui.click('Apply Without Trial')
    field = password_field(steps, name)[1]
    type_password(d, field, password)
    ui.wait_text(APPLIED, timeout=30)
    log(f'ok: {agent}: the right password: the window says the setting was applied')


def wrong(steps, ui, d, agent, name, password, wrong):
    """a wrong password: the agent says so and asks again. MATE's: then the right one in
    the same dialog is applied. lxpolkit's second try cannot succeed here (0.5.5 with
    polkit 122): it writes the answer to a session stream that is gone
    ("g_output_stream_write_all: assertion 'G_IS_OUTPUT_STREAM (stream)' failed") and its
    dialog stays insensitive, Cancel too; so for lxpolkit the case ends with its message
    (the window has nothing to say yet: the authentication is still open)."""
    ui.click('Apply Without Trial')
    a, field = password_field(steps, name)
    type_password(d, field, wrong)
    said = a.wait(lambda n: n.getRole() == a.pyatspi.ROLE_LABEL and a.showing(n) and
                  re.search(WRONG_WORDS[agent], n.name or ''), 30,
                  f'{name} saying the password was wrong').name
    log(f'ok: {agent}: wrong password: the agent says {said!r}')
    if agent == 'lxpolkit':
        a.click('OK')   # its message box
        ui.wait_text(r'^Waiting for permission')
        log(f'ok: {agent}: the window still waits for permission')
        return
    field = password_field(steps, name)[1]
    type_password(d, field, password)
    ui.wait_text(APPLIED, timeout=30)
    log(f'ok: {agent}: then the right password: the window says the setting was applied')


def password_field(steps, name):
    """the agent's password dialog: it appears, with its password field (and, on labwc,
    the first time, the screenshot of the session with it)"""
    a = steps.Ui(app_name=name)
    P = a.pyatspi
    field = a.wait(lambda n: n.getRole() == P.ROLE_PASSWORD_TEXT and a.showing(n), 20,
                   f'the password field of {name}')
    log(f'{name}: the password dialog is showing')
    if DESKTOP is not None:
        DESKTOP.agent_ui = a
    if DESKTOP is not None and DESKTOP.shot and not DESKTOP.shot_taken:
        time.sleep(1)   # its first frame drawn and composited
        DESKTOP.screenshot(DESKTOP.shot)
    return a, field


def type_password(d, field, password):
    """types @password into the field, as a user does, and Return (X11) or the dialog's
    Authenticate button (labwc: wtype's Return, as -k Return, -P/-p Return or a newline
    in the text, reaches the dialog (WAYLAND_DEBUG shows its wl_keyboard.key press and
    release) but does not activate mate-polkit's default button, while the text arrives
    whole, which is checked first; the cause is not found: labwc sends each wtype's own
    small keymap before its keys, which a real keyboard never does)"""
    field.queryComponent().grabFocus()
    time.sleep(0.3)
    d.type(password)
    if d.kind == 'labwc':
        time.sleep(0.3)
        n = field.queryText().characterCount
        if n != len(password):
            raise AssertionError(f'the password field holds {n} characters after typing '
                                 f'{len(password)} through labwc\'s virtual keyboard')
        d.agent_ui.click('Authenticate')
    else:
        subprocess.run(['xdotool', 'key', 'Return'], env=d.env, check=True, timeout=20)
    log('typed a password')


DESKTOP = None


if __name__ == '__main__':
    try:
        main()
    except AssertionError as e:
        print(f'FAIL: {e}', file=sys.stderr, flush=True)
        sys.exit(1)
