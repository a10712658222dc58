#!/usr/bin/env python3
"""check-fakes.py - a randomized sweep of the authenticity check over FUSE stand-ins.

Run as root from the source tree after building (tests/fake-card/fake-card.sh does the
cards).  N random (claim, real size, kind) triples from --seed: the kind is one of wrap,
zeros (drops writes), eio (fails), cache (keeps the last 4 MiB of writes) or genuine; the
claim is --min-claim..--max-claim MiB, the real size (REAL_MIN MiB, room for the stand-in's own
file system and its 200 user files, up to the claim) one of: anywhere, within 1% of the claim
(whole MiB), exactly 1 MiB short, exactly one 4 KiB block short (draw_real()).  Every run ends
with fake-card.sh verify (e2fsck -fn, the user files' SHA-256, nothing left behind).  It
prints one line per run and the misses, damaged files and seconds per run.

--kills K then kills K checks with SIGKILL at a random moment while their blocks are out
(the journal exists), lets the next start put them back (alternately the verify unit's
command and the next check) and verifies the card the same way.

--cuts K then cuts the power K times with the state folder on the card being checked, as on
a Pi (tests/fake-card/sdtpowercut.py, the harness of the test check-powercut): random
stand-ins (wrap, zeros, eio or cache; plain or Pi OS layout), --cuts-per-card cuts on each,
each right after a random one of the check's calls (journal, block writes, syncs); the card
stops taking writes, the check dies, /run goes, the card is plugged in again, the verify
unit's command runs.  It prints each cut, then the damaged user files and the bytes lost
(bytes of user files that differ from a copy taken before), e2fsck errors, changed partition
tables or boot partitions and what was left.  The sweep prints the bytes lost too.

Usage: bench/check-fakes.py [--build _build] [--runs 50] [--seed 1] [--kills 0] [--cuts 0]
"""
import argparse
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
    kind = rng.choice(KINDS)
    claim = rng.randrange(args.min_claim, args.max_claim + 1)
    real = claim * MIB if kind == "genuine" else draw_real(rng, claim)
    return kind, claim, real


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
        print(f"{i + 1:3d} {kind:7s} {claim:5d}/{real / MIB:<9.3f} MiB: {res['verdict']}{rng_txt}"
              f" {secs:5.1f} s; {'MISS ' + miss if miss else 'ok'}; {len(found['damaged'])} damaged, "
              f"{found['bytes_lost']} bytes lost, e2fsck {'clean' if found['fsck'] is None else 'ERRORS'}"
              f"{', left ' + ' '.join(found['left']) if found['left'] else ''}", flush=True)
    print(f"sweep: {args.runs} runs (seed {args.seed}): {misses} misses, {damaged} damaged user files, "
          f"{lost} bytes lost, {fsck_bad} e2fsck errors, {left} runs left files; seconds per run "
          f"mean {sum(times) / len(times):.2f}, max {max(times):.2f}", flush=True)
    return misses + damaged + fsck_bad + left


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
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("check-fakes.py: needs root (FUSE, loop devices, mount)")
    ctl = os.path.join(args.build, "src", "cli", "sdtunerctl")
    os.environ["SDT_FAKE_CARD"] = os.path.join(args.build, "tests", "sdt-fake-card")
    root = tempfile.mkdtemp(prefix="sdt-sweep-root-", dir="/var/tmp")
    bad = 0
    try:
        if args.runs > 0:
            bad += sweep(args, ctl, root)
        if args.kills > 0:
            bad += kills(args, ctl, root)
        if args.cuts > 0:
            bad += cuts(args, ctl)
    finally:
        subprocess.run(["rm", "-rf", root])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
