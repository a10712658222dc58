#!/bin/sh
# check-format.sh SRCDIR - every C file of the project is clang-format clean
# (the style is .clang-format at the top of the tree).
set -eu
cd "$1"
bad=0
n=0
for f in $(find src tests -name '*.[ch]' | sort); do
  n=$((n + 1))
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not clang-format clean: $f (run: clang-format -i $f)"
    bad=$((bad + 1))
  fi
done
echo "$n files checked, $bad not clean"
[ "$bad" -eq 0 ] && [ "$n" -gt 0 ]
