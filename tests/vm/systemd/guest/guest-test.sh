#!/bin/sh
# guest-test.sh - runs in the booted card (sdt-vm-test.service), one phase per boot:
#   boot 1: the helper through D-Bus activation under its unit, then apply + reboot
#   boot 2: what sd-tuner-verify.service decided at boot, the boot's critical chain
# Each result is one console line "@@SDT-RESULT NONCE NAME RC BASE64(stdout)" (and
# NAME.err with its stderr, when there is any), so
# kernel or systemd messages cannot land inside it; "### " lines are progress.
# The host (tests/vm/systemd/check-results.py) decodes and asserts.
set -u
NONCE=$(cat /etc/sdt-vm-test/nonce)
STATE=/var/lib/sdt-vm-test
mkdir -p "$STATE"
echo 1 >/proc/sys/kernel/printk   # keep kernel messages off the console meanwhile

sec() { echo "### $* (uptime $(cut -d' ' -f1 /proc/uptime))"; }
# result NAME CMD...: run CMD, print its exit status and output as one line
result() {
  name=$1
  shift
  "$@" >"$STATE/out" 2>"$STATE/err"
  rc=$?
  line "$name" "$rc" "$STATE/out"
  [ ! -s "$STATE/err" ] || line "$name.err" "$rc" "$STATE/err"
}
line() {
  { printf '@@SDT-RESULT %s %s %s ' "$NONCE" "$1" "$2"; base64 -w0 <"$3"; echo; } >"$STATE/line"
  cat "$STATE/line"   # one write(): another writer on the console cannot cut into it
}
as_pi() { runuser -u pi -- "$@"; }
helper_pid() {
  busctl --system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
    GetConnectionUnixProcessID s org.example.SdTuner1 | awk '{print $2}'
}
# the helper's process as the kernel sees it: unit (cgroup), sandbox, capabilities
helper_proc() {
  pid=$(helper_pid) || return 1
  echo "bus_pid=$pid"
  echo "unit_main_pid=$(systemctl show -p MainPID --value sd-tuner-helper.service)"
  echo "cgroup=$(cat /proc/"$pid"/cgroup)"
  grep -E '^(NoNewPrivs|CapBnd|CapEff|Seccomp):' /proc/"$pid"/status
  echo "mnt_ns_differs=$([ "$(readlink /proc/"$pid"/ns/mnt)" != "$(readlink /proc/1/ns/mnt)" ] && echo yes || echo no)"
}
# the mount table as the helper sees it inside its sandbox
helper_mountinfo() { cat /proc/"$(helper_pid)"/mountinfo; }
# the inhibitors logind holds now, one per line (systemd-inhibit --list)
inhibitors() { systemd-inhibit --list --no-pager --no-legend 2>&1; }
# waits (up to 120 s) until logind lists SD Tuner's inhibitor; prints the list
wait_inhibitor() {
  i=0
  while [ $i -lt 240 ]; do
    inhibitors | grep -q 'SD Tuner' && break
    sleep 0.5
    i=$((i + 1))
  done
  inhibitors
}
# a benchmark through the helper with logind's list read while it runs
bench_inhibited() {
  sdtunerctl --json bench --profile quick >"$STATE/bench.out" 2>"$STATE/bench.err" &
  bpid=$!
  wait_inhibitor >"$STATE/inhibit_during"
  wait $bpid
  rc=$?
  line bench_bus "$rc" "$STATE/bench.out"
  [ ! -s "$STATE/bench.err" ] || line bench_bus.err "$rc" "$STATE/bench.err"
  line inhibit_during 0 "$STATE/inhibit_during"
}
# the helper killed (SIGKILL) in the middle of a benchmark: the kernel closes the
# inhibitor's file descriptor, logind drops it
bench_killed() {
  sdtunerctl --json bench --profile quick >/dev/null 2>&1 &
  bpid=$!
  wait_inhibitor | grep 'SD Tuner'
  kill -KILL "$(helper_pid)"
  wait $bpid
  sleep 1
  echo "after kill:"
  inhibitors
}
unit_props() {
  systemctl show -p ActiveState -p SubState -p Result -p ExecMainStatus \
    -p ExecMainStartTimestampMonotonic -p ExecMainExitTimestampMonotonic \
    -p InactiveEnterTimestampMonotonic -p ActiveEnterTimestampMonotonic -p Type "$1"
}

phase=$(cat "$STATE/phase" 2>/dev/null || echo 1)
sec "SDT-PHASE $phase"
result boot_id cat /proc/sys/kernel/random/boot_id
result is_system_running timeout 1500 systemctl is-system-running --wait
result failed_units systemctl --failed --no-legend --plain

if [ "$phase" = 1 ]; then
  result helper_before systemctl is-active sd-tuner-helper.service
  # a normal user: GetInfo and GetStatus need no authorization
  result info_bus as_pi sdtunerctl --json info
  result helper_unit unit_props sd-tuner-helper.service
  result helper_proc helper_proc
  result helper_mountinfo helper_mountinfo
  result health_bus as_pi sdtunerctl --json health
  # the same library outside any sandbox, as root: what the helper must also see
  result info_root sdtunerctl --root / --json info
  result health_root sdtunerctl --root / --json health
  result recommend_bus as_pi sdtunerctl --json recommend
  # issue 27: the metrics unit under its sandbox (node_exporter's textfile folder made by
  # hand: the package only suggests node_exporter), against the same command unsandboxed
  mkdir -p /var/lib/prometheus/node-exporter
  result metrics_start systemctl start sd-tuner-metrics.service
  result metrics_unit unit_props sd-tuner-metrics.service
  result metrics_journal journalctl -b -o cat -u sd-tuner-metrics.service
  result metrics_file cat /var/lib/prometheus/node-exporter/sdtuner.prom
  result metrics_mode stat -c '%a %U' /var/lib/prometheus/node-exporter/sdtuner.prom
  result metrics_folder sh -c 'ls -A /var/lib/prometheus/node-exporter'
  result metrics_root sdtunerctl metrics
  result metrics_timer systemctl is-enabled sd-tuner-metrics.timer
  result metrics_security systemd-analyze security --no-pager sd-tuner-metrics.service
  result helper_security systemd-analyze security --no-pager sd-tuner-helper.service
  # the benchmark through the helper: its test file goes on the card's root file
  # system, which the unit's ProtectSystem=strict leaves read-only but for its state dir
  sec "bench --profile quick"
  bench_inhibited
  result inhibit_after inhibitors
  result helper_journal journalctl -b -o cat -u sd-tuner-helper.service
  sec "bench killed"
  result inhibit_killed bench_killed
  id=$(sdtunerctl --json recommend | sed -n 's/.*"id" *: *"\(sd-overclock-[0-9]*\)".*/\1/p' | head -n 1)
  sec "apply ${id:-<none>}"
  # root: polkitd authorizes uid 0 without an agent
  result apply_bus sdtunerctl --json apply "${id:-sd-overclock-100}"
  result status_bus_1 as_pi sdtunerctl --json status
  result pending test -s /var/lib/sd-tuner/pending.json
  result dbus_journal journalctl -b -o cat -u dbus.service
  echo 2 >"$STATE/phase"
  sync
  sec "SDT-REBOOT"
  systemctl reboot
  exit 0
fi

# boot 2: sd-tuner-verify.service was started by this boot; wait for its end
i=0
while [ $i -lt 1500 ]; do
  st=$(systemctl show -p ActiveState --value sd-tuner-verify.service)
  [ "$st" = activating ] || [ "$st" = active ] || [ "$st" = reloading ] || break
  sleep 2
  i=$((i + 2))
done
result verify_unit unit_props sd-tuner-verify.service
result verify_journal journalctl -b -o cat -u sd-tuner-verify.service
result target_unit unit_props multi-user.target
result target_after systemctl show -p After --value multi-user.target
result verify_deps systemctl show -p Before -p After -p WantedBy -p DefaultDependencies sd-tuner-verify.service
result is_system_running_2 timeout 600 systemctl is-system-running --wait
result critical_chain systemd-analyze critical-chain --no-pager multi-user.target
result analyze_time systemd-analyze time
result analyze_verify systemd-analyze verify --man=no sd-tuner-verify.service sd-tuner-helper.service \
  sd-tuner-metrics.service sd-tuner-metrics.timer
result status_bus_2 as_pi sdtunerctl --json status
result history_bus as_pi sdtunerctl --json history
result helper_unit_2 unit_props sd-tuner-helper.service
result config_sha256 sha256sum /boot/firmware/config.txt
result pending_left sh -c 'ls -A /var/lib/sd-tuner'
# the fake check through the helper under its unit and sandbox (issue 33): it reserves
# the free space, writes raw to the card inside it (O_DIRECT on the disk node) and
# freezes the file system around each batch; then nothing of it may be left
if [ -e /etc/sdt-vm-test/check ]; then
  sec "check"
  result check_bus sdtunerctl --json check
  result check_left sh -c 'ls -A /var/lib/sd-tuner'
  result check_journal journalctl -b -o cat -u sd-tuner-helper.service
fi
echo 3 >"$STATE/phase"
sync
sec "SDT-DONE"
systemctl poweroff
