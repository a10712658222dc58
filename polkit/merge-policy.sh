#!/bin/sh
# merge-policy.sh MSGFMT TEMPLATE PODIR OUTPUT - the polkit .policy with the
# translations of PODIR merged in by `msgfmt --xml` (gettext's polkit ITS rules).
# gettext 0.22 and later (Debian 13) write xml:lang as a BCP 47 tag
# ("zh-Hans-CN"), which polkitd never matches with a locale (for zh_CN.UTF-8 it
# tries "zh_CN", then "zh"): such tags go back to the catalogue's name, ll_CC,
# as gettext 0.21 (Debian 12) wrote them.
set -eu
"$1" --xml --template="$2" -d "$3" -o "$4.tmp"
sed -E 's/xml:lang="([a-z]{2,3})(-[A-Z][a-z]{3})?-([A-Z]{2})"/xml:lang="\1_\3"/g' "$4.tmp" >"$4"
rm -f "$4.tmp"
