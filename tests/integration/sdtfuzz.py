#!/usr/bin/python3
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
"""Random wrong calls to sd-tuner-helper: wrong signatures, random argument
types, 1 MB strings, ids with / or .., unknown ids, path-like ids, unknown
profiles and check modes, options of the wrong type, Cancel on jobs that do
not exist, writes to read-only properties, to every method of the Manager.
Every call must get an error.  With privileged_valid, calls with the right
signature to the privileged methods (Apply with a real id, Revert,
StartBenchmark, StartCheck, StartSoak, StartVerify) are mixed in: for an
unprivileged caller polkit must refuse them.

Used by test_helper.py in-process (run()), and as a command so that it can
run as another user:
    sdtfuzz.py [--total N] [--seed S] [--privileged-valid --id ID]
connects to $DBUS_SYSTEM_BUS_ADDRESS and prints a JSON summary; exit 1 if the
helper stopped answering.
"""

import argparse
import json
import random
import sys
import time

from gi.repository import Gio, GLib

BUS_NAME = 'org.example.SdTuner1'
MANAGER_PATH = '/org/example/SdTuner1'
MANAGER_IFACE = 'org.example.SdTuner1.Manager'
JOB_IFACE = 'org.example.SdTuner1.Job'
READ_METHODS = ['GetInfo', 'GetRecommendations', 'GetStatus', 'GetHistory', 'GetHealth',
                'GetDevices']
# the jobs that take only options: the right signature would start one
OPTIONS_JOBS = ['StartSoak', 'StartVerify']
PRIVILEGED = ['Apply', 'Revert', 'StartBenchmark', 'StartCheck'] + OPTIONS_JOBS


def _error_name(err):
    return Gio.DBusError.get_remote_error(err) or err.domain


def _message(err):
    name = Gio.DBusError.get_remote_error(err)
    prefix = f'GDBus.Error:{name}: '
    return err.message[len(prefix):] if name and err.message.startswith(prefix) else err.message


class Generator:
    def __init__(self, seed, privileged_valid=False, rec_id=None):
        self.rng = random.Random(seed)
        self.privileged_valid = privileged_valid
        self.rec_id = rec_id or 'sd-overclock-100'

    def value(self):
        rng = self.rng
        kind = rng.randrange(12)
        if kind == 0:
            return GLib.Variant('s', rng.choice(['', '..', '../..', '/', '/etc/shadow',
                                                 'a/../../b', 'sd-overclock-100/..', './x',
                                                 'x' * (1 << 20), '\u00e9' * 1000,
                                                 'id with spaces', 'Sd-Overclock']))
        if kind == 1:
            return GLib.Variant('i', rng.randint(-2**31, 2**31 - 1))
        if kind == 2:
            return GLib.Variant('b', rng.random() < 0.5)
        if kind == 3:
            return GLib.Variant('d', rng.random())
        if kind == 4:
            return GLib.Variant('o', '/' + '/'.join('x' * rng.randint(1, 9)
                                                     for _ in range(rng.randint(1, 5))))
        if kind == 5:
            return GLib.Variant('as', ['a'] * rng.randint(0, 50))
        if kind == 6:
            return GLib.Variant('ay', bytes(rng.randint(0, 255) for _ in range(64)))
        if kind == 7:
            return GLib.Variant('a{sv}', {'auth.no_user_interaction': GLib.Variant('s', 'true')})
        if kind == 8:
            return GLib.Variant('a{sv}', {'trial': GLib.Variant('i', 1)})
        if kind == 9:
            return GLib.Variant('a{ss}', {'trial': 'true'})
        if kind == 10:
            return GLib.Variant('v', GLib.Variant('s', 'x'))
        return GLib.Variant('(ss)', ('a', 'b'))

    def call(self):
        """(path, interface, method, parameters) of one call that must fail"""
        rng = self.rng
        kinds = 7 if self.privileged_valid else 6
        kind = rng.randrange(kinds)
        method = rng.choice(READ_METHODS + PRIVILEGED + ['NoSuchMethod', 'Cancel'])
        path, iface = MANAGER_PATH, MANAGER_IFACE
        if kind == 0:    # random arguments: almost never the right signature
            args = [self.value() for _ in range(rng.randint(0, 3))]
            sig = ''.join(a.get_type_string() for a in args)
            if method in READ_METHODS + OPTIONS_JOBS + ['Revert'] and sig == 'a{sv}':
                args = [GLib.Variant('s', 'x')] + args
            if method == 'Apply' and sig == 'sa{sv}':
                args[0] = GLib.Variant('s', '../' + args[0].get_string()[:10])
            if method in ('StartBenchmark', 'StartCheck') and sig == 'sa{sv}':
                args[0] = GLib.Variant('s', 'no-such-profile')
            params = GLib.Variant.new_tuple(*args) if args else None
        elif kind == 1:  # right signature, bad id or option
            method = 'Apply'
            opt = rng.choice([{}, {'auth.no_user_interaction': GLib.Variant('s', 'x')},
                              {'trial': GLib.Variant('ay', b'1')}])
            ident = rng.choice(['../config.txt', '/boot/firmware/config.txt', '..',
                                'x' * (1 << 20), 'unknown-id-%d' % rng.randint(0, 999),
                                'a/b', '%s%s' % ('.' * rng.randint(1, 3), 'x')])
            params = GLib.Variant('(sa{sv})', (ident, opt))
        elif kind == 2:  # right signature, bad profile or check mode
            method = rng.choice(['StartBenchmark', 'StartCheck'])
            params = GLib.Variant('(sa{sv})', (rng.choice(['', 'QUICK', '../quick', 'Full',
                                                           'x' * (1 << 20)]), {}))
        elif kind == 3:  # jobs that do not exist, path-like names
            path = rng.choice(['/org/example/SdTuner1/jobs/0',
                               '/org/example/SdTuner1/jobs/999999',
                               '/org/example/SdTuner1/jobs',
                               '/org/example/SdTuner1/x'])
            iface, method, params = JOB_IFACE, 'Cancel', None
        elif kind == 4:  # writing read-only properties
            iface, method = 'org.freedesktop.DBus.Properties', 'Set'
            params = GLib.Variant('(ssv)', (MANAGER_IFACE, rng.choice(
                ['Version', 'Simulated', 'NoSuch']), GLib.Variant('s', 'x')))
        elif kind == 5:  # options of the wrong type: the dictionary, or a known option's
            method = rng.choice(READ_METHODS + PRIVILEGED)
            bad = {'auth.no_user_interaction': GLib.Variant('s', 'yes')}
            if method in READ_METHODS:
                params = GLib.Variant('(a{ss})', ({'a': 'b'},))
            elif method in OPTIONS_JOBS + ['Revert']:
                params = GLib.Variant('(a{sv})', (bad,))
            elif method == 'Apply':
                params = GLib.Variant('(sa{sv})', (self.rec_id, bad))
            else:
                params = GLib.Variant('(sa{sv})', ('quick', bad))
        else:            # right signature, privileged: polkit must refuse
            opts = {'auth.no_user_interaction': GLib.Variant('b', rng.random() < 0.5)}
            method = rng.choice(PRIVILEGED)
            if method == 'Apply':
                params = GLib.Variant('(sa{sv})', (self.rec_id, opts))
            elif method in OPTIONS_JOBS + ['Revert']:
                params = GLib.Variant('(a{sv})', (opts,))
            elif method == 'StartCheck':
                params = GLib.Variant('(sa{sv})', ('quick', opts))
            else:
                params = GLib.Variant('(sa{sv})', (rng.choice(['quick', 'standard', 'full']),
                                                   opts))
        return path, iface, method, params


def run(conn, total=1000, seed=1, privileged_valid=False, rec_id=None, alive=None,
        batch_size=32):
    """sends total calls in batches (below the bus's 128 pending replies per
    connection) and calls alive() after every 200; returns a summary dict"""
    gen = Generator(seed, privileged_valid, rec_id)
    summary = {'total': total, 'ok': 0, 'errors': {}, 'samples': {}, 'alive_checks': 0,
               'methods': {}}
    answers = []
    ctx = GLib.MainContext.default()

    def done(c, res, _):
        try:
            c.call_finish(res)
            summary['ok'] += 1
        except GLib.Error as e:
            name = _error_name(e)
            summary['errors'][name] = summary['errors'].get(name, 0) + 1
            summary['samples'].setdefault(name, _message(e)[:160])
        answers.append(1)

    sent = 0
    while sent < total:
        batch = min(batch_size, total - sent)
        start = len(answers)
        for _ in range(batch):
            path, iface, method, params = gen.call()
            if iface == MANAGER_IFACE:
                summary['methods'][method] = summary['methods'].get(method, 0) + 1
            conn.call(BUS_NAME, path, iface, method, params, None, Gio.DBusCallFlags.NONE,
                      60000, None, done, None)
        sent += batch
        end = time.monotonic() + 120
        while len(answers) < start + batch:
            if time.monotonic() > end:
                raise TimeoutError('the helper stopped answering')
            if not ctx.iteration(False):
                time.sleep(0.005)
        if alive is not None and sent // 200 > summary['alive_checks']:
            alive()
            summary['alive_checks'] += 1
    return summary


def manager_methods(conn):
    """the Manager's methods as the helper introspects them"""
    reply = conn.call_sync(BUS_NAME, MANAGER_PATH, 'org.freedesktop.DBus.Introspectable',
                           'Introspect', None, GLib.VariantType('(s)'),
                           Gio.DBusCallFlags.NONE, 30000, None)
    node = Gio.DBusNodeInfo.new_for_xml(reply.unpack()[0])
    return {m.name for m in node.lookup_interface(MANAGER_IFACE).methods}


def describe(summary):
    lines = [f"fuzz: {summary['total']} calls, {summary['ok']} answered without error, "
             + ', '.join(f'{k} {v}' for k, v in sorted(summary['errors'].items()))]
    for k, v in sorted(summary['samples'].items()):
        lines.append(f'  e.g. {k}: {v}')
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--total', type=int, default=1000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--privileged-valid', action='store_true')
    ap.add_argument('--id', help='a real recommendation id for --privileged-valid')
    a = ap.parse_args()
    conn = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)

    def alive():
        reply = conn.call_sync(BUS_NAME, MANAGER_PATH, MANAGER_IFACE, 'GetInfo',
                               GLib.Variant('(a{sv})', ({},)), None, Gio.DBusCallFlags.NONE,
                               30000, None)
        if 'board' not in json.loads(reply.unpack()[0]):
            raise RuntimeError('GetInfo answered without a board')

    try:
        summary = run(conn, a.total, a.seed, a.privileged_valid, a.id, alive)
    except (GLib.Error, TimeoutError, RuntimeError) as e:
        print(f'the helper stopped answering: {e}', file=sys.stderr)
        return 1
    print(json.dumps(summary))
    return 0


if __name__ == '__main__':
    sys.exit(main())
