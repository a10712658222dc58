#!/bin/sh
# make-pseudo.sh SRCROOT OUT.mo XGETTEXT-ARG... - the pseudo-locale "qps" catalogue
# for the marking tests: a pot extracted afresh from po/POTFILES.in (so a string added
# today is in it), every msgstr the English text wrapped in ⟦…⟧ (leading and
# trailing line breaks stay outside, placeholders stay as they are).
set -eu
src=$1 out=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
xgettext "$@" --files-from="$src/po/POTFILES.in" --directory="$src" -o "$tmp/fresh.pot"
msgen --no-wrap -o "$tmp/en.po" "$tmp/fresh.pot"
msgfilter --keep-header --no-wrap -i "$tmp/en.po" -o "$tmp/qps.po" \
  sed -z -e 's/^\(\n*\)\(.*[^\n]\)\(\n*\)$/\1⟦\2⟧\3/'
sed -i -e 's/^"Plural-Forms: .*/"Plural-Forms: nplurals=2; plural=(n != 1);\\n"/' \
  -e 's/^"Language: .*/"Language: qps\\n"/' "$tmp/qps.po"
mkdir -p "$(dirname "$out")"
msgfmt --check-format -o "$out" "$tmp/qps.po"
