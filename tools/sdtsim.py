# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""sdtsim.py - the simulated Raspberry Pi 3 (data/sim/rpi3) following the physics of its SD bus.

Used by tools/sd-tuner-sim.py (tools/run.sh on a machine that is not a Pi) and by the tests of
the simulated loop.  As root it gives the simulated board a real card:

  SimCard    a loop device over a filled image with ext4, throttled with the cgroup block-I/O
             controller (v1 blkio.throttle.*, or v2 io.max) to what the simulated bus allows.
             Throttling is per cgroup and per device: only processes in the card's cgroup are
             slowed down, and only on the loop device; join() puts a process in it (its
             children, the private bus's dbus-daemon and the helper it activates, follow).
  SimBoard   a scratch copy of data/sim/rpi3 whose card partition (mmcblk0p2, the root file
             system in its mountinfo) is the loop device: its umockdev data and mountinfo carry
             the loop device's MAJ:MIN and the card's ext4 is mounted on <root>/var/lib/sd-tuner,
             where SD Tuner keeps its state and benchmarks the card.  reboot() is the simulated
             restart: a new boot id, the SD clock the firmware and the sdhost driver derive from
             config.txt (tryboot.txt for a trial), the debugfs ios and a fresh kernel log, and
             the throttle raised or lowered with the clock.  An erroring card (errors_above_mhz)
             logs mmc errors above that clock and the kernel steps the clock down, as the
             bcm2835-sdhost driver does.

Where the card cannot be made (not root, no losetup, no cgroup block-I/O controller), SimCard
says why (SimCard.unavailable) and the board runs as before: the benchmark writes a file on this
machine's disk, and its figures are not the card's.

The bus model (PLATFORM.md 2.2, 2.3, 9.2): a 4-bit bus moves clock/2 bytes per second at most;
a Pi 3 measured 22 MB/s at 50 MHz and about 35 at 100 MHz with a card that kept up.  The model:
22 MB/s at 50 MHz, 40 MB/s at 100 MHz, linear in between (32.8 at 80, 28 at 66.7); random I/O
scales with it: 250 IOPS at 50 MHz (455 at 100), low enough that the throttle, not this
machine's disk latency, sets even the queue-depth-1 figures.  The sdhost divisor: the
smallest n >= 2 with core/n <= requested + 0.999 MHz (core 400 MHz: 100, 80, 66.7, 57.1 MHz).
"""
import os
import re
import shutil
import subprocess
import tempfile
import time
import uuid

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
SIM_ROOT = os.path.join(TOP, 'data', 'sim', 'rpi3')
SIM_UMOCKDEV = os.path.join(TOP, 'data', 'sim', 'rpi3.umockdev')

CORE_HZ = 400000000          # the Pi 3's core clock, the sdhost's reference
HS_HZ = 50000000             # High Speed: what the MMC core asks for
BOARD_TYPE = 0x08            # Pi 3 Model B
MODEL_FILTERS = {'pi3'}      # the model filters of config.txt that are true on it
OTHER_MODELS = {'pi0', 'pi0w', 'pi02', 'pi1', 'pi2', 'pi3+', 'pi4', 'pi400', 'pi5', 'pi500',
                'cm1', 'cm3', 'cm3+', 'cm4', 'cm4s', 'cm5'}
CARD_MB = 400                # room for the standard profile's 256 MiB file and its 10% margin


def bus_speed(clock_hz):
    """(bytes/s, IOPS) the simulated card gets at this SD clock (the model in the docstring)"""
    mhz = clock_hz / 1e6
    mb_s = 22.0 * mhz / 50 if mhz <= 50 else 22.0 + (mhz - 50) * 18.0 / 50
    bps = int(mb_s * 1e6)
    return bps, max(1, int(round(250 * mb_s / 22.0)))


def sdhost_clock(overclock_mhz, core_hz=CORE_HZ):
    """the clock bcm2835-sdhost sets for overclock_50 = overclock_mhz"""
    request = overclock_mhz * 1000000 + 999999
    n = 2
    while core_hz // n > request:
        n += 1
    return core_hz // n


def next_step_down(clock_hz, core_hz=CORE_HZ):
    """the next divisor step below clock_hz (the driver lowers overclock_50 after errors)"""
    n = 2
    while core_hz // n >= clock_hz:
        n += 1
    return core_hz // n


def firmware_overclock(text, tryboot=False):
    """The sd_overclock value (MHz) the firmware takes from a config.txt: the last one in a
    section that is true on this board (filters: same type replaces, different types AND,
    [all] clears, [none] holds until [all]), as a base dtparam (after `dtoverlay=` or none)
    or as overclock_50 of the sdtweak overlay.  None when there is none."""
    state = {}
    overlay = ''
    value = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith('#'):
            continue
        m = re.fullmatch(r'\[([^\]]*)\]', line)
        if m:
            f = m.group(1).strip().lower()
            if f == 'all':
                state = {}
            elif f == 'none':
                state['none'] = False
            elif f == 'tryboot':
                state['tryboot'] = tryboot
            elif f.startswith('board-type='):
                try:
                    state['model'] = int(f.split('=', 1)[1], 0) == BOARD_TYPE
                except ValueError:
                    state['model'] = False
            elif f in MODEL_FILTERS or f in OTHER_MODELS:
                state['model'] = f in MODEL_FILTERS
            else:  # HDMI, gpio, EDID, serial numbers...: not true on the simulated board
                state[f.split('=')[0].split(':')[0]] = False
            continue
        if not all(state.values()):
            continue
        key, _, val = line.partition('=')
        key = key.strip()
        if key == 'dtoverlay':
            parts = val.split(',')
            overlay = parts[0].strip()
            params = parts[1:]
        elif key == 'dtparam':
            params = val.split(',')
        else:
            continue
        for p in params:
            name, _, v = p.strip().partition('=')
            want = 'overclock_50' if overlay == 'sdtweak' else ('sd_overclock' if overlay == ''
                                                                else None)
            if name == want and v.strip().isdigit():
                value = int(v)
    return value


class SimCard:
    """A loop-device card with ext4, throttled; see the module docstring.  Use as a context
    manager; unavailable is None when it works, else the reason it cannot."""

    def __init__(self, size_mb=CARD_MB, img_dir='/var/tmp', log=None, enabled=True):
        self.enabled = enabled
        self.size_mb = size_mb
        self.img_dir = img_dir
        self.log = log or (lambda *a: None)
        self.image = self.dev = self.majmin = self.cgroup = self.mnt = None
        self.kind = None          # 'v1' or 'v2'
        self.unavailable = None
        self.speed = (0, 0)

    @staticmethod
    def why_not():
        """None when a throttled loop card can be made here, else the reason"""
        if os.geteuid() != 0:
            return 'not running as root (a loop device and a cgroup need root)'
        for tool in ('losetup', 'mkfs.ext4', 'mount'):
            if shutil.which(tool) is None:
                return f'{tool} is not installed'
        if SimCard._v2_io() is None and not os.path.isdir('/sys/fs/cgroup/blkio'):
            return ('this kernel offers no cgroup block-I/O throttle (no cgroup v1 blkio '
                    'controller at /sys/fs/cgroup/blkio, no io controller in cgroup v2)')
        return None

    @staticmethod
    def _v2_io():
        try:
            with open('/sys/fs/cgroup/cgroup.controllers') as f:
                return '/sys/fs/cgroup' if 'io' in f.read().split() else None
        except OSError:
            return None

    def __enter__(self):
        self.unavailable = self.why_not() if self.enabled else 'it was switched off (--no-card)'
        if self.unavailable is None:
            try:
                self._make()
            except (OSError, subprocess.CalledProcessError) as e:
                self.close()
                self.unavailable = f'the loop-device card could not be made: {e}'
        return self

    def __exit__(self, *exc):
        self.close()

    def _make(self):
        fd, self.image = tempfile.mkstemp(prefix='sdt-sim-card-', suffix='.img', dir=self.img_dir)
        os.close(fd)
        os.truncate(self.image, self.size_mb << 20)
        self.dev = subprocess.run(['losetup', '--find', '--show', '--direct-io=on', self.image],
                                  check=True, capture_output=True, text=True).stdout.strip()
        with open(f'/sys/block/{os.path.basename(self.dev)}/dev') as f:
            self.majmin = f.read().strip()
        # every block filled (a sparse image reads holes without I/O), ext4 without discard
        subprocess.run(['dd', 'if=/dev/urandom', f'of={self.dev}', 'bs=4M',
                        f'count={self.size_mb // 4}', 'oflag=direct', 'status=none'], check=True)
        subprocess.run(['mkfs.ext4', '-q', '-F', '-E', 'nodiscard', self.dev], check=True)
        v2 = self._v2_io()
        if v2 is not None:
            with open(os.path.join(v2, 'cgroup.subtree_control')) as f:
                if 'io' not in f.read().split():
                    with open(os.path.join(v2, 'cgroup.subtree_control'), 'w') as g:
                        g.write('+io\n')
            self.kind, parent = 'v2', v2
        else:
            self.kind, parent = 'v1', '/sys/fs/cgroup/blkio'
        # the image's unique name (sdt-sim-card-XXXXXX) names the group too
        self.cgroup = os.path.join(parent, os.path.basename(self.image)[:-len('.img')])
        os.mkdir(self.cgroup)

    def set_speed(self, bps, iops):
        """the card's read and write limits, in bytes/s and I/O operations/s"""
        if self.cgroup is None:
            return
        if self.kind == 'v2':
            with open(os.path.join(self.cgroup, 'io.max'), 'w') as f:
                f.write(f'{self.majmin} rbps={bps} wbps={bps} riops={iops} wiops={iops}\n')
        else:
            for what, v in (('read_bps', bps), ('write_bps', bps), ('read_iops', iops),
                            ('write_iops', iops)):
                with open(os.path.join(self.cgroup, f'blkio.throttle.{what}_device'), 'w') as f:
                    f.write(f'{self.majmin} {v}\n')
        self.speed = (bps, iops)
        self.log(f'card throttle: {bps / 1e6:.1f} MB/s, {iops} IOPS on {self.dev} '
                 f'({self.majmin}, cgroup {self.kind} {self.cgroup})')

    def join(self, pid=None):
        """puts a process (default: this one) and its future children in the card's cgroup"""
        if self.cgroup is not None:
            with open(os.path.join(self.cgroup, 'cgroup.procs'), 'w') as f:
                f.write(f'{pid or os.getpid()}\n')

    def _remove_cgroup(self):
        """moves what is left in the group to its parent and removes it; a process that is
        still exiting (a helper just sent SIGTERM) keeps it busy for a moment"""
        parent = os.path.dirname(self.cgroup)
        end = time.monotonic() + 20
        while True:
            try:
                with open(os.path.join(self.cgroup, 'cgroup.procs')) as f:
                    pids = f.read().split()
                for p in pids:
                    try:
                        with open(os.path.join(parent, 'cgroup.procs'), 'w') as f:
                            f.write(p + '\n')
                    except OSError:
                        pass  # gone meanwhile
                os.rmdir(self.cgroup)
                return
            except OSError as e:
                if time.monotonic() > end:
                    self.log(f'could not remove {self.cgroup}: {e}')
                    return
                time.sleep(0.1)

    def close(self):
        if self.cgroup is not None and os.path.isdir(self.cgroup):
            self._remove_cgroup()
        self.cgroup = None
        if self.dev is not None:
            subprocess.run(['losetup', '-d', self.dev])
            self.dev = None
        if self.image is not None:
            try:
                os.unlink(self.image)
            except OSError:
                pass
            self.image = None


def _read(path, mode='r'):
    with open(path, mode) as f:
        return f.read()


def _write(path, data, mode='w'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


class SimBoard:
    """A scratch copy of the simulated Pi 3 in @workdir, on @card (a SimCard that is
    available) or, without one, on this machine's disk as before; see the module docstring.
    close() unmounts the card's file system; the caller removes @workdir."""

    def __init__(self, workdir, card=None, errors_above_mhz=None, log=None):
        self.card = card if card is not None and card.unavailable is None else None
        self.errors_above_mhz = errors_above_mhz
        self.log = log or (lambda *a: None)
        self.root = os.path.join(workdir, 'root')
        self.umockdev = os.path.join(workdir, 'rpi3.umockdev')
        self.state = os.path.join(self.root, 'var', 'lib', 'sd-tuner')
        self.config = os.path.join(self.root, 'boot', 'firmware', 'config.txt')
        self.tryboot_txt = os.path.join(self.root, 'boot', 'firmware', 'tryboot.txt')
        self.clock_hz = HS_HZ
        self.boot_id = None
        self.boots = 0
        self.mounted = False
        shutil.copytree(SIM_ROOT, self.root, symlinks=True)
        self._boot_log = [line for line in _read(os.path.join(SIM_ROOT, 'dev', 'kmsg')).split('\n')
                          if line]
        dev = _read(SIM_UMOCKDEV)
        if self.card is not None:
            major, minor = self.card.majmin.split(':')
            # the card's root partition is the loop device, in udev and in the mount table
            part = dev.index('N: mmcblk0p2\n')
            end = dev.find('\n\n', part)
            end = len(dev) if end < 0 else end
            dev = dev[:part] + (dev[part:end].replace('E: MAJOR=179', f'E: MAJOR={major}')
                                .replace('E: MINOR=2', f'E: MINOR={minor}')
                                .replace('A: dev=179:2', f'A: dev={self.card.majmin}')) + dev[end:]
            # no node for the whole disk: umockdev would make /dev/mmcblk0 an empty file
            dev = dev.replace('N: mmcblk0\nE: DEVNAME=/dev/mmcblk0\n', '', 1)
            mi = os.path.join(self.root, 'proc', 'self', 'mountinfo')
            _write(mi, _read(mi).replace(' 179:2 / / ', f' {self.card.majmin} / / ', 1))
            subprocess.run(['mount', '-o', 'nodiscard', self.card.dev, self.state], check=True)
            self.mounted = True
        try:
            _write(self.umockdev, dev)
            self.reboot()
        except BaseException:
            self.close()
            raise

    def close(self):
        if self.mounted:
            # a process just killed (or the helper stopping) may hold the card for a moment:
            # retry, and detach it lazily rather than leave a stray mount behind
            for _ in range(50):
                if subprocess.run(['umount', self.state], capture_output=True).returncode == 0:
                    break
                time.sleep(0.1)
            else:
                subprocess.run(['umount', '--lazy', self.state])
            self.mounted = False

    # ---- the simulated restart ---------------------------------------------------------
    def reboot(self, tryboot=None):
        """The simulated restart (the caller stops the helper first: it keeps the kernel log
        it read at start).  tryboot: boot tryboot.txt once (`reboot '0 tryboot'`); default:
        when SD Tuner left a trial in tryboot.txt."""
        if tryboot is None:
            tryboot = os.path.exists(self.tryboot_txt)
        source = self.tryboot_txt if tryboot else self.config
        requested = firmware_overclock(_read(source), tryboot=tryboot)
        self.boots += 1
        self.boot_id = str(uuid.uuid4())
        log = self._boot_log[:4]
        clock = HS_HZ
        if requested is not None and requested > HS_HZ // 1000000:
            clock = sdhost_clock(requested)
            log.append(f'6,{len(log)},1510000,-;mmc0: overclocking to {clock}Hz')
        log += self._boot_log[4:]
        usec = 9000000
        if self.errors_above_mhz is not None and clock > HS_HZ and \
                clock > self.errors_above_mhz * 1000000:
            # the card fails at this clock: errors, and the driver steps down until it works
            while clock > HS_HZ and clock > self.errors_above_mhz * 1000000:
                seq = len(log)
                log += [f'3,{seq},{usec},-;mmc0: timeout waiting for hardware interrupt.',
                        f'3,{seq + 1},{usec + 1000},-;mmcblk0: error -110 transferring data, '
                        'sector 1234, nr 8, cmd response 0x900, card status 0xb00',
                        f'4,{seq + 2},{usec + 2000},-;mmc0: reducing overclock due to errors']
                usec += 100000
                clock = next_step_down(clock)
                if clock <= HS_HZ:
                    log.append(f'4,{len(log)},{usec},-;mmc0: cancelling overclock')
                    clock = HS_HZ
        self.clock_hz = clock
        _write(os.path.join(self.root, 'proc', 'sys', 'kernel', 'random', 'boot_id'),
               self.boot_id + '\n')
        ios = os.path.join(self.root, 'sys', 'kernel', 'debug', 'mmc0', 'ios')
        _write(ios, '\n'.join(f'actual clock:\t{clock} Hz' if l.startswith('actual clock:') else l
                              for l in _read(ios).splitlines()) + '\n')
        _write(os.path.join(self.root, 'dev', 'kmsg'), '\n'.join(log) + '\n')
        _write(os.path.join(self.root, 'proc', 'device-tree', 'chosen', 'bootloader', 'tryboot'),
               (1 if tryboot else 0).to_bytes(4, 'big'), 'wb')
        if self.card is not None:
            self.card.set_speed(*bus_speed(clock))
        stepped = requested is not None and requested > 50 and clock < sdhost_clock(requested)
        self.log(f'boot {self.boots}: boot id {self.boot_id}; '
                 f'{"tryboot.txt" if tryboot else "config.txt"} asks for '
                 f'{"no overclock" if requested is None else f"sd_overclock={requested}"}; '
                 f'SD clock {clock / 1e6:.1f} MHz'
                 + ('; the card threw errors at the higher clock and the kernel stepped down'
                    if stepped else ''))
        return clock

    def kernel_log(self):
        return _read(os.path.join(self.root, 'dev', 'kmsg'))

    def ctl_argv(self, ctl, *args):
        """sdtunerctl in-process on the board (--root), as sd-tuner-verify.service runs it"""
        return ['umockdev-run', '-d', self.umockdev, '--', ctl, '--root', self.root] + list(args)


def helper_env(board, **kwargs):
    """the integration harness (tests/integration/sdtharness.py: a private system bus, real
    polkitd, the BUILT helper D-Bus-activated under umockdev-run) on @board's root; on the
    card itself when the board has one, else with a benchmark directory on this machine"""
    import sys
    sys.path.insert(0, os.path.join(TOP, 'tests', 'integration'))
    from sdtharness import TestEnv

    class SimBusEnv(TestEnv):
        def _prepare_root(self):
            self.root = board.root
            self.bench_dir = ''
            if self.want_bench_dir:
                base = '/var/tmp' if os.path.isdir('/var/tmp') else self.work
                self.bench_dir = tempfile.mkdtemp(prefix=f'sdt-sim-bench-{os.getpid()}-', dir=base)

        def helper_argv(self):
            return [shutil.which('umockdev-run') or '/usr/bin/umockdev-run', '-d',
                    board.umockdev, '--'] + super().helper_argv()

        def stop_helper(self):
            """the helper leaves as at shutdown (SIGTERM); the next call activates it again"""
            if self.helper_pid() is not None:
                self.kill_helper(15)

    kwargs.setdefault('bench_dir', board.card is None)
    return SimBusEnv(config_txt=False, **kwargs)
