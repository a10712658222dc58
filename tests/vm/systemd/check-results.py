#!/usr/bin/env python3
# meson-test: none: run by tests/vm/systemd/run.sh (the vm-systemd test), not by meson
"""check-results.py - the assertions of tests/vm/systemd on the two boots' console logs.

Each result is a console line "@@SDT-RESULT NONCE NAME RC BASE64" (guest/guest-test.sh).
Prints one "ok"/"not ok" line per check (TAP) and exits 1 when any fails.
"""
import argparse
import base64
import hashlib
import json
import re
import sys

checks = []


def check(ok, what, detail=''):
    checks.append(bool(ok))
    print(f'{"ok" if ok else "not ok"} {len(checks)} - {what}')
    if not ok and detail:
        for line in str(detail).splitlines()[:40]:
            print(f'#   {line}')
    return ok


def results(path, nonce):
    """NAME -> (rc, stdout + stderr); NAME.out -> (rc, stdout)"""
    raw = {}
    with open(path, 'rb') as f:
        text = f.read().decode('utf-8', 'replace').replace('\r', '')
    for m in re.finditer(rf'^@@SDT-RESULT {nonce} (\S+) (\d+) ([A-Za-z0-9+/=]*)$', text, re.M):
        raw[m.group(1)] = (int(m.group(2)), base64.b64decode(m.group(3)).decode('utf-8', 'replace'))
    out = {}
    for name, (rc, text) in raw.items():
        if name.endswith('.err'):
            continue
        err = raw.get(name + '.err', (rc, ''))[1]
        out[name] = (rc, text + err)
        out[name + '.out'] = (rc, text)
    return out


def js(res, name):
    rc, text = res.get(name + '.out', (None, ''))
    try:
        return rc, json.loads(text)
    except ValueError:
        return rc, None


def props(res, name):
    return dict(line.split('=', 1) for line in res.get(name, (0, ''))[1].splitlines() if '=' in line)


def inhibit(b1):
    """issue 26 item 2: logind's inhibitor while the helper benchmarks, gone after"""
    during = b1.get('inhibit_during', (0, ''))[1]
    ours = [ln for ln in during.splitlines() if 'SD Tuner' in ln]
    check(len(ours) == 1 and 'shutdown:sleep' in ours[0] and 'block' in ours[0]
          and 'benchmarking the SD card' in ours[0],
          'boot 1: during the benchmark logind lists the helper\'s inhibitor '
          '(shutdown:sleep, block, why)', during)
    after = b1.get('inhibit_after', (0, ''))[1]
    check('SD Tuner' not in after, 'boot 1: the benchmark\'s end released the inhibitor', after)
    journal = b1.get('helper_journal', (0, ''))[1]
    check('logind inhibitor held (shutdown:sleep, block)' in journal
          and 'logind inhibitor released' in journal,
          "boot 1: the helper's journal says it held and released the inhibitor", journal)
    rc, killed = b1.get('inhibit_killed', (None, ''))
    before, _, after_kill = killed.partition('after kill:')
    check('SD Tuner' in before and 'SD Tuner' not in after_kill,
          'boot 1: the helper killed mid-benchmark: logind drops its inhibitor', killed)


def check_through_helper(b2):
    """the check through the helper under its unit (issue 33): the unit's sandbox must let it
    write raw inside its reserved file and freeze the file system"""
    rc, chk = js(b2, 'check_bus')
    check(rc == 0 and chk is not None and chk.get('verdict') == 'genuine',
          'boot 2: `sdtunerctl check` through the helper under its unit: "genuine"',
          b2.get('check_bus'))
    notes = ' '.join(str(n) for n in ((chk or {}).get('notes') or []))
    check(chk is not None and chk.get('verdict') and 'frozen' not in notes,
          'boot 2: the check froze the file system (no note of a refused freeze)', notes)
    left = b2.get('check_left', (0, ''))[1].split()
    check(not any(n.startswith(('check-journal', '.sd-tuner-check', 'check')) for n in left),
          'boot 2: the check left no journal or reserve file in the state folder', left)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nonce', required=True)
    ap.add_argument('--stock-config', required=True)
    ap.add_argument('--with-check', choices=('0', '1'), required=True,
                    help='1: boot 2 ran the fake check (run.sh: trixie only)')
    ap.add_argument('console1')
    ap.add_argument('console2')
    a = ap.parse_args()
    b1, b2 = results(a.console1, a.nonce), results(a.console2, a.nonce)
    print(f'# boot 1: {len(b1)} results, boot 2: {len(b2)} results')

    # ---- boot 1: the helper by D-Bus activation under its unit and sandbox
    check(b1.get('helper_before', (0, ''))[1].strip() == 'inactive',
          'boot 1: the helper is not running before the first call', b1.get('helper_before'))
    rc, info = js(b1, 'info_bus')
    check(rc == 0 and info is not None, 'boot 1: `sdtunerctl info` as user pi over the system bus',
          b1.get('info_bus'))
    journal = b1.get('dbus_journal', (0, ''))[1]
    check("Activating via systemd: service name='org.example.SdTuner1' unit='sd-tuner-helper.service'"
          in journal, 'boot 1: dbus-daemon activated the helper through systemd', journal)
    unit = props(b1, 'helper_unit')
    proc = props(b1, 'helper_proc')
    check(unit.get('ActiveState') == 'active' and unit.get('SubState') == 'running',
          'boot 1: sd-tuner-helper.service is running', unit)
    check(proc.get('bus_pid') and proc.get('bus_pid') == proc.get('unit_main_pid'),
          "boot 1: the bus name's owner is the unit's main process", proc)
    check('/system.slice/sd-tuner-helper.service' in proc.get('cgroup', ''),
          "boot 1: the helper runs in its unit's cgroup", proc)
    status = b1.get('helper_proc', (0, ''))[1]
    check(re.search(r'^NoNewPrivs:\s+1$', status, re.M) and proc.get('mnt_ns_differs') == 'yes',
          'boot 1: the helper runs in the sandbox (NoNewPrivileges, own mount namespace)', status)
    m = re.search(r'^CapBnd:\s+([0-9a-f]+)$', status, re.M)
    check(m and int(m.group(1), 16) == (1 << 34) | (1 << 21),
          'boot 1: its bounding set is CAP_SYSLOG and CAP_SYS_ADMIN (the check\'s freeze) only',
          status)
    sandbox_sees_what_root_sees(b1)

    rc, rec = js(b1, 'recommend_bus')
    check(rc == 0 and rec is not None, 'boot 1: `sdtunerctl recommend` over the bus',
          b1.get('recommend_bus'))
    rc, bench = js(b1, 'bench_bus')
    check(rc == 0 and bench and len(bench.get('tests', [])) > 0
          and not (bench.get('target') or {}).get('stand_in'),
          'boot 1: `sdtunerctl bench --profile quick` through the sandboxed helper, on the card',
          b1.get('bench_bus'))
    inhibit(b1)
    rc, applied = js(b1, 'apply_bus')
    check(rc == 0 and applied and str(applied.get('id', '')).startswith('sd-overclock-')
          and not applied.get('warnings'),
          'boot 1: `sdtunerctl apply` of the recommendation over the bus (root, polkit), '
          'no warning (the benchmark before it counts)',
          b1.get('apply_bus'))
    rc, st1 = js(b1, 'status_bus_1')
    check(rc == 0 and st1 and st1.get('pending_verification'),
          'boot 1: status shows the change waiting for the verification', b1.get('status_bus_1'))

    # ---- boot 2: sd-tuner-verify.service at boot, its decision, the boot not held
    id1, id2 = b1.get('boot_id', (0, ''))[1].strip(), b2.get('boot_id', (0, ''))[1].strip()
    check(id1 and id2 and id1 != id2, f'boot 2 is a new boot ({id1} -> {id2})')
    v = props(b2, 'verify_unit')
    check(int(v.get('ExecMainStartTimestampMonotonic', '0') or 0) > 0
          and v.get('Result') == 'success' and v.get('ExecMainStatus') == '0',
          'boot 2: sd-tuner-verify.service ran at boot and succeeded',
          f"{v}\n{b2.get('verify_journal', (0, ''))[1]}")
    after = b2.get('target_after', (0, ''))[1].split()
    check('sd-tuner-verify.service' not in after,
          'boot 2: multi-user.target is not ordered after sd-tuner-verify.service (defect 6)',
          f"After={' '.join(after)}\n{b2.get('verify_deps', (0, ''))[1]}")
    rc, chain = b2.get('critical_chain', (None, ''))
    check(rc == 0 and 'multi-user.target' in chain,
          '`systemd-analyze critical-chain multi-user.target` ran', chain)
    check('sd-tuner-verify' not in chain,
          'boot 2: sd-tuner-verify.service is not in the critical chain of multi-user.target', chain)
    print('# ' + '\n# '.join(chain.splitlines()))
    print('# ' + b2.get('analyze_time', (0, ''))[1].strip().replace('\n', '\n# '))
    t = props(b2, 'target_unit')
    target_at = int(t.get('ActiveEnterTimestampMonotonic', '0') or 0)
    v_end = int(v.get('ExecMainExitTimestampMonotonic', '0') or 0)
    print(f'# multi-user.target reached at {target_at / 1e6:.1f} s, '
          f'verify ended at {v_end / 1e6:.1f} s (monotonic)')
    rc, text = b2.get('analyze_verify', (None, ''))
    check(rc == 0 and text.strip() == '',
          'boot 2: `systemd-analyze verify` of the four units is clean on the booted system', text)
    rc, st2 = js(b2, 'status_bus_2')
    last = (st2 or {}).get('last_verification') or {}
    check(rc == 0 and last.get('decision') == 'undo',
          'boot 2: `sdtunerctl status` over the bus shows the verification\'s decision: undo',
          b2.get('status_bus_2'))
    reason = str(last.get('reason', ''))
    check('50' in reason and 'boot id' not in reason,
          'boot 2: undone because the clock stayed at 50 MHz (both boot ids read)', reason)
    check(not (st2 or {}).get('pending_verification'), 'boot 2: nothing pending any more',
          b2.get('status_bus_2'))
    with open(a.stock_config, 'rb') as f:
        stock = hashlib.sha256(f.read()).hexdigest()
    got = b2.get('config_sha256', (0, ''))[1].split()
    check(got and got[0] == stock, 'boot 2: config.txt is byte-identical to the stock file',
          f'{got} != {stock}')
    left = b2.get('pending_left', (0, ''))[1].split()
    check('pending.json' not in left, 'boot 2: pending.json is gone', left)
    u2 = props(b2, 'helper_unit_2')
    check(u2.get('ActiveState') == 'active', 'boot 2: the helper was activated again for status', u2)

    if a.with_check == '1':
        check_through_helper(b2)
    else:
        check('check_bus' not in b2, 'boot 2: no check asked for on this suite, none ran',
              sorted(b2))

    metrics_in_sandbox(b1)

    failed = sum(1 for c in checks if not c)
    print(f'1..{len(checks)}')
    print(f'{len(checks) - failed} passed, {failed} failed')
    return 1 if failed else 0


def sandbox_sees_what_root_sees(b1):
    """the helper's answers equal those of the same code run as root outside any
    sandbox wherever they come from debugfs, the block device or /dev/kmsg"""
    for name in ('info', 'health'):
        rc_b, bus = js(b1, f'{name}_bus')
        rc_r, root = js(b1, f'{name}_root')
        check(rc_b == 0 and rc_r == 0 and bus is not None and root is not None,
              f'boot 1: `{name}` over the bus and with --root / both answer',
              f"{b1.get(f'{name}_bus')}\n{b1.get(f'{name}_root')}")
        if bus is None or root is None:
            continue
        diff = differences(bus, root, name)
        check(not diff, f'boot 1: the sandboxed helper sees what root sees ({name})',
              '\n'.join(diff))


def sample_names(text):
    return {re.split(r'[{ ]', line, 1)[0] for line in text.splitlines()
            if line and not line.startswith('#')}


def exposure(text):
    m = re.search(r'Overall exposure level for \S+: ([0-9.]+)', text)
    return float(m.group(1)) if m else None


def metrics_in_sandbox(b1):
    """issue 27: sd-tuner-metrics.service under its sandbox writes what the same command
    writes as root outside it: the kernel log (CAP_SYSLOG, /dev/kmsg bound into its
    private /dev) and debugfs (the clocks) readable, the file 0644, nothing else left"""
    unit = props(b1, 'metrics_unit')
    check(b1.get('metrics_start', (1, ''))[0] == 0 and unit.get('Result') == 'success'
          and unit.get('ExecMainStatus') == '0',
          'boot 1: sd-tuner-metrics.service ran and succeeded',
          f"{b1.get('metrics_start')}\n{unit}\n{b1.get('metrics_journal')}")
    rc, sandboxed = b1.get('metrics_file.out', (None, ''))
    rc_r, root = b1.get('metrics_root.out', (None, ''))
    want = sample_names(root)
    got = sample_names(sandboxed)
    check(rc == 0 and rc_r == 0 and want and got == want,
          f'boot 1: the sandboxed unit writes every sample root sees ({len(want)})',
          f'missing: {sorted(want - got)}\nextra: {sorted(got - want)}')
    check({'sdtuner_mmc_errors_total', 'sdtuner_bus_actual_clock_hertz'} <= got,
          'boot 1: in its sandbox it reads the kernel log and debugfs', sorted(got))
    check(b1.get('metrics_mode', (1, ''))[1].strip() == '644 root'
          and b1.get('metrics_folder', (1, ''))[1].split() == ['sdtuner.prom'],
          'boot 1: sdtuner.prom is 0644 and alone in the folder (no temporary file)',
          f"{b1.get('metrics_mode')} {b1.get('metrics_folder')}")
    check(b1.get('metrics_timer', (0, ''))[1].strip() == 'disabled',
          'boot 1: the package ships sd-tuner-metrics.timer disabled', b1.get('metrics_timer'))
    mine = exposure(b1.get('metrics_security', (0, ''))[1])
    helper = exposure(b1.get('helper_security', (0, ''))[1])
    print(f'# systemd-analyze security on the booted system: sd-tuner-metrics.service {mine}, '
          f'sd-tuner-helper.service {helper}')
    check(mine is not None and helper is not None and mine <= helper,
          f'boot 1: exposure of the metrics unit ({mine}) at most the helper\'s ({helper})',
          b1.get('metrics_security', (0, ''))[1][-3000:])


VOLATILE = re.compile(r'(uptime|time|since|seconds|bytes|writes|per_day|simulated|root|notes)')


def differences(a, b, path):
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if VOLATILE.search(k):
                continue
            out += differences(a.get(k), b.get(k), f'{path}.{k}')
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return sum((differences(x, y, f'{path}[{i}]') for i, (x, y) in enumerate(zip(a, b))), [])
    return [] if a == b else [f'{path}: bus {json.dumps(a)[:200]} != root {json.dumps(b)[:200]}']


if __name__ == '__main__':
    sys.exit(main())
