# SPDX-License-Identifier: GPL-2.0-or-later
"""sdti18n.py - shared pieces of the translation tests (tests/i18n, tests/gui).

- locales(): de_DE.UTF-8 and ja_JP.UTF-8 compiled with localedef into a private folder
  (LOCPATH), so the tests need no system-wide locale and change nothing on the machine;
- the English detector for the pseudo-locale "qps" (every literal piece of every msgstr
  wrapped in ⟦…⟧, make-pseudo.sh --pieces): english_runs(text) gives each run of two or more
  English words outside the markers that is not on the short allow-list ALLOWED (names,
  paths, config.txt lines, quoted kernel messages, command syntax) nor a text of the
  libraries' own catalogues; self_test() proves it finds planted English and passes the
  allowed kinds."""
import os
import re
import shutil
import subprocess
import tempfile

_LOCPATH = None


def locales(names=('de_DE', 'ja_JP')):
    """LOCPATH with NAME.UTF-8 for each name, compiled once per process; None (and the
    reason) when localedef or the locale sources are missing."""
    global _LOCPATH
    if _LOCPATH is None:
        if shutil.which('localedef') is None or not os.path.isdir('/usr/share/i18n/locales'):
            return None, 'localedef or /usr/share/i18n/locales is missing (package locales)'
        _LOCPATH = tempfile.mkdtemp(prefix='sdt-locales-')
        os.chmod(_LOCPATH, 0o755)
    for name in names:
        out = os.path.join(_LOCPATH, f'{name}.UTF-8')
        if os.path.isdir(out):
            continue
        r = subprocess.run(['localedef', '--no-archive', '-i', name, '-f', 'UTF-8', out],
                           capture_output=True, text=True)
        # localedef warns (exit 1) on some locale sources but still writes them
        if not os.path.exists(os.path.join(out, 'LC_CTYPE')):
            return None, f'localedef {name}.UTF-8 failed: {r.stderr.strip()}'
    return _LOCPATH, None


def cleanup():
    if _LOCPATH is not None:
        shutil.rmtree(_LOCPATH, ignore_errors=True)


MARK_OPEN, MARK_CLOSE = '⟦', '⟧'

# ---- the English detector ---------------------------------------------------------------
# Under "qps" as make-pseudo.sh --pieces builds it, every literal piece of every msgstr is
# wrapped in ⟦…⟧ and the values filled into placeholders stand outside (under the plain
# "qps", whole msgstrs, values inside). English on screen is then a run of two or
# more English words outside the markers: a string printed without _(), a sentence the
# helper sent that nobody translated, a sentence glued from pieces. Single words are not
# counted (a raw id like "prepare" or "Error" from GTK's own catalogue); numbers and units
# between words do not break a run ("Checked 42 blocks"); identifiers (mmcblk0,
# sd_overclock, seq-read-4k) and the markers do.
#
# English words: /usr/share/dict/words (package wamerican, tools/deps.sh test) together
# with every word of the catalogue's own msgids, which is what English left on screen is
# made of (an unmarked string shares the program's vocabulary; the dictionary catches
# the words it does not). Single letters count only as "a" and "I" ("Model B" is no run).

DICT = '/usr/share/dict/words'

# what may stand outside the markers even when it reads as English words: data, not
# words of the program. Each is removed (and breaks a run) before words are counted.
ALLOWED = [
    # the product's name: not translated (po/ keeps it in every language)
    r'SD Tuner',
    # board models: the device tree's model string (data/sim, tests/data/roots), shown as read
    r'Raspberry Pi(?: (?:Compute|Module|Model|Zero|Plus|Rev|W|[0-9][\w.]*|[A-Z]\+?))*',
    # polkit action ids (org.example.sdtuner.benchmark): names an administrator types into a
    # polkit rule or pkaction, shown with the refusal so that the rule can be written
    r'org\.example\.sdtuner(?:\.[\w-]+)*',
    # the helper's D-Bus name (org.example.SdTuner1), named when the bus cannot start it
    r'org\.example\.SdTuner1',
    # two-word brand names of the manufacturer table (src/platform/sdt-card-regs.c)
    r'Western Digital|Silicon Power|Team Group',
    # paths: /boot/firmware/config.txt, ~/.cache/…, ./x, a/boot/… of a diff's header
    r'(?<![\w/])(?:~|\.{1,2}|[ab](?=/))?/[\w.+@:%-]+(?:/[\w.+@:%-]*)*',
    # config.txt lines and filters: dtparam=sd_overclock=100, [all], [board-type=0x08]
    r'(?<![\w-])[a-z][a-z0-9_]*=[^\s⟦⟧]*', r'\[[\w=.,-]+\]',
    # SD Tuner's marker lines in config.txt (fixed English in the file, by design: a
    # config.txt line, read back by the program; docs/DESIGN.md)
    r'#\s*--- SD Tuner (?:begin|end)\b[^⟦⟧\n]*?---',
    # a kernel message quoted as evidence: “mmc0: reducing overclock due to errors”
    r'[“"‘](?:\s*(?:mmc\d+|mmcblk\d+\w*|sdhci[\w-]*|sdhost[\w-]*|EXT4-fs|I/O error|'
    r'Buffer I/O error|blk_update_request|print_req_error|Booting Linux)\b[^”"’\n]*)[”"’]',
    # command lines to type: the program's name (also as the prefix of its error lines),
    # its commands and options, and the commands it tells the user to run (sudo reboot …)
    r"(?:sudo )?sdtunerctl(?: (?:[a-z][\w-]*|--?[\w-]+(?:=\S*)?|'[^']*'))*", r'sd-tuner-helper',
    r"sudo [a-z][\w-]*(?: (?:[\w/.-]+|'[^']*'))*",
    # command-line syntax in --help: [--profile quick|standard|full|soak], --dir DIR, ID
    r'\[[^\]⟦⟧]*\]', r'(?<!\w)--?[\w-]+', r'\b(?:ID|DIR|FILE|OPTION|COMMAND|SECONDS|MIB)\b',
]
_ALLOWED_RX = re.compile('|'.join(f'(?:{a})' for a in ALLOWED))
_TOKEN = re.compile(r"[\w'’-]+")
# what may stand between two words of a run: spaces, sentence punctuation, numbers, units
_GAP = re.compile(r'(?:[\s,;:.!?()"“”‘’«»…–—*/]|\d[\d.,]*|%|±|×|µs|MB/s|MHz|GiB|MiB|KiB|GB|MB|kB)*')
_WORDS = None
_OWN = ''        # the catalogue's msgids, one per line: what SD Tuner itself says
_FOREIGN = None  # the msgids of the libraries' own catalogues (below)

# Text of the libraries SD Tuner builds on, shown inside its own sentences: the C library's
# error texts (strerror: "No such file or directory"), GLib's (option parser, file errors),
# json-glib's parse errors, GTK's own labels. Each is translated by that library's own
# catalogue in every real language (libc, glib20, json-glib-1.0, gtk30), none of which has
# "qps". A run is taken as theirs when each of its clauses is a piece of one of their msgids
# and it is no piece of SD Tuner's own.
FOREIGN_DOMAINS = ('libc', 'glib20', 'json-glib-1.0', 'gtk30')


def foreign_text():
    global _FOREIGN
    if _FOREIGN is None:
        import gettext
        import glob
        texts = []
        for domain in FOREIGN_DOMAINS:
            for lang in ('de', 'ja', 'fr', '*'):
                found = sorted(glob.glob(f'/usr/share/locale/{lang}/LC_MESSAGES/{domain}.mo'))
                if found:
                    with open(found[0], 'rb') as f:
                        cat = gettext.GNUTranslations(f)._catalog
                    texts += [k[0] if isinstance(k, tuple) else k for k in cat]
                    break
        _FOREIGN = '\n'.join(texts)
    return _FOREIGN


def foreign(run):
    """is @run (English words) a piece of the libraries' own catalogues, not SD Tuner's?"""
    if run in _OWN:
        return False
    clauses = [c.strip() for c in re.split(r'[:;,()“”"]', run) if re.search('[A-Za-z]{2}', c)]
    text = foreign_text()
    return bool(clauses) and all(c in text for c in clauses)


def english_words(mo_path=None):
    """the word set: the dictionary (when installed) and the words of @mo_path's msgids"""
    global _WORDS, _OWN
    if _WORDS is not None and mo_path is None:
        return _WORDS
    words = set()
    if os.path.exists(DICT):
        with open(DICT, encoding='utf-8', errors='replace') as f:
            words.update(w.strip().lower() for w in f if "'" not in w)
    if mo_path is not None:
        import gettext
        with open(mo_path, 'rb') as f:
            cat = gettext.GNUTranslations(f)._catalog
        _OWN = '\n'.join(k[0] if isinstance(k, tuple) else k for k in cat)
        for key, value in cat.items():
            for text in (key[0] if isinstance(key, tuple) else key, value):
                for w in re.findall(r'[A-Za-z]+', strip_marked(text)):
                    if not re.search(r'[a-z][A-Z]', w):   # not camelCase identifiers
                        words.add(w.lower())
    words -= {c for c in 'bcdefghjklmnopqrstuvwxyz'}
    _WORDS = words
    return words


def have_dictionary():
    return os.path.exists(DICT)


UNITS = {'MB', 'GB', 'TB', 'kB', 'KiB', 'MiB', 'GiB', 'TiB', 'MHz', 'kHz', 'Hz', 'IOPS',
         'ms', 'µs', 's', 'x'}


def _is_word(token, words):
    """True: an English word; False: another word; None: not a word (a number, a unit,
    an identifier such as mmcblk0, sd_overclock or seq-read)"""
    token = token.strip("'’")
    if not re.fullmatch(r"[A-Za-z]+(?:['’][A-Za-z]+)?", token) or token in UNITS:
        return None
    return re.split(r"['’]", token)[0].lower() in words   # don't -> don


def strip_marked(text):
    """@text with every ⟦…⟧ (nested too) removed"""
    prev = None
    while prev != text:
        prev = text
        text = re.sub(r'⟦[^⟦⟧]*⟧', '\0', text)
    return text


def english_runs(text, words=None, verbatim=(), data=()):
    """The runs of two or more English words in @text outside ⟦…⟧ and the allow-list:
    a list of strings, [] if none. @verbatim: lines shown as they are, never translated
    (config.txt lines, kernel messages): a line of @text that is one (also as a diff
    line), or a quoted “…” piece of one, is left out. @data: strings read from the
    machine and shown as read (the device tree's board model), left out wherever they
    stand."""
    words = english_words() if words is None else words
    runs = []
    for line in text.splitlines():
        bare = line.strip()
        if bare and (bare in verbatim or
                     (bare[:1] in '+- ' and bare[1:].strip() in verbatim)):
            continue
        rest = strip_marked(line).replace(MARK_OPEN, '\0').replace(MARK_CLOSE, '\0')
        for d in data:
            if d:
                rest = rest.replace(d, '\0')
        if verbatim:
            rest = re.sub(r'“([^”\0]*)”|"([^"\0]*)"',
                          lambda m: '\0' if any((m.group(1) or m.group(2) or '').strip() in v
                                                for v in verbatim) else m.group(), rest)
        rest = _ALLOWED_RX.sub('\0', rest)
        found, run, last_end = [], [], 0
        for m in _TOKEN.finditer(rest):
            w = _is_word(m.group(), words)
            if w is None and (re.fullmatch(r'\d[\d.,]*', m.group()) or m.group() in UNITS):
                continue   # a number or a unit: transparent
            gap_ok = run and _GAP.fullmatch(rest[last_end:m.start()]) is not None
            if w and (gap_ok or not run):
                run.append(m)
            else:
                if len(run) >= 2:
                    found.append(rest[run[0].start():run[-1].end()])
                run = [m] if w else []
            last_end = m.end()
        if len(run) >= 2:
            found.append(rest[run[0].start():run[-1].end()])
        runs += [r for r in found if not foreign(r)]
    return runs


def unmarked(text, verbatim=()):
    """' | '.join of english_runs(@text): '' if nothing English is left"""
    return ' | '.join(english_runs(text, verbatim=verbatim))


def self_test(words):
    """(name, passed, detail) of the detector's own checks: it catches planted English
    and lets the allowed kinds through"""
    cases = [
        # planted English: must be found
        ('a plain English sentence', 'The card is slower than it claims.', True),
        ('English beside marked text', '⟦Verdict:⟧ the card is fake', True),
        ('English filled into a marked sentence', '⟦The trial failed: ⟧cannot open the file⟦.⟧', True),
        ('a number inside an English run', 'Checked 42 blocks of the card', True),
        ('a sentence of pieces', '⟦Registers⟧: not plausible', True),
        ('English in capitals', 'VERDICT: FAKE CARD', True),
        ('English after a path', '/boot/firmware/config.txt could not be read', True),
        # the allowed kinds: must pass
        ('marked text', '⟦The card is slower than it claims.⟧', False),
        ('marked text with values', '⟦Read at ⟧22.5⟦ MB/s over ⟧mmcblk0⟦.⟧', False),
        ('a single raw word', '⟦Phase: ⟧prepare', False),
        ('the product name', '⟦Welcome to ⟧SD Tuner', False),
        ('a board model', '⟦Board: ⟧Raspberry Pi 3 Model B Plus Rev 1.3', False),
        ('a manufacturer', '⟦Maker: ⟧SanDisk/Western Digital', False),
        ('a path', '⟦Saved to ⟧/var/lib/sd-tuner/backup/config.txt.20261201', False),
        ('units', '⟦Speed: ⟧22.5 MB/s, 100 MHz, 7.40 GiB, 250 µs', False),
        ('a config.txt line', '  dtparam=sd_overclock=100', False),
        ('a config.txt filter', '[all] [board-type=0x08]', False),
        ('the SD Tuner marker line', '# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---', False),
        ('a quoted kernel message', '⟦The kernel said ⟧“mmc0: reducing overclock due to errors”', False),
        ('GLib --help heading', 'Help Options:', False),
        ('a command to type', '⟦Boot it once with: ⟧sudo reboot \'0 tryboot\'', False),
        ('command-line syntax', '  apply ID [--trial]     ⟦Write a recommendation into config.txt⟧', False),
        ('the C library\'s error text', '⟦Cannot open the file⟧: No such file or directory', False),
        ('GLib\'s option parser', 'sdtunerctl: Unknown option --bogus', False),
        ('an SD Tuner sentence is never foreign', 'The card has not been checked yet.', True),
    ]
    out = []
    for name, text, english in cases:
        found = english_runs(text, words)
        out.append((f'detector: {name}: {"found" if english else "allowed"}',
                    bool(found) == english, f'{text!r} -> {found!r}'))
    found = english_runs('+# Enable audio (loads snd_bcm2835)', words,
                         verbatim={'# Enable audio (loads snd_bcm2835)'})
    out.append(('detector: a config.txt line in a diff: allowed', not found, repr(found)))
    found = english_runs('⟦The kernel log shows ⟧“reducing overclock due to errors”', words,
                         verbatim={'mmc0: reducing overclock due to errors'})
    out.append(('detector: a quoted piece of a kernel line: allowed', not found, repr(found)))
    found = english_runs('⟦The kernel log shows ⟧“reducing overclock due to errors”', words)
    out.append(('detector: the same quote, no such kernel line: found', bool(found), repr(found)))
    return out
