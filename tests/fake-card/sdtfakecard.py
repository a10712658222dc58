# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""sdtfakecard.py - the fake cards of tests/fake-card from Python, for the power-cut and
concurrent-writer tests of the check (tests/check) and bench/check-fakes.py.

    card = Card('wrap', 512, 333, layout='pios')   # fake-card.sh up
    card.cut(); card.unplug(); card.plug()         # a power cut, the card out and in
    found = card.judge(baseline)                   # e2fsck, the user files, what is left
    card.down()

`Stopper` runs a command under strace and stops it (SIGSTOP) right after the N-th return
of one system call: a kill point taken from the check's own progress, not from a clock.
Needs root, FUSE, losetup, e2fsprogs and the built sdt-fake-card ($SDT_FAKE_CARD)."""
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time

MIB = 1 << 20
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, 'fake-card.sh')
# the tools every user of this module needs
TOOLS = ['losetup', 'mkfs.ext4', 'e2fsck', 'sfdisk', 'mkfs.vfat', 'fusermount3', 'strace',
         'blockdev', 'findmnt']


def missing():
    """why the cards cannot be made here, or None"""
    if os.geteuid() != 0:
        return 'needs root (FUSE, loop devices, mount)'
    if not os.path.exists('/dev/fuse'):
        return 'no /dev/fuse on this machine'
    if not os.environ.get('SDT_FAKE_CARD'):
        return 'SDT_FAKE_CARD (the built sdt-fake-card) is not set'
    lacking = [t for t in TOOLS if shutil.which(t) is None]
    if lacking:
        return 'missing ' + ', '.join(lacking)
    return None


class CardError(Exception):
    pass


def loop_range():
    """the high range of loop nodes the stand-ins take: SDT_FAKE_LOOP_RANGE ("FIRST-LAST"),
    default 200-254. The trixie tier (tests/trixie/in-root.sh) runs beside the host's tests
    (tools/test.sh) and takes another range, so that no node a power-cut test unplugged and
    will plug again is taken by the other run meanwhile."""
    first, _, last = os.environ.get('SDT_FAKE_LOOP_RANGE', '200-254').partition('-')
    return int(first), int(last)


def free_loop():
    """a loop device node that nothing uses, from a high range (loop_range())

    Bound or not is read from sysfs (/sys/block/loopN/loop exists only while a file is
    bound), not from `losetup -O NAME`: util-linux 2.41 (trixie) prints the name of an
    unbound device and exits 0, where 2.38 (bookworm) fails."""
    first, last = loop_range()
    for i in random.sample(range(first, last + 1), last + 1 - first):
        if not os.path.exists(f'/sys/block/loop{i}/loop'):
            return f'/dev/loop{i}'
    raise CardError(f'no free loop device node in /dev/loop{first}..{last}')


def _run(argv, env=None, check=True):
    r = subprocess.run(argv, capture_output=True, text=True, env=env)
    if check and r.returncode != 0:
        raise CardError(f'{" ".join(argv)} failed ({r.returncode}): {r.stdout}{r.stderr}')
    return r


def sha256_file(path, start=0, length=None):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        f.seek(start)
        left = length
        while left is None or left > 0:
            b = f.read(MIB if left is None else min(MIB, left))
            if not b:
                break
            h.update(b)
            if left is not None:
                left -= len(b)
    return h.hexdigest()


class Card:
    """a fake card under a loop device with ext4 and user files (fake-card.sh up)"""

    def __init__(self, kind, claim_mib, real_mib, layout='plain', files=None, mounted=True,
                 raw_fill='random'):
        self.kind, self.claim_mib, self.real_mib, self.layout = kind, claim_mib, real_mib, layout
        self.dir = tempfile.mkdtemp(prefix='sdt-pc-', dir='/var/tmp')
        os.chmod(self.dir, 0o755)
        env = dict(os.environ)
        env.pop('FAKE_LAYOUT', None)
        if layout in ('pios', 'raw'):
            env['FAKE_LAYOUT'] = layout
        if files is not None:
            env['FAKE_FILES'] = str(files)
        if not mounted:
            env['FAKE_UNMOUNTED'] = '1'
        env['FAKE_RAW_FILL'] = raw_fill
        # a node of its own, far above those `losetup --find` hands out: the card gets it
        # back after an unplug, as mmcblk0 is mmcblk0 again after a power cut (the check's
        # journal names the node)
        env['FAKE_LOOP'] = free_loop()
        try:
            self.sh('up', kind, str(claim_mib), str(real_mib), env=env)
        except CardError:
            self.down()
            raise
        self.mnt = os.path.join(self.dir, 'mnt')
        self.backing = os.path.join(self.dir, 'backing')
        with open(os.path.join(self.dir, 'loop')) as f:
            self.loop = f.read().strip()
        with open(os.path.join(self.dir, 'part')) as f:
            self.part = f.read().strip()
        with open(os.path.join(self.dir, 'sums')) as f:
            self.sums = dict(reversed(line.rstrip('\n').split('  ', 1)) for line in f)
        self.regions = self._regions()

    def __str__(self):
        return f'{self.kind} {self.claim_mib}/{self.real_mib} MiB, {self.layout} layout'

    def sh(self, cmd, *args, env=None):
        return _run([SCRIPT, cmd, self.dir] + list(args), env=env)

    @property
    def fake_pid(self):
        with open(os.path.join(self.dir, 'fuse.pid')) as f:
            return int(f.read())

    # ---- the power ----
    def cut(self):
        """the power goes: the card takes no write from this instant"""
        os.kill(self.fake_pid, signal.SIGPWR)

    def unplug(self):
        # a check killed inside FIFREEZE leaves the file system frozen: a dead Pi does not
        # care, but umount would wait for the thaw forever (its writes go nowhere now)
        _run(['fsfreeze', '-u', self.mnt], check=False)
        self.sh('unplug')

    def plug(self):
        self.sh('plug')

    def plug_at(self, node):
        """plugged in again at another node (another reader, or the same one replugged
        while its node was taken)"""
        with open(os.path.join(self.dir, 'loop'), 'w') as f:
            f.write(node + '\n')
        self.sh('plug')
        self.loop = node

    def fake_log(self):
        with open(os.path.join(self.dir, 'fuse.log')) as f:
            return f.read()

    def keep(self):
        """a copy of the card's bytes (while unplugged), for restore()"""
        _run(['cp', '--sparse=always', self.backing, self.backing + '.kept'])

    def restore(self):
        _run(['cp', '--sparse=always', self.backing + '.kept', self.backing])

    def down(self):
        _run([SCRIPT, 'down', self.dir], check=False)

    # ---- what must not change ----
    def _regions(self):
        """name -> (start, length) of what no check may change: on the Pi OS layout the
        first 4 MiB (the partition table and the gap before partition 1) and the boot
        partition; on the plain layout nothing (ext4 fills the card, e2fsck judges it)"""
        if self.layout != 'pios':
            return {}
        table = json.loads(_run(['sfdisk', '-J', self.backing]).stdout)['partitiontable']
        p1 = table['partitions'][0]
        return {'partition table (first 4 MiB)': (0, 4 * MIB),
                'boot partition': (p1['start'] * 512, p1['size'] * 512)}

    def real_bytes(self):
        """the real size: REAL as fake-card.sh takes it (MiB, or NNNb for bytes)"""
        real = str(self.real_mib)
        return int(real[:-1]) if real.endswith('b') else int(real) * MIB

    def fs_owned(self):
        """[(start, end)) card offsets inside the regions that the file system of
        partition 2 also holds: on a wrap fake its metadata (bitmaps, inode tables,
        descriptors, superblocks) above the real size R lands at that address mod R, and
        mkfs wrote it there over the boot partition; ext4 updating a bitmap when anything
        allocates (the check's reserved file too) changes such a block without a write
        of the check's.  Read once, after the first call (mkfs places them for good)."""
        if getattr(self, '_owned', None) is not None:
            return self._owned
        self._owned = []
        if self.kind != 'wrap' or self.layout != 'pios':
            return self._owned
        out = _run(['dumpe2fs', self.part], check=False).stdout
        m = re.search(r'^Block size:\s+(\d+)', out, re.M)
        if not m:
            return self._owned
        bs, start, real = int(m.group(1)), self.part_start(), self.real_bytes()
        spans = []
        for line in out.splitlines():
            if not re.match(r'\s*(Primary superblock|Backup superblock|Reserved GDT|'
                            r'Block bitmap|Inode bitmap|Inode table)', line):
                continue
            for a, b in re.findall(r' at (\d+)(?:-(\d+))?', line):
                spans.append((int(a), int(b or a)))
        for a, b in spans:
            lo, hi = start + a * bs, start + (b + 1) * bs
            if hi <= real:
                continue
            for x in range(max(lo, real), hi, bs):
                phys = x % real
                if any(ra <= phys < ra + rn for ra, rn in self.regions.values()):
                    self._owned.append((phys, phys + bs))
        self._owned.sort()
        return self._owned

    def region_sums(self):
        """the regions' SHA-256 as the card stores them (the backing file: a wrap or
        zeros card keeps its low addresses there one to one), without what fs_owned()
        gives (each such span hashed as zeros)"""
        owned = self.fs_owned()
        sums = {}
        with open(self.backing, 'rb') as f:
            for name, (a, n) in self.regions.items():
                h = hashlib.sha256()
                for off in range(a, a + n, MIB):
                    data = bytearray(os.pread(f.fileno(), min(MIB, a + n - off), off))
                    for lo, hi in owned:
                        if lo < off + len(data) and hi > off:
                            x, y = max(lo, off) - off, min(hi, off + len(data)) - off
                            data[x:y] = bytes(y - x)
                    h.update(data)
                sums[name] = h.hexdigest()
        return sums

    def crowd_below(self, offset, keep_mib=200):
        """every free block of the file system below the device offset @offset taken
        by an unwritten preallocated file (nothing written to the card), so that what
        allocates next (the check's reserve and its journal copies) lands above it;
        @keep_mib of free space above @offset left free.  Returns the file's path."""
        path = os.path.join(self.mnt, 'crowd')
        part_start = self.part_start()
        st = os.statvfs(self.mnt)
        size = st.f_bfree * st.f_frsize
        while size > 0 and _run(['fallocate', '-l', str(size), path],
                                check=False).returncode != 0:
            size -= 4 * MIB
        # give back its blocks from @offset up: the only free space left is there
        out = _run(['filefrag', '-v', '-b4096', path]).stdout
        freed = 0
        for line in out.splitlines():
            m = re.match(r'\s*\d+:\s+(\d+)\.\.\s*(\d+):\s+(\d+)\.\.\s*(\d+):', line)
            if not m:
                continue
            log, log_end, phys = int(m.group(1)), int(m.group(2)), int(m.group(3))
            n = log_end - log + 1
            first = max(0, -(-(offset - part_start - phys * 4096) // 4096))
            if first >= n or freed >= keep_mib * MIB:
                continue
            take = min(n - first, (keep_mib * MIB - freed) // 4096)
            _run(['fallocate', '-p', '-o', str((log + first) * 4096), '-l',
                  str(take * 4096), path])
            freed += take * 4096
        _run(['sync', '-f', path])
        return path

    def part_start(self):
        """the file system's offset on the card"""
        if self.layout != 'pios':
            return 0
        table = json.loads(_run(['sfdisk', '-J', self.backing]).stdout)['partitiontable']
        return table['partitions'][1]['start'] * 512

    # ---- the judgement ----
    def files_now(self):
        """every path in the file system but lost+found, relative, sorted"""
        out = []
        for d, dirs, files in os.walk(self.mnt):
            rel = os.path.relpath(d, self.mnt)
            if rel == 'lost+found' or rel.startswith('lost+found/'):
                continue
            for name in dirs + files:
                p = os.path.normpath(os.path.join(rel, name))
                if p != 'lost+found':
                    out.append(p)
        return sorted(out)

    def damaged(self):
        bad = []
        for name, digest in sorted(self.sums.items()):
            try:
                ok = sha256_file(os.path.join(self.mnt, name)) == digest
            except OSError:
                ok = False
            if not ok:
                bad.append(name)
        return bad

    def save_files(self):
        """a copy of the user files off the card, for bytes_lost()"""
        self.orig = os.path.join(self.dir, 'orig')
        os.makedirs(self.orig, exist_ok=True)
        for name in self.sums:
            shutil.copyfile(os.path.join(self.mnt, name), os.path.join(self.orig, name))

    def bytes_lost(self, names):
        """how many bytes of these files differ from the saved copy (a file that cannot
        be read: all of it); None without save_files()"""
        if getattr(self, 'orig', None) is None:
            return None
        lost = 0
        for name in names:
            with open(os.path.join(self.orig, name), 'rb') as f:
                want = f.read()
            try:
                with open(os.path.join(self.mnt, name), 'rb') as f:
                    got = f.read()
            except OSError:
                got = b''
            lost += sum(a != b for a, b in zip(want, got)) + max(0, len(want) - len(got))
        return lost

    def fsck(self):
        """unmounted (the page cache gone), e2fsck -fn, mounted again: (clean, log)"""
        for m in sorted(_mounts_under(self.mnt), reverse=True):
            _run(['umount', m])
        _run(['umount', self.mnt])
        _run(['blockdev', '--flushbufs', self.part, self.loop])
        r = _run(['e2fsck', '-fn', self.part], check=False)
        _run(['mount', '-o', 'rw,noatime', self.part, self.mnt])
        return r.returncode == 0, r.stdout + r.stderr

    def judge(self, allowed, region_sums=None):
        """what a run left: {'fsck': log or None, 'damaged': [...], 'left': [...],
        'regions': [...changed], 'free_bytes': n}; nothing bad when all are empty.
        @allowed: the paths the file system may hold besides the user files"""
        clean, log = self.fsck()
        now = set(self.files_now())
        left = sorted(now - set(self.sums) - set(allowed))
        changed = []
        if region_sums is not None:
            now_sums = self.region_sums()
            changed = [n for n in region_sums if now_sums[n] != region_sums[n]]
        st = os.statvfs(self.mnt)
        damaged = self.damaged()
        return {'fsck': None if clean else log, 'damaged': damaged, 'left': left,
                'regions': changed, 'free_bytes': st.f_bfree * st.f_frsize,
                'bytes_lost': self.bytes_lost(damaged)}


def _mounts_under(path):
    r = _run(['findmnt', '-rn', '-o', 'TARGET'], check=False)
    return [m for m in r.stdout.split() if m.startswith(path + '/')]


def mount_run(root):
    """<root>/run as a fresh tmpfs, as at a boot"""
    run = os.path.join(root, 'run')
    os.makedirs(run, exist_ok=True)
    _run(['mount', '-t', 'tmpfs', '-o', 'size=64m,mode=0755', 'sdt-pc-run', run])
    return run


def umount_run(root):
    """<root>/run gone, everything in it lost (a power cut)"""
    run = os.path.join(root, 'run')
    if run in _mounts_under(root):
        _run(['umount', '-l', run])


# ---- kill points from the check's own progress ----

# the system calls that change what is on the card or mark a step of the check: the
# journal's writing (pwrite64, fsync, rename), the batch's writes and put-back (pwrite64),
# their syncs (fdatasync), the journal's removal (unlink), FIFREEZE/FITHAW (ioctl)
TRACED = ['pwrite64', 'pwritev', 'write', 'fsync', 'fdatasync', 'rename', 'renameat2',
          'unlink', 'unlinkat', 'ioctl']
LINE = re.compile(r'^(\d+)\s+(\w+)\(')


class Stopper:
    """ARGV under strace; with point=(syscall, n) it is stopped (SIGSTOP, every thread)
    right after the n-th return of that call in its busiest thread, and stopped() says
    so.  Without a point it runs to its end and events() lists the traced calls of the
    thread that made most of them, in order: [(name, k-th of that name)]."""

    def __init__(self, argv, point=None):
        self.log = tempfile.NamedTemporaryFile(prefix='sdt-pc-strace-', suffix='.txt',
                                               dir='/var/tmp', delete=False)
        self.log.close()
        self.point = point
        cmd = ['strace', '-f', '-o', self.log.name, '-e', 'trace=' + ','.join(TRACED)]
        if point is not None:
            cmd += ['-e', f'inject={point[0]}:signal=SIGSTOP:when={point[1]}']
        self.proc = subprocess.Popen(cmd + ['--'] + list(argv), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.pid = None

    def wait_stop(self, timeout=120):
        """True when stopped at the point (every thread: strace's log says so line by
        line), False when it ended before"""
        t_end = time.monotonic() + timeout
        t_stop = None
        stopped = set()
        part = ''
        with open(self.log.name) as f:
            while time.monotonic() < t_end:
                ended = self.proc.poll() is not None
                lines = (part + f.read()).split('\n')
                part = lines.pop()  # a line strace is still writing
                for line in lines:
                    if line.endswith('--- stopped by SIGSTOP ---'):
                        stopped.add(int(line.split()[0]))
                if stopped:
                    t_stop = t_stop or time.monotonic() + 0.5
                    self.pid = min(stopped)  # the process (its first thread)
                    try:
                        threads = len(os.listdir(f'/proc/{self.pid}/task'))
                    except OSError:
                        threads = 0
                    if len(stopped) >= threads or time.monotonic() > t_stop:
                        return True
                if ended:
                    return False
                time.sleep(0.002)
        raise CardError(f'{self.point}: neither stopped nor ended in {timeout} s')

    def kill(self):
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        out, err = self.proc.communicate(timeout=120)
        return out.decode(errors='replace'), err.decode(errors='replace')

    def finish(self, timeout=600):
        out, err = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, out.decode(errors='replace'), err.decode(errors='replace')

    def events(self):
        per = {}
        with open(self.log.name) as f:
            for line in f:
                m = LINE.match(line)
                if m and m.group(2) in TRACED:
                    per.setdefault(m.group(1), []).append(m.group(2))
        if not per:
            return []
        seq = max(per.values(), key=len)
        seen = {}
        out = []
        for name in seq:
            seen[name] = seen.get(name, 0) + 1
            out.append((name, seen[name]))
        return out

    def close(self):
        try:
            os.unlink(self.log.name)
        except OSError:
            pass
