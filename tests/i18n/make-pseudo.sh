#!/bin/sh
# make-pseudo.sh [--pieces] SRCROOT OUT.mo XGETTEXT-ARG... - the pseudo-locale "qps"
# catalogue for the marking tests: a pot extracted afresh from po/POTFILES.in (so a
# string added today is in it), every msgstr the English text wrapped in ⟦…⟧ (leading
# and trailing line breaks stay outside, placeholders stay as they are).
# --pieces: each literal piece of the msgstr wrapped instead, the text between
# placeholders and line breaks that holds a letter. Placeholders (%s, %2$d, %<PRIu64>)
# then stay outside the markers, so a value filled in at run time (an untranslated
# sentence from the helper, a raw id) stands outside them too, where the tests see it
# (tests/i18n/test-pseudo-cli.py, tests/gui/test-gui-pseudo.py); "%%" stays inside:
#   "The trial of %s is ready.\nRestart" -> "⟦The trial of ⟧%s⟦ is ready.⟧\n⟦Restart⟧"
set -eu
pieces=false
if [ "$1" = --pieces ]; then pieces=true; shift; fi
src=$1 out=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
xgettext "$@" --files-from="$src/po/POTFILES.in" --directory="$src" -o "$tmp/fresh.pot"
msgen --no-wrap -o "$tmp/en.po" "$tmp/fresh.pot"
if $pieces; then
  # \x01…\x02 around each placeholder and \x03 for %% while the pieces are wrapped
  cat >"$tmp/wrap.sed" <<'EOF'
s/%%/\x03/g
s/(%([0-9]+\$)?[-+#0']*([0-9]+|\*)?(\.([0-9]+|\*))?(hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcsp]|%<PRI[a-zA-Z0-9]+>)/\x01\1\x02/g
s/(^|\x02|\n)([^\x01\n]*[[:alpha:]][^\x01\n]*)/\1⟦\2⟧/g
s/[\x01\x02]//g
s/\x03/%%/g
EOF
  LC_ALL=C.UTF-8 msgfilter --keep-header --no-wrap -i "$tmp/en.po" -o "$tmp/qps.po" \
    sed -E -z -f "$tmp/wrap.sed"
else
  msgfilter --keep-header --no-wrap -i "$tmp/en.po" -o "$tmp/qps.po" \
    sed -z -e 's/^\(\n*\)\(.*[^\n]\)\(\n*\)$/\1⟦\2⟧\3/'
fi
sed -i -e 's/^"Plural-Forms: .*/"Plural-Forms: nplurals=2; plural=(n != 1);\\n"/' \
  -e 's/^"Language: .*/"Language: qps\\n"/' "$tmp/qps.po"
mkdir -p "$(dirname "$out")"
msgfmt --check-format -o "$out" "$tmp/qps.po"
