#!/usr/bin/env python3
"""check-fakes.py - a randomized sweep of the authenticity check over FUSE stand-ins.

Run as root from the source tree after building (tests/fake-card/fake-card.sh does the
cards).  N random (claim, real size, kind) triples from --seed: the kind is one of wrap,
zeros (drops writes), eio (fails), cache (reads answered from a RAM cache of the last 1 MiB
to a sixteenth of the claim written, at most 64 MiB: set_cache()) or genuine; the
claim is --min-claim..--max-claim MiB, the real size (REAL_MIN MiB, room for the stand-in's own
file system and its 200 user files, up to the claim) one of: anywhere, within 1% of the claim
(whole MiB), exactly 1 MiB short, exactly one 4 KiB block short (draw_real()).  Every run ends
with fake-card.sh verify (e2fsck -fn, the user files' SHA-256, nothing left behind).  It
prints one line per run and the misses, damaged files and seconds per run.

--kills K then kills K checks with SIGKILL at a random moment while their blocks are out
(the journal exists), lets the next start put them back (alternately the verify unit's
command and the next check) and verifies the card the same way.

--device then sweeps the check of a whole card in place (`check --device`, issue 34)
instead of the check of a file system: the stand-ins are not mounted and hold either no file
system (random bytes, or zeros) or the stock Raspberry Pi OS layout with its user files;
every byte the stand-in really stores is compared before and after (a SHA-256 per MiB of its
backing file), and the sweep prints the cards, the misses, the MiB that changed and the
seconds.  --bps/--iops throttle each stand-in's loop device (cgroup v1 blkio, as
bench/card.sh): `--device --runs 3 --min-claim 32768 --max-claim 32768 --bps 20000000
--iops 2000` times the quick check of a 32 GB claim at 20 MB/s.

--cuts K then cuts the power K times with the state folder on the card being checked, as on
a Pi (tests/fake-card/sdtpowercut.py, the harness of the test check-powercut): random
stand-ins (wrap, zeros, eio or cache; plain or Pi OS layout), --cuts-per-card cuts on each,
each right after a random one of the check's calls (journal, block writes, syncs); the card
stops taking writes, the check dies, /run goes, the card is plugged in again, the verify
unit's command runs.  It prints each cut, then the damaged user files and the bytes lost
(bytes of user files that differ from a copy taken before), e2fsck errors, changed partition
tables or boot partitions and what was left.  The sweep prints the bytes lost too.

Usage: bench/check-fakes.py [--build _build] [--runs 50] [--seed 1] [--kills 0] [--cuts 0]
                            [--kinds wrap,genuine,...] [--device [--bps B] [--iops N]]
"""
import argparse
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(TOP, "tests", "fake-card", "fake-card.sh")
sys.path.insert(0, os.path.join(TOP, "tests", "fake-card"))
import sdtfakecard as fc  # noqa: E402
import sdtpowercut as pc  # noqa: E402
KINDS = ["wrap", "zeros", "eio", "cache", "genuine"]
EXPECT = {"wrap": "wrap", "zeros": "lost-writes", "eio": "io-error", "cache": "lost-writes"}
MIB = 1 << 20
REAL_MIN = 96  # the stand-in's file system and user files fit below it


def sh(*args, check=True, env=None):
    return subprocess.run(args, capture_output=True, text=True, check=check, env=env)


def card_up(kind, claim, real):
    """the card, or None when the stand-in cannot hold its own file system and files"""
    d = tempfile.mkdtemp(prefix="sdt-sweep-", dir="/var/tmp")
    os.chmod(d, 0o755)
    r = sh(SCRIPT, "up", d, kind, str(claim), str(real), check=False)
    if r.returncode != 0:
        card_down(d)
        print(f"    (skipped {kind} {claim}/{real}: {r.stderr.strip().splitlines()[-1]})", flush=True)
        return None
    return d


def card_verify(d):
    r = sh(SCRIPT, "verify", d, check=False)
    text = (r.stdout + r.stderr).strip().splitlines()
    last = text[-1] if text else ""
    damaged = 0
    if "user files damaged" in last:
        damaged = int(last.split("fake-card.sh: ")[1].split()[0])
    fsck = "e2fsck -fn failed" not in last
    left = "left in the file system" in last
    return r.returncode == 0, damaged, fsck, left, last


def card_down(d):
    sh(SCRIPT, "down", d, check=False)


def draw_real(rng, claim):
    """a fake's real size in bytes: anywhere, near the claim, 1 MiB or 1 block short"""
    how = rng.choice(["any", "any", "near", "mib", "block"])
    if how == "any":
        return rng.randrange(REAL_MIN, claim) * MIB
    if how == "near":
        return (claim - rng.randrange(1, max(2, claim // 100 + 1))) * MIB
    if how == "mib":
        return (claim - 1) * MIB
    return claim * MIB - 4096


def real_arg(real):
    """fake-card.sh's REAL: MiB, or NNNb for bytes"""
    return str(real // MIB) if real % MIB == 0 else f"{real}b"


def draw(rng, args):
    kind = rng.choice(args.kinds.split(","))
    claim = rng.randrange(args.min_claim, args.max_claim + 1)
    real = claim * MIB if kind == "genuine" else draw_real(rng, claim)
    return kind, claim, real


def set_cache(rng, kind, claim):
    """the cache kind's RAM cache (FAKE_CACHE): 1 MiB up to a sixteenth of the claim (at
    most 64 MiB), below what the check's cache round sizes (an eighth); its size, or 0"""
    if kind != "cache":
        return 0
    cache = rng.randrange(1, max(2, min(64, claim // 16) + 1)) * MIB
    os.environ["FAKE_CACHE"] = str(cache)
    return cache


def judge(kind, claim, real, res):
    """a miss (wrong verdict, range not holding R or wider than 2% of the claim), or None"""
    if kind == "genuine":
        return None if res["verdict"] == "genuine" else "verdict " + res["verdict"]
    if res["verdict"] != "fake":
        return "verdict " + res["verdict"]
    lo, hi = res["capacity_at_least_bytes"], res["capacity_at_most_bytes"]
    if not lo <= real <= hi:
        return f"range {lo / MIB:.3f}..{hi / MIB:.3f} MiB misses {real / MIB:.3f}"
    if hi - lo > claim * MIB / 50:
        return f"range {lo / MIB:.2f}..{hi / MIB:.2f} MiB wider than 2%"
    if res["failure"] != EXPECT[kind]:
        return "failure " + str(res["failure"])
    return None


def sweep(args, ctl, root):
    rng = random.Random(args.seed)
    misses = damaged = fsck_bad = left = lost = 0
    times = []
    for i in range(args.runs):
        card = None
        while card is None:
            kind, claim, real = draw(rng, args)
            cache = set_cache(rng, kind, claim)
            try:
                card = fc.Card(kind, claim, real_arg(real))
            except fc.CardError as e:
                print(f"    (skipped {kind} {claim}/{real}: {str(e).strip().splitlines()[-1]})",
                      flush=True)
        try:
            card.save_files()
            t0 = time.monotonic()
            r = sh(ctl, "--root", root, "--json", "check", "--dir", card.mnt, check=False)
            secs = time.monotonic() - t0
            res = json.loads(r.stdout) if r.returncode == 0 else {"verdict": "error: " + r.stderr.strip()}
            miss = judge(kind, claim, real, res) if r.returncode == 0 else res["verdict"]
            found = card.judge([])
        finally:
            card.down()
        misses += miss is not None
        damaged += len(found["damaged"])
        lost += found["bytes_lost"]
        fsck_bad += found["fsck"] is not None
        left += bool(found["left"])
        times.append(secs)
        rng_txt = ""
        if res.get("capacity_at_least_bytes") is not None:
            rng_txt = f" range {res['capacity_at_least_bytes'] / MIB:.3f}..{res['capacity_at_most_bytes'] / MIB:.3f}"
        if cache:
            rng_txt += f" cache {cache // MIB} MiB"
        print(f"{i + 1:3d} {kind:7s} {claim:5d}/{real / MIB:<9.3f} MiB: {res['verdict']}{rng_txt}"
              f" {secs:5.1f} s; {'MISS ' + miss if miss else 'ok'}; {len(found['damaged'])} damaged, "
              f"{found['bytes_lost']} bytes lost, e2fsck {'clean' if found['fsck'] is None else 'ERRORS'}"
              f"{', left ' + ' '.join(found['left']) if found['left'] else ''}", flush=True)
    print(f"sweep: {args.runs} runs (seed {args.seed}): {misses} misses, {damaged} damaged user files, "
          f"{lost} bytes lost, {fsck_bad} e2fsck errors, {left} runs left files; seconds per run "
          f"mean {sum(times) / len(times):.2f}, max {max(times):.2f}", flush=True)
    return misses + damaged + fsck_bad + left


def chunk_sums(path):
    """the SHA-256 of each MiB of @path (a hole reads as zeros without reading it)"""
    zero = hashlib.sha256(bytes(MIB)).digest()
    sums = []
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        off = 0
        while off < size:
            try:
                data = os.lseek(f.fileno(), off, os.SEEK_DATA)
            except OSError:  # ENXIO: only a hole after @off
                data = size
            n = min(MIB, size - off)
            if data >= off + n:
                sums.append(zero if n == MIB else hashlib.sha256(bytes(n)).digest())
            else:
                sums.append(hashlib.sha256(os.pread(f.fileno(), n, off)).digest())
            off += n
    return sums


class Throttle:
    """cgroup v1 blkio limits on one loop device (bench/card.sh's recipe); add() puts a
    process in before it starts"""

    def __init__(self, loop, bps, iops):
        self.path = None
        if not bps and not iops:
            return
        top = "/sys/fs/cgroup/blkio"
        if not os.path.isdir(top):
            sys.exit("check-fakes.py: --bps/--iops need the cgroup v1 blkio controller")
        with open(f"/sys/block/{os.path.basename(loop)}/dev") as f:
            mm = f.read().strip()
        self.path = tempfile.mkdtemp(prefix="sdt-sweep-", dir=top)
        for what, limit in (("bps", bps), ("iops", iops)):
            for rw in ("read", "write"):
                if limit:
                    with open(os.path.join(self.path, f"blkio.throttle.{rw}_{what}_device"), "w") as f:
                        f.write(f"{mm} {limit}\n")

    def add(self):
        if self.path:
            with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))

    def close(self):
        if self.path:
            os.rmdir(self.path)


def device_sweep(args, ctl, root):
    """--device: `check --device` on stand-ins that are not mounted"""
    rng = random.Random(args.seed)
    misses = changed = 0
    times = []
    for i in range(args.runs):
        card = None
        while card is None:
            kind, claim, real = draw(rng, args)
            cache = set_cache(rng, kind, claim)
            layout = rng.choice(["raw", "raw", "pios"])
            # random bytes take a while to write: on the large claims zeros (a stray
            # write shows on them just the same)
            fill = rng.choice(["random", "zeros"]) if real <= 4096 * MIB else "zeros"
            try:
                card = fc.Card(kind, claim, real_arg(real), layout=layout, mounted=False,
                               raw_fill=fill)
            except fc.CardError as e:
                print(f"    (skipped {kind} {claim}/{real}: {str(e).strip().splitlines()[-1]})",
                      flush=True)
        throttle = None
        try:
            before = chunk_sums(card.backing)
            throttle = Throttle(card.loop, args.bps, args.iops)
            t0 = time.monotonic()
            r = subprocess.run([ctl, "--root", root, "--json", "check", "--device", card.loop],
                               capture_output=True, text=True, preexec_fn=throttle.add)
            secs = time.monotonic() - t0
            after = chunk_sums(card.backing)
        finally:
            if throttle:
                throttle.close()
            card.down()
        res = json.loads(r.stdout) if r.returncode == 0 else {"verdict": "error: " + r.stderr.strip()}
        miss = judge(kind, claim, real, res) if r.returncode == 0 else res["verdict"]
        diff = sum(a != b for a, b in zip(before, after)) + abs(len(before) - len(after))
        misses += miss is not None
        changed += diff
        times.append(secs)
        rng_txt = ""
        if res.get("capacity_at_least_bytes") is not None:
            rng_txt = f" range {res['capacity_at_least_bytes'] / MIB:.3f}..{res['capacity_at_most_bytes'] / MIB:.3f}"
        wc = res.get("write_cache") or {}
        if cache or wc.get("at_most_bytes"):
            rng_txt += (f" cache {cache // MIB} MiB, found "
                        f"{(wc.get('at_least_bytes') or 0) // MIB}..{(wc.get('at_most_bytes') or 0) // MIB}")
        elif wc:
            rng_txt += f" no cache up to {wc['flushed_bytes'] // MIB} MiB"
        print(f"{i + 1:3d} {kind:7s} {claim:5d}/{real / MIB:<9.3f} MiB {layout:4s} {fill:6s}: "
              f"{res['verdict']}{rng_txt} {secs:5.1f} s; {'MISS ' + miss if miss else 'ok'}; "
              f"{diff} MiB changed", flush=True)
    throttled = f" throttled to {args.bps} B/s, {args.iops} IOPS;" if args.bps or args.iops else ""
    print(f"device sweep: {args.runs} cards (seed {args.seed}, claims {args.min_claim}-"
          f"{args.max_claim} MiB;{throttled} not mounted): {misses} misses, {changed} MiB "
          f"changed; seconds per card mean {sum(times) / len(times):.2f}, max {max(times):.2f}",
          flush=True)
    return misses + changed


def kill_one(args, ctl, root, rng, i):
    # the journal's file copy: in the state folder itself since the copies moved there
    # (it was in a folder "check" of its own: watching that, no kill had blocks out)
    journal = os.path.join(root, "var", "lib", "sd-tuner", "check-journal")
    d = None
    while d is None:
        kind = rng.choice(["wrap", "wrap", "cache", "zeros"])
        claim = rng.randrange(args.min_claim, args.max_claim + 1)
        real = draw_real(rng, claim)
        d = card_up(kind, claim, real_arg(real))
    try:
        p = subprocess.Popen([ctl, "--root", root, "--json", "check", "--dir", os.path.join(d, "mnt")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t_end = time.monotonic() + 60
        while not os.path.exists(journal) and p.poll() is None and time.monotonic() < t_end:
            time.sleep(0.001)
        time.sleep(rng.uniform(0, 0.3))
        p.send_signal(signal.SIGKILL)
        p.wait()
        out = os.path.exists(journal)
        how = "verify" if i % 2 == 0 else "check"
        if how == "verify":
            sh(ctl, "--root", root, "verify", check=False)
        else:
            sh(ctl, "--root", root, "--json", "check", "--dir", os.path.join(d, "mnt"), check=False)
        still = os.path.exists(journal)
        ok, dmg, fsck, lft, last = card_verify(d)
    finally:
        card_down(d)
    print(f"kill {i + 1:2d} {kind:5s} {claim}/{real / MIB:.3f} MiB: blocks out at the kill: {out}; "
          f"repaired by the next {how}; journal left: {still}; {last}", flush=True)
    return out, dmg, fsck, still


def kills(args, ctl, root):
    rng = random.Random(args.seed + 1000)
    n_out = damaged = fsck_bad = stale = 0
    for i in range(args.kills):
        out, dmg, fsck, still = kill_one(args, ctl, root, rng, i)
        n_out += out
        damaged += dmg
        fsck_bad += not fsck
        stale += still
    print(f"kills: {args.kills} SIGKILLs, {n_out} with blocks out; after the next start "
          f"{damaged} damaged user files, {fsck_bad} e2fsck errors, {stale} journals left", flush=True)
    return damaged + fsck_bad + stale


def cuts(args, ctl):
    """--cuts: power cuts with the state folder on the card (sdtpowercut)"""
    pc.CTL = ctl
    rng = random.Random(args.seed + 2000)
    t = dict.fromkeys(["cuts", "inside", "out", "bad", "damaged", "lost", "fsck", "regions",
                       "left", "verify", "misses"], 0)
    n_card = 0
    while t["cuts"] < args.cuts:
        kind = rng.choice(["wrap", "wrap", "zeros", "eio", "cache"])
        layout = rng.choice(["plain", "pios"])
        claim = rng.randrange(args.min_claim, args.max_claim + 1)
        real = max(draw_real(rng, claim), (REAL_MIN + (claim // 8 if layout == "pios" else 0)) * MIB)
        try:
            card = fc.Card(kind, claim, real_arg(real), layout=layout)
        except fc.CardError:
            continue
        n_card += 1
        name = f"{kind} {claim}/{real / MIB:.3f} MiB {layout}"
        try:
            card.save_files()
            os.makedirs(os.path.join(card.mnt, "var", "lib", "sd-tuner"), mode=0o700)
            os.makedirs(os.path.join(card.mnt, "run"), mode=0o755)
            regions = card.region_sums()
            rc, out, err, events, vrc, vout = pc.survey(card)
            res = json.loads(out) if rc == 0 else {"verdict": "error: " + err.strip()[-200:]}
            miss = judge(kind, claim, real, res) if rc == 0 else res["verdict"]
            t["misses"] += miss is not None
            allowed = set(card.files_now())
            clean = card.judge(allowed, regions)
            print(f"card {n_card}: {name}: {res['verdict']}; {'MISS ' + miss if miss else 'ok'}; "
                  f"without a cut {len(clean['damaged'])} damaged", flush=True)
            pc.umount_run_and_keep(card)
            points = pc.choose_points(events, min(args.cuts_per_card, args.cuts - t["cuts"]), rng)
            for point in points:
                found = pc.one_cut(card, point, allowed, regions, clean["free_bytes"])
                why = pc.bad(found)
                t["cuts"] += 1
                t["inside"] += found["hit"]
                t["out"] += bool(found["at_boot"])
                t["bad"] += bool(why)
                t["damaged"] += len(found["damaged"])
                t["lost"] += found.get("bytes_lost") or 0
                t["fsck"] += found["fsck"] is not None
                t["regions"] += bool(found["regions"])
                t["left"] += bool(found["left"] or found["left_run"])
                t["verify"] += found["verify_rc"] != 0
                print(f"cut {t['cuts']:3d} {name} after {point[0]} #{point[1]}"
                      f"{'' if found['hit'] else ' (check ended)'}: journal at the boot "
                      f"{'yes' if found['at_boot'] else 'no'}; {len(found['damaged'])} damaged, "
                      f"{found.get('bytes_lost') or 0} bytes lost; "
                      f"{'; '.join(why) if why else 'all kept'}", flush=True)
                if why:
                    pc.restore(card)
        finally:
            fc.umount_run(card.mnt)
            card.down()
    print(f"cuts: {t['cuts']} power cuts on {n_card} stand-ins with the state folder on the card "
          f"({t['inside']} inside the check, {t['out']} with its journal on the card at the boot): "
          f"{t['misses']} misses, {t['bad']} left damage; {t['damaged']} damaged user files, "
          f"{t['lost']} bytes lost, {t['fsck']} e2fsck errors, {t['regions']} changed the "
          f"partition table or boot partition, {t['left']} left something, verify failed "
          f"{t['verify']} times", flush=True)
    return t["bad"] + t["misses"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(TOP, "_build"))
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kills", type=int, default=0)
    ap.add_argument("--cuts", type=int, default=0)
    ap.add_argument("--cuts-per-card", type=int, default=5)
    ap.add_argument("--min-claim", type=int, default=256)
    ap.add_argument("--max-claim", type=int, default=1024)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--device", action="store_true")
    ap.add_argument("--bps", type=int, default=0)
    ap.add_argument("--iops", type=int, default=0)
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("check-fakes.py: needs root (FUSE, loop devices, mount)")
    ctl = os.path.join(args.build, "src", "cli", "sdtunerctl")
    os.environ["SDT_FAKE_CARD"] = os.path.join(args.build, "tests", "sdt-fake-card")
    root = tempfile.mkdtemp(prefix="sdt-sweep-root-", dir="/var/tmp")
    bad = 0
    try:
        if args.runs > 0:
            bad += device_sweep(args, ctl, root) if args.device else sweep(args, ctl, root)
        if args.kills > 0:
            bad += kills(args, ctl, root)
        if args.cuts > 0:
            bad += cuts(args, ctl)
    finally:
        subprocess.run(["rm", "-rf", root])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
