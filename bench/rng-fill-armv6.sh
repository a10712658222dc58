#!/bin/bash
# rng-fill-armv6.sh - what the benchmark's write data costs a Pi Zero's core: the engine's
# fill (src/bench/sdt-bench-rng.c) cross-built for ARMv6 + VFP, hard float (Raspberry Pi
# OS armhf: no NEON), run under qemu-arm one instruction per block, the instructions
# counted per 8 bytes of data, beside the same count for x86-64's build under the same
# counter's rules (the vector path).  Needs gcc-arm-linux-gnueabihf and qemu-user-static.
# Figures: docs/BENCHMARK-ENGINE.md "On emulated real kernels".
#
# Usage: bench/rng-fill-armv6.sh
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# glib's few names the file uses (the armhf glib headers are not on a build host)
cat > "$W/glib.h" <<'H'
#include <stddef.h>
#include <stdint.h>
typedef uint64_t guint64; typedef uint32_t guint32; typedef uint8_t guint8;
typedef size_t gsize; typedef unsigned int guint; typedef int gint; typedef void *gpointer;
#define G_GUINT64_CONSTANT(x) (x##ULL)
#define G_MAXUINT32 0xffffffffu
#define GLIB_SIZEOF_VOID_P __SIZEOF_POINTER__
#define G_BEGIN_DECLS
#define G_END_DECLS
H
: > "$W/config.h"
cat > "$W/main.c" <<'C'
#include "sdt-bench-rng.h"
static unsigned char buf[(NBYTES) + 16];
int main(void) {
	SdtBenchRng rng;
	sdt_bench_rng_init(&rng, 1);
	if (NBYTES)
		sdt_bench_rng_fill(&rng, buf, NBYTES);
	return buf[1] == 0 && buf[2] == 0;
}
C
count() { # ARCH-TRIPLE QEMU CFLAGS...: instructions per 8 bytes, a 64 KiB fill less an empty run
  local cc=$1 qemu=$2; shift 2
  local n
  for n in 0 65536; do
    "$cc" -O2 "$@" -DNBYTES=$n -I"$W" -I"$TOP/src/bench" -static -o "$W/fill-$n" \
      "$W/main.c" "$TOP/src/bench/sdt-bench-rng.c"
    "$qemu" -singlestep -d nochain,exec -D "$W/log-$n" "$W/fill-$n" || true
  done
  python3 -c "import sys; a, b = (sum(1 for l in open(p) if l.startswith('Trace')) for p in sys.argv[1:]); print(f'{(b - a) / 8192:.1f}')" \
    "$W/log-0" "$W/log-65536"
}
arm=$(count arm-linux-gnueabihf-gcc qemu-arm-static -marm -march=armv6kz+fp -mfpu=vfp -mfloat-abi=hard)
x86=$(count gcc qemu-x86_64-static)
echo "write data: $arm instructions per 8 bytes on ARMv6 (no NEON), $x86 on x86-64 (SSE2)"
