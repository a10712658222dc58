#!/usr/bin/python3
"""fake-session-manager.py LOG - org.gnome.SessionManager on the test's session bus.

A stand-in, because no desktop session manager (gnome-session, lxsession) runs under
Xvfb here. GtkApplication's inhibit on X11 goes to org.gnome.SessionManager when that
name is on the session bus at start-up; this answers RegisterClient, Inhibit and
Uninhibit and writes one line per call to LOG ("inhibit FLAGS REASON" / "uninhibit
COOKIE"), so the GUI test can check that a benchmark holds off suspend and logout.
"""
import sys

from gi.repository import Gio, GLib

XML = """<node>
 <interface name='org.gnome.SessionManager'>
  <method name='RegisterClient'>
   <arg type='s' direction='in'/><arg type='s' direction='in'/><arg type='o' direction='out'/>
  </method>
  <method name='Inhibit'>
   <arg type='s' direction='in'/><arg type='u' direction='in'/><arg type='s' direction='in'/>
   <arg type='u' direction='in'/><arg type='u' direction='out'/>
  </method>
  <method name='Uninhibit'><arg type='u' direction='in'/></method>
  <method name='IsInhibited'><arg type='u' direction='in'/><arg type='b' direction='out'/></method>
 </interface>
</node>"""
CLIENT_XML = """<node><interface name='org.gnome.SessionManager.ClientPrivate'>
 <method name='EndSessionResponse'><arg type='b' direction='in'/><arg type='s' direction='in'/></method>
</interface></node>"""

log = open(sys.argv[1], 'a', buffering=1)
cookies = {}
state = {'next': 1}


def on_call(conn, sender, path, iface, method, params, inv):
    if method == 'RegisterClient':
        inv.return_value(GLib.Variant('(o)', ('/org/gnome/SessionManager/Client1',)))
    elif method == 'Inhibit':
        app_id, xid, reason, flags = params.unpack()
        cookie = state['next']
        state['next'] += 1
        cookies[cookie] = flags
        log.write(f'inhibit {flags} {reason}\n')
        inv.return_value(GLib.Variant('(u)', (cookie,)))
    elif method == 'Uninhibit':
        (cookie,) = params.unpack()
        log.write(f'uninhibit {cookie}\n')
        cookies.pop(cookie, None)
        inv.return_value(None)
    elif method == 'IsInhibited':
        (flags,) = params.unpack()
        inv.return_value(GLib.Variant('(b)', (any(f & flags for f in cookies.values()),)))
    else:
        inv.return_value(None)


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
bus.register_object('/org/gnome/SessionManager', Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0],
                    on_call, None, None)
bus.register_object('/org/gnome/SessionManager/Client1',
                    Gio.DBusNodeInfo.new_for_xml(CLIENT_XML).interfaces[0], on_call, None, None)
loop = GLib.MainLoop()


def acquired(conn, name):
    log.write('ready\n')


Gio.bus_own_name_on_connection(bus, 'org.gnome.SessionManager', Gio.BusNameOwnerFlags.NONE,
                               acquired, lambda *a: loop.quit())
loop.run()
