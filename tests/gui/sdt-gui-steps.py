#!/usr/bin/python3
"""sdt-gui-steps.py STEP... - drive the running sd-tuner window over AT-SPI (pyatspi).

Run by sdtgui.Session.steps() as the app's own user, with DISPLAY and the session bus
of the test set. Steps, done in order; the first that fails ends it with exit status 1:
  wait-text REGEX        a showing label matching REGEX appears (60 s: what follows a
                         click may wait on polkit and an fsync under CI's load)
  wait-text-long REGEX   the same, 240 s (a benchmark or a check, on a loaded machine)
  no-text REGEX          no showing label matches REGEX
  wait-no-text REGEX     no showing label matches REGEX any more (20 s)
  page TITLE             press the stack-switcher button TITLE
  click NAME             press the push (or toggle) button NAME once it is sensitive
  absent NAME            no showing push button is called NAME
  insensitive NAME       the push button NAME shows but cannot be pressed
  value DESCRIPTION REGEX  the object with that accessible description has a name
                         (its text) matching REGEX
  progress NAME          the progress bar NAME shows a value above 0 (20 s)
  names                  every showing control has an accessible name
  marked                 under the pseudo-locale: no showing text (names, descriptions,
                         the text of text views, table cells, tooltips) has a run of
                         English words outside ⟦…⟧ and the allow-list of
                         tests/i18n/sdti18n.py; with $SDTUNER_PSEUDO_FINDINGS set, each
                         run is appended there (JSON lines) instead of failing, so one
                         test run reports them all ($SDTUNER_PSEUDO_MO: the catalogue
                         whose msgids add to the word list; $SDTUNER_PSEUDO_CONFIG: a
                         file of config.txt lines shown verbatim)
  where LABEL            names the place for the findings of the next marked steps
  layout WIDTH HEIGHT    no label is clipped (the app's SDTUNER_LAYOUT_REPORT, see
                         src/app/sdt-layout-report.c), and the window fits WIDTHxHEIGHT
  description NAME REGEX  the showing object called NAME has an accessible description
                         matching REGEX (charts describe their figures so)
  in-view REGEX          the button whose label matches REGEX is on screen without
                         scrolling (inside every scrolled window around it and the
                         window; the layout report's "in_view")
  wait-page TITLE        the stack-switcher button TITLE is checked (its page shows)
  focus NAME             keyboard only (X11): presses Tab until the control NAME has the
                         focus; fails on a trap or when NAME is not reached
  key KEY                types KEY (xdotool syntax, e.g. alt+2) into the window (X11)
  tab-walk               keyboard only (X11): presses Tab until the focus comes back to
                         where it started, then Shift+Tab the same way round; fails on a
                         trap (a press that does not move the focus, or a loop that never
                         comes back), on a showing, sensitive control with an action that
                         neither walk reaches, on a focus stop without an accessible
                         name, and when Shift+Tab does not visit the stops in reverse
"""
import json
import os
import re
import signal
import sys
import time

import subprocess

import pyatspi
from gi.repository import GLib


def log(*args):
    print('gui:', *args, flush=True)


class Ui:
    """The app's accessible tree, reached through pyatspi."""

    def __init__(self, app_name='sd-tuner', timeout=20):
        import pyatspi
        self.pyatspi = pyatspi
        desktop = pyatspi.Registry.getDesktop(0)
        deadline = time.time() + timeout
        self.root = None
        while time.time() < deadline:
            for a in desktop:
                if a is not None and a.name == app_name:
                    self.root = a
                    break
            if self.root is not None:
                break
            time.sleep(0.2)
        if self.root is None:
            raise AssertionError(f'{app_name} did not appear on the AT-SPI bus')

    def _walk(self, node):
        yield node
        # a node that went away during the walk (a page that rebuilds its list: the Cards
        # page does on every udev event, and the tests beside this one make loop devices)
        # has no children any more: its subtree is skipped, the next poll walks again
        try:
            n = node.childCount
        except GLib.Error:
            return
        for i in range(n):
            try:
                child = node.getChildAtIndex(i)
            except GLib.Error:
                return
            if child is not None:
                yield from self._walk(child)

    def find_all(self, pred):
        out = []
        for n in self._walk(self.root):
            try:
                if pred(n):
                    out.append(n)
            except Exception:   # a node that went away during the walk
                pass
        return out

    def showing(self, node):
        return node.getState().contains(self.pyatspi.STATE_SHOWING)

    def wait(self, pred, timeout, what):
        deadline = time.time() + timeout
        while time.time() < deadline:
            found = self.find_all(pred)
            if found:
                return found[0]
            time.sleep(0.25)
        raise AssertionError(f'timed out after {timeout} s waiting for {what}')

    def wait_text(self, pattern, timeout=60):
        """A showing label whose text matches the regular expression @pattern."""
        rx = re.compile(pattern, re.S)
        return self.wait(lambda n: n.getRole() == self.pyatspi.ROLE_LABEL and self.showing(n)
                         and rx.search(n.name or ''), timeout, f'a label matching {pattern!r}')

    def has_text(self, pattern):
        rx = re.compile(pattern, re.S)
        return bool(self.find_all(lambda n: n.getRole() == self.pyatspi.ROLE_LABEL and
                                  self.showing(n) and rx.search(n.name or '')))

    def button(self, name, timeout=10, roles=None):
        roles = roles or (self.pyatspi.ROLE_PUSH_BUTTON,)
        return self.wait(lambda n: n.getRole() in roles and n.name == name and self.showing(n),
                         timeout, f'button {name!r}')

    def click(self, name, timeout=10):
        # a push button, or a toggle button such as an expander ("Compare with the run before")
        b = self.button(name, timeout, roles=(self.pyatspi.ROLE_PUSH_BUTTON,
                                              self.pyatspi.ROLE_TOGGLE_BUTTON))
        self.wait(lambda n: n == b and b.getState().contains(self.pyatspi.STATE_SENSITIVE),
                  timeout, f'button {name!r} to be sensitive')
        b.queryAction().doAction(0)
        log('clicked', repr(name))

    def show_page(self, title):
        """Clicks a page's button in the header bar's stack switcher."""
        b = self.button(title, roles=(self.pyatspi.ROLE_RADIO_BUTTON,
                                      self.pyatspi.ROLE_TOGGLE_BUTTON,
                                      self.pyatspi.ROLE_PUSH_BUTTON))
        b.queryAction().doAction(0)
        log('page', repr(title))
        time.sleep(0.4)

    def by_description(self, description, timeout=10):
        return self.wait(lambda n: n.description == description and self.showing(n), timeout,
                         f'an object described as {description!r}')

    def unnamed_controls(self):
        """Focusable controls without an accessible name (should be none)."""
        P = self.pyatspi
        roles = {P.ROLE_PUSH_BUTTON, P.ROLE_TOGGLE_BUTTON, P.ROLE_RADIO_BUTTON,
                 P.ROLE_COMBO_BOX, P.ROLE_CHECK_BOX, P.ROLE_TEXT, P.ROLE_PROGRESS_BAR,
                 P.ROLE_LEVEL_BAR, P.ROLE_CHART}
        return [n for n in self.find_all(lambda n: n.getRole() in roles and self.showing(n))
                if not (n.name or '').strip()]




def showing_texts(ui):
    """(role, text) of every showing object with text: its name, its description (GTK
    gives a tooltip as the description) and, for text views, their text"""
    out = []
    for node in ui.find_all(lambda n: ui.showing(n)):
        texts = [node.name or '', node.description or '']
        if node.getRole() in (ui.pyatspi.ROLE_TEXT, ui.pyatspi.ROLE_TERMINAL):
            try:
                t = node.queryText()
                texts.append(t.getText(0, t.characterCount))
            except NotImplementedError:
                pass
        out += [(node.getRoleName(), t) for t in texts if t]
    return out


def describe(node):
    if node is None:
        return 'a control that AT-SPI does not show as focused'
    try:
        return f'{node.getRoleName()} {node.name!r}'
    except Exception:
        return 'an object that went away'


def has_action(node):
    try:
        return node.queryAction().nActions > 0
    except NotImplementedError:
        return False


def window_id():
    out = subprocess.run(['xdotool', 'search', '--sync', '--onlyvisible', '--name', '^SD Tuner$'],
                         capture_output=True, text=True, timeout=20).stdout.split()
    if not out:
        raise AssertionError('no SD Tuner window on the display')
    return out[0]


def press(key):
    """a real key press through the X server (XTEST), into the focused window"""
    subprocess.run(['xdotool', 'windowfocus', '--sync', window_id()], check=True, timeout=20)
    subprocess.run(['xdotool', 'key', '--clearmodifiers', key], check=True, timeout=20)


class FocusWatch:
    """the focus as the app reports it to AT-SPI (object:state-changed:focused)"""

    def __init__(self):
        self.events = []
        pyatspi.Registry.registerEventListener(self._on_event, 'object:state-changed:focused')
        self.pump(0.5)   # the app's bridge learns of the listener, then reports to it

    def _on_event(self, event):
        self.events.append((event.detail1, event.source))

    def pump(self, seconds):
        ctx = GLib.MainContext.default()
        deadline = time.time() + seconds
        while time.time() < deadline:
            while ctx.iteration(False):
                pass
            time.sleep(0.01)

    def after(self, key, timeout=1.5):
        """presses @key; returns the object focused after it, or None when the focus did
        not move (no focus event came)"""
        self.pump(0.05)
        self.events = []
        press(key)
        ctx = GLib.MainContext.default()
        deadline = time.time() + timeout
        while time.time() < deadline and not self.events:
            while ctx.iteration(False):
                pass
            time.sleep(0.01)
        if not self.events:
            return None
        self.pump(0.2)   # the rest of the change: focus-out, then focus-in
        gained = [src for on, src in self.events if on]
        return gained[-1] if gained else 'none'


def focused_now(ui):
    P = ui.pyatspi
    found = ui.find_all(lambda n: n.getState().contains(P.STATE_FOCUSED))
    return found[-1] if found else None


def walk(ui, watch, key, limit=60):
    """presses @key until the focus comes back to its first stop; returns the stops"""
    stops = []
    prev = None
    for _ in range(limit):
        cur = watch.after(key)
        if cur is None:
            raise AssertionError(f'keyboard trap: {key} does not move the focus from '
                                 f'{describe(prev or focused_now(ui))} (after {len(stops)} '
                                 f'stops: {", ".join(describe(n) for n in stops)})')
        if cur == 'none':   # off the end of the window's chain: the next press wraps
            prev = None
            continue
        if stops and cur == stops[0]:
            return stops
        if cur in stops:
            raise AssertionError(f'keyboard trap: {key} goes round '
                                 f'{", ".join(describe(n) for n in stops[stops.index(cur):])} '
                                 f'and never back to {describe(stops[0])}')
        log(key, '->', describe(cur))
        stops.append(cur)
        prev = cur
    raise AssertionError(f'{key} did not come back to {describe(stops[0])} in {limit} presses')


def tab_to(ui, watch, name, limit=40):
    """presses Tab until the control called @name has the focus"""
    prev = None
    for _ in range(limit):
        cur = watch.after('Tab')
        if cur is None:
            raise AssertionError(f'keyboard trap: Tab does not move the focus from '
                                 f'{describe(prev or focused_now(ui))} on the way to {name!r}')
        if cur != 'none' and cur.name == name:
            log('focus on', describe(cur))
            return cur
        prev = None if cur == 'none' else cur
    raise AssertionError(f'Tab did not reach {name!r} in {limit} presses')


def tab_walk(ui, watch):
    P = ui.pyatspi
    forward = walk(ui, watch, 'Tab')
    backward = walk(ui, watch, 'shift+Tab')
    problems = []
    # Shift+Tab visits the same stops the other way round (from wherever it started)
    if set(backward) != set(forward):
        problems.append('Tab and Shift+Tab stop at different controls: Tab only: ' +
                        ', '.join(describe(n) for n in forward if n not in backward) +
                        '; Shift+Tab only: ' +
                        ', '.join(describe(n) for n in backward if n not in forward))
    else:
        rev = list(reversed(forward))
        i = rev.index(backward[0])
        if backward != rev[i:] + rev[:i]:
            problems.append('Shift+Tab does not go back the way Tab came: Tab: ' +
                            ', '.join(describe(n) for n in forward) + '; Shift+Tab: ' +
                            ', '.join(describe(n) for n in backward))
    for n in forward:
        if not (n.name or '').strip():
            problems.append(f'the focus stop {describe(n)} in {describe(n.parent)} has no '
                            f'accessible name')

    def wanted(n):
        st = n.getState()
        return (st.contains(P.STATE_SHOWING) and st.contains(P.STATE_SENSITIVE) and
                st.contains(P.STATE_FOCUSABLE) and has_action(n))
    for n in ui.find_all(wanted):
        if n not in forward:
            problems.append(f'{describe(n)} has an action but Tab never reaches it')
    if problems:
        raise AssertionError('\n  '.join(['the keyboard walk:'] + problems))
    log(f'Tab and Shift+Tab reach all {len(forward)} stops: ' +
        ', '.join(describe(n) for n in forward))


def unnamed_focusable(ui):
    """every showing object that can take the focus, whatever its role, without a name"""
    P = ui.pyatspi
    return [n for n in ui.find_all(lambda n: n.getState().contains(P.STATE_SHOWING) and
                                   n.getState().contains(P.STATE_FOCUSABLE))
            if not (n.name or '').strip()]


def english_texts(ui):
    """(role, line, run) of every run of English words in showing text"""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'i18n'))
    import sdti18n
    words = sdti18n.english_words(os.environ.get('SDTUNER_PSEUDO_MO'))
    config = set()
    if os.environ.get('SDTUNER_PSEUDO_CONFIG'):
        with open(os.environ['SDTUNER_PSEUDO_CONFIG']) as f:
            config = {line.strip() for line in f if line.strip()}
    bad = []
    for role, text in showing_texts(ui):
        for line in text.splitlines():
            for run in sdti18n.english_runs(line, words, config):
                bad.append((role, line, run))
    return bad


def layout_report(ui):
    """asks the app for its layout report (SIGUSR1): a list of windows"""
    path = os.environ['SDTUNER_LAYOUT_REPORT']
    if os.path.exists(path):
        os.unlink(path)
    os.kill(ui.root.get_process_id(), signal.SIGUSR1)
    deadline = time.time() + 10
    while not os.path.exists(path):
        if time.time() > deadline:
            raise AssertionError('the app wrote no layout report')
        time.sleep(0.1)
    with open(path) as f:
        return json.load(f)


def button_in_view(ui, pattern):
    """the labels of showing buttons matching @pattern; fails unless all are in view"""
    rx = re.compile(pattern)
    found = [lb for w in layout_report(ui) for lb in w['labels']
             if lb['button'] and rx.search(lb['text'])]
    if not found:
        raise AssertionError(f'no button label matches {pattern!r}')
    for lb in found:
        if not lb['in_view']:
            raise AssertionError(f'button {lb["text"]!r} at {lb["x"]},{lb["y"]} '
                                 f'({lb["width"]}x{lb["height"]}) is not in view without scrolling')
    return found


def layout_problems(ui, width, height):
    """asks the app for its layout report (SIGUSR1) and returns what is clipped"""
    windows = layout_report(ui)
    problems = []
    for w in windows:
        if w['window_width'] > width or w['window_height'] > height:
            problems.append(f'the window needs {w["window_width"]}x{w["window_height"]}, '
                            f'more than {width}x{height}')
            # the widest labels, to say which text forces the width
            widest = sorted(w['labels'], key=lambda lb: lb['min_width'] if lb['wrap']
                            else lb['natural_width'], reverse=True)[:3]
            for lb in widest:
                problems.append(f'  widest: {lb["text"][:60]!r} (wrap={lb["wrap"]}, min '
                                f'{lb["min_width"]}, natural {lb["natural_width"]})')
        for lb in w['labels']:
            what = f'{lb["text"][:60]!r} ({lb["width"]}x{lb["height"]} at {lb["x"]},{lb["y"]})'
            if not lb['wrap'] and lb['width'] < lb['natural_width']:
                problems.append(f'{what}: narrower than its natural width {lb["natural_width"]}')
            if lb['wrap'] and (lb['width'] < lb['min_width'] or
                               lb['height'] < lb['height_for_width']):
                problems.append(f'{what}: wrapped, needs {lb["min_width"]} wide and '
                                f'{lb["height_for_width"]} high')
            if not lb['scrolled'] and (lb['x'] < 0 or lb['x'] + lb['width'] > w['window_width']
                                       or lb['y'] + lb['height'] > w['window_height']):
                problems.append(f'{what}: outside the {w["window_width"]}x{w["window_height"]} '
                                f'window')
    return problems, sum(len(w['labels']) for w in windows)


def main(argv):
    ui = Ui()
    watch = None
    walk_problems = []
    page_shown = 'the window'
    i = 0
    where = 'window'
    while i < len(argv):
        step = argv[i]
        if step in ('wait-text', 'wait-text-long'):
            n = ui.wait_text(argv[i + 1], timeout=240 if step == 'wait-text-long' else 60)
            log('text:', repr(n.name[:120]))
            i += 2
        elif step == 'no-text':
            if ui.has_text(argv[i + 1]):
                raise AssertionError(f'a label matches {argv[i + 1]!r}')
            log('no text', repr(argv[i + 1]))
            i += 2
        elif step == 'wait-no-text':
            end = time.monotonic() + 20
            while ui.has_text(argv[i + 1]):
                if time.monotonic() > end:
                    raise AssertionError(f'a label still matches {argv[i + 1]!r} after 20 s')
                time.sleep(0.2)
            log('gone', repr(argv[i + 1]))
            i += 2
        elif step == 'page':
            ui.show_page(argv[i + 1])
            i += 2
        elif step == 'click':
            ui.click(argv[i + 1])
            i += 2
        elif step == 'absent':
            P = ui.pyatspi
            if ui.find_all(lambda n: n.getRole() == P.ROLE_PUSH_BUTTON and
                           n.name == argv[i + 1] and ui.showing(n)):
                raise AssertionError(f'button {argv[i + 1]!r} is showing')
            log('absent', repr(argv[i + 1]))
            i += 2
        elif step == 'insensitive':
            b = ui.button(argv[i + 1])
            if b.getState().contains(ui.pyatspi.STATE_SENSITIVE):
                raise AssertionError(f'button {argv[i + 1]!r} can be pressed')
            log('insensitive', repr(argv[i + 1]))
            i += 2
        elif step == 'value':
            n = ui.by_description(argv[i + 1])
            if not re.search(argv[i + 2], n.name or ''):
                raise AssertionError(f'{argv[i + 1]!r} shows {n.name!r}')
            log('value', repr(argv[i + 1]), '=', repr(n.name))
            i += 3
        elif step == 'progress':
            P = ui.pyatspi
            bar = ui.wait(lambda n: n.getRole() == P.ROLE_PROGRESS_BAR and n.name == argv[i + 1],
                          10, f'progress bar {argv[i + 1]!r}')
            ui.wait(lambda n: n == bar and bar.queryValue().currentValue > 0, 20,
                    f'progress in {argv[i + 1]!r}')
            log('progress', bar.queryValue().currentValue)
            i += 2
        elif step == 'names':
            unnamed = ui.unnamed_controls()
            if unnamed:
                raise AssertionError('controls without a name: ' + ', '.join(
                    f'{n.getRoleName()} in {n.parent.getRoleName() if n.parent else None}'
                    for n in unnamed))
            log('every showing control has a name')
            i += 1
        elif step == 'where':
            where = argv[i + 1]
            i += 2
        elif step == 'marked':
            time.sleep(0.5)   # let pending relabelling land
            bad = english_texts(ui)
            out = os.environ.get('SDTUNER_PSEUDO_FINDINGS')
            if out:
                with open(out, 'a') as f:
                    f.write(json.dumps({'where': where, 'texts': len(showing_texts(ui)),
                                        'runs': bad}) + '\n')
                log(f'{where}: {len(bad)} runs of English')
            elif bad:
                raise AssertionError('English outside the pseudo-locale markers:\n' + '\n'.join(
                    f'  {role}: {line!r} -> {run!r}' for role, line, run in bad))
            else:
                log('every showing text is marked')
            i += 1
        elif step == 'layout':
            time.sleep(0.5)
            problems, count = layout_problems(ui, int(argv[i + 1]), int(argv[i + 2]))
            if problems:
                raise AssertionError('clipped at %sx%s:\n  ' % (argv[i + 1], argv[i + 2]) +
                                     '\n  '.join(problems))
            log(f'none of {count} labels is clipped at {argv[i + 1]}x{argv[i + 2]}')
            i += 3
        elif step == 'description':
            rx = re.compile(argv[i + 2], re.S)
            n = ui.wait(lambda n: n.name == argv[i + 1] and ui.showing(n) and
                        rx.search(n.description or ''), 20,
                        f'{argv[i + 1]!r} described as {argv[i + 2]!r}')
            log('description', repr(argv[i + 1]), '=', repr(n.description[:200]))
            i += 3
        elif step == 'in-view':
            time.sleep(0.5)
            for lb in button_in_view(ui, argv[i + 1]):
                log(f'in view: {lb["text"]!r} at {lb["x"]},{lb["y"]}')
            i += 2
        elif step == 'key':
            press(argv[i + 1])
            log('key', argv[i + 1])
            time.sleep(0.4)
            i += 2
        elif step == 'wait-page':
            P = ui.pyatspi
            ui.wait(lambda n: n.name == argv[i + 1] and ui.showing(n) and
                    n.getRole() in (P.ROLE_RADIO_BUTTON, P.ROLE_TOGGLE_BUTTON) and
                    n.getState().contains(P.STATE_CHECKED), 10, f'page {argv[i + 1]!r}')
            log('page', repr(argv[i + 1]), 'shows')
            page_shown = argv[i + 1]
            time.sleep(0.3)
            i += 2
        elif step == 'focus':
            if watch is None:
                watch = FocusWatch()
            tab_to(ui, watch, argv[i + 1])
            i += 2
        elif step == 'tab-walk':
            # every page is walked; what is wrong on each is said at the end
            if watch is None:
                watch = FocusWatch()
            try:
                tab_walk(ui, watch)
            except AssertionError as e:
                walk_problems.append(f'{page_shown}: {e}')
                log('FAILED:', walk_problems[-1])
            unnamed = unnamed_focusable(ui)
            if unnamed:
                walk_problems.append(f'{page_shown}: focusable without an accessible name: ' +
                                     ', '.join(f'{describe(n)} in {describe(n.parent)}'
                                               for n in unnamed))
                log('FAILED:', walk_problems[-1])
            i += 1
        else:
            raise SystemExit(f'unknown step {step!r}')
    if walk_problems:
        raise AssertionError('\n'.join(walk_problems))


if __name__ == '__main__':
    try:
        main(sys.argv[1:])
    except AssertionError as e:
        print(f'FAIL: {e}', file=sys.stderr, flush=True)
        sys.exit(1)
