#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# meson-test: vm-lost-irq suite=unit timeout=60 protocol=tap args={srcdir}
"""vm_boot (tests/vm/vmlib.sh) and the emulated SD controller's lost interrupt.

Under a loaded host QEMU's emulated sdhost can answer after the guest driver's 10 s: the
kernel prints "timeout waiting for hardware interrupt" and its retried read gets stale
data, so the card's root does not mount (CI: vm-armhf boot 2, "group descriptors
corrupted!"). vm_boot boots again when, and only when, that happened before the root was
mounted, on the card as it was before the failed boot: the failed mount may have written to
it (ext4 records its error in the superblock; in CI the retried boot found the superblock's
magic gone). QEMU cannot be made to lose an interrupt on demand, so a stand-in for it (a
script named as such, given as VM_QEMU) writes the consoles the real guest wrote, and, as
every real boot does, writes to its card.

usage: test-vm-lost-irq.py SRCDIR   (prints TAP)
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdttap import finish, ok  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
VMLIB = os.path.join(SRC, 'tests', 'vm', 'vmlib.sh')

LOST = ('[   53.264189] sdhost-bcm2835 3f202000.mmc: timeout waiting for hardware interrupt.\n'
        '[   57.511381] EXT4-fs (mmcblk0p2): group descriptors corrupted!\n')
NOT_MOUNTED = '### GUEST-FAILED mount mmcblk0p2\n'
SYSTEMD_NOT_MOUNTED = '### INITRAMFS: mounting the root failed\n'
DONE = '### running /etc/sdt/boot.sh\n### boot.sh exit status 0\n### GUEST-DONE (uptime 34.97)\n'
FAILED_LATE = '### running /etc/sdt/boot.sh\n### boot.sh exit status 1\n### GUEST-DONE\n'

# the stand-in QEMU: the Nth boot notes what its card (-drive file=IMG,...) holds in $SEEN,
# writes the Nth console of $CONSOLES (files) to the file of its -serial file:LOG argument,
# writes "boot N" to its card, and exits with 0
QEMU = r'''#!/bin/sh
n=$(($(cat "$COUNT" 2>/dev/null || echo 0) + 1))
echo "$n" >"$COUNT"
while [ $# -gt 0 ]; do
  case "$1" in
  -serial) log=${2#file:}; shift ;;
  -drive) img=${2#file=}; img=${img%%,*}; shift ;;
  esac
  shift
done
cat "$img" >>"$SEEN"
cp "$CONSOLES.$n" "$log"
echo "boot $n" >"$img"
'''


def boots(consoles):
    """vm_boot with the stand-in booting CONSOLES in turn: (rc, boots made, stderr, dir)"""
    work = tempfile.mkdtemp(prefix='sdt-vm-lost-irq-')
    qemu = os.path.join(work, 'qemu-stand-in')
    with open(qemu, 'w') as f:
        f.write(QEMU)
    os.chmod(qemu, 0o755)
    for i, text in enumerate(consoles, 1):
        with open(os.path.join(work, f'console.{i}'), 'w') as f:
            f.write(text)
    with open(os.path.join(work, 'card.img'), 'w') as f:
        f.write('the card\n')
    env = dict(os.environ, COUNT=os.path.join(work, 'count'),
               CONSOLES=os.path.join(work, 'console'), SEEN=os.path.join(work, 'seen'))
    script = (f'. "{VMLIB}"; VM_QEMU="{qemu}" VM_MACHINE=raspi2b; '
              f'vm_boot "{work}/boot.log" kernel dtb initrd "{work}/card.img"')
    r = subprocess.run(['bash', '-c', script], env=env, capture_output=True, text=True)
    with open(os.path.join(work, 'count')) as f:
        made = int(f.read())
    return r.returncode, made, r.stderr, work


def seen(work):
    """what each boot found on its card, in order"""
    with open(os.path.join(work, 'seen')) as f:
        return f.read().splitlines()


def card(work):
    with open(os.path.join(work, 'card.img')) as f:
        return f.read().strip()


def kept(work):
    return sorted(n for n in os.listdir(work) if n.startswith('boot.log.lost-irq-'))


def cleanup(work):
    subprocess.run(['rm', '-rf', work], check=True)


rc, made, err, work = boots([LOST + NOT_MOUNTED, DONE])
ok(rc == 0 and made == 2, 'a lost interrupt before the root mounted: the boot is made again',
   f'rc {rc}, {made} boots\n{err}')
ok(kept(work) == ['boot.log.lost-irq-1'] and 'GUEST-DONE' in open(f'{work}/boot.log').read(),
   'the first console is kept, the log is the second boot\'s', str(os.listdir(work)))
ok('lost 1 interrupt' in err and 'booting again' in err, 'it says why it boots again', err)
ok(seen(work) == ['the card', 'the card'] and card(work) == 'boot 2',
   'the second boot starts on the card as it was before the first, and keeps its own writes',
   f'seen {seen(work)}, card now {card(work)!r}')
ok(not os.path.exists(os.path.join(work, 'card.img.before-boot')),
   'the copy of the card is removed after the boot', str(os.listdir(work)))
cleanup(work)

rc, made, err, work = boots([LOST + SYSTEMD_NOT_MOUNTED, DONE])
ok(made == 2, 'the same for the systemd tier\'s initramfs', f'{made} boots\n{err}')
cleanup(work)

rc, made, err, work = boots([LOST + NOT_MOUNTED] * 3 + [DONE])
ok(made == 3 and kept(work) == ['boot.log.lost-irq-1', 'boot.log.lost-irq-2'],
   'at most three boots', f'{made} boots, kept {kept(work)}\n{err}')
ok(seen(work) == ['the card'] * 3 and card(work) == 'boot 3'
   and not os.path.exists(os.path.join(work, 'card.img.before-boot')),
   'each of them on the card as it was, the last one\'s writes kept, no copy left',
   f'seen {seen(work)}, card now {card(work)!r}, {os.listdir(work)}')
cleanup(work)

rc, made, err, work = boots([LOST + FAILED_LATE, DONE])
ok(made == 1 and 'lost 1 interrupt' in err and not kept(work),
   'a lost interrupt after the commands ran: reported, not booted again (the card changed)',
   f'{made} boots\n{err}')
ok(card(work) == 'boot 1', 'and the card keeps what that boot wrote', card(work))
cleanup(work)

rc, made, err, work = boots([NOT_MOUNTED, DONE])
ok(made == 1 and 'interrupt' not in err,
   'a root that does not mount without a lost interrupt: not booted again', f'{made} boots\n{err}')
cleanup(work)

rc, made, err, work = boots([DONE, DONE])
ok(rc == 0 and made == 1, 'a good boot is made once', f'rc {rc}, {made} boots\n{err}')
cleanup(work)

sys.exit(finish())
