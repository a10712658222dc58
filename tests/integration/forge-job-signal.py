#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""forge-job-signal.py - a local user forging a benchmark result on the system bus.

Any user may emit signals on the system bus, and job paths are predictable. As soon
as a job of sd-tuner-helper shows progress (its PropertiesChanged), this emits that
job's Completed signal with invented numbers, both broadcast and sent straight to
every other connection on the bus, every 50 ms until it is killed. Prints "ready"
once subscribed and one "forged PATH" line per round. Used by test_cli_bus.py."""
import json

from gi.repository import Gio, GLib

FORGED = json.dumps({
    'target': {'path': '/forged', 'device': 'forged', 'filesystem': 'ext4',
               'stand_in': False},
    'profile': 'quick',
    'tests': [{'name': name, 'block_size': 4096, 'queue_depth': 1, 'mb_s': 999999.0,
               'iops': 999999.0, 'seconds': 1.0}
              for name in ('seq-write', 'rand-4k-write-qd32', 'rand-4k-read-qd32', 'seq-read',
                           'rand-4k-write-qd1', 'rand-4k-read-qd1')],
    'notes': [],
    'verdict': {'a1': True, 'a2': True, 'seq_write_mb_s': 999999.0, 'read_iops': 999999.0,
                'write_iops': 999999.0, 'seconds': 1.0},
    'ceiling_mb_s': None,
})

conn = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
state = {'path': None, 'helper': None}


def bus_call(method, args, reply):
    return conn.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
                          method, args, GLib.VariantType(reply), Gio.DBusCallFlags.NONE, -1,
                          None).unpack()


def emit():
    names = bus_call('ListNames', None, '(as)')[0]
    targets = [None] + [n for n in names if n.startswith(':') and
                        n not in (conn.get_unique_name(), state['helper'])]
    for dest in targets:
        try:
            conn.emit_signal(dest, state['path'], 'org.example.SdTuner1.Job', 'Completed',
                             GLib.Variant('(sss)', (FORGED, '', '')))
        except GLib.Error:
            pass
    conn.flush_sync(None)
    print(f'forged {state["path"]}', flush=True)
    return GLib.SOURCE_CONTINUE


def on_properties(_conn, sender, path, _iface, _signal, _params):
    if state['path'] is None and path.startswith('/org/example/SdTuner1/jobs/'):
        state['path'] = path
        state['helper'] = sender
        emit()
        GLib.timeout_add(50, emit)


conn.signal_subscribe(None, 'org.freedesktop.DBus.Properties', 'PropertiesChanged', None, None,
                      Gio.DBusSignalFlags.NONE, on_properties)
# the subscription's AddMatch is on the bus once a round trip has completed
bus_call('GetId', None, '(s)')
print('ready', flush=True)
GLib.MainLoop().run()
