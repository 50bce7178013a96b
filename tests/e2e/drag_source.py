#!/usr/bin/python3
"""A drag source for the end-to-end tests, as a file manager is one: a small GTK window at
X, Y whose label drags the file named on the command line (`text/uri-list`, the file's
URI), to be dragged onto the app by the X server's own pointer (xdotool). Prints "ready"
once the window is on screen. Run by the system's Python, which has GTK's bindings
(python3-gi).

    drag_source.py FILE X Y
"""

import sys
from pathlib import Path

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402 (after the version is required)


def main():
    path, x, y = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    uri = Path(path).resolve().as_uri()
    window = Gtk.Window(title="drag source")
    window.set_default_size(160, 100)
    window.move(x, y)
    area = Gtk.EventBox()
    area.add(Gtk.Label(label=Path(path).name))
    window.add(area)
    area.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [Gtk.TargetEntry.new("text/uri-list", 0, 0)],
                         Gdk.DragAction.COPY)
    area.connect("drag-data-get", lambda _w, _c, data, _i, _t: data.set_uris([uri]))
    window.connect("map-event", lambda *_: print("ready", flush=True))
    window.connect("destroy", Gtk.main_quit)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
