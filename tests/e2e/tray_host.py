"""A tray host for the end-to-end session: the StatusNotifierWatcher a desktop's
panel runs (KDE, GNOME with AppIndicator support, waybar...), on the session bus.

The app's tray icon (libayatana-appindicator under Tauri) registers with it, as it
would with a real panel; tests then read the item's icon and its menu and click menu
items over com.canonical.dbusmenu, exactly as a panel does. Registered items are
written one JSON object per line to the file named on the command line, so tests can
find the item of the app they started.

Run: python tray_host.py ITEMS_FILE
"""

import asyncio
import json
import sys

from dbus_fast import BusType, Message, MessageType, Variant
from dbus_fast.aio import MessageBus

NAME = "org.kde.StatusNotifierWatcher"
PATH = "/StatusNotifierWatcher"


async def main(items_file):
    bus = await MessageBus(bus_type=BusType.SESSION).connect()
    items = []

    def properties():
        return {
            "RegisteredStatusNotifierItems": Variant("as", [f"{s}{p}" for s, p in items]),
            "IsStatusNotifierHostRegistered": Variant("b", True),
            "ProtocolVersion": Variant("i", 0),
        }

    def handle(msg):
        if msg.message_type != MessageType.METHOD_CALL or msg.path != PATH:
            return None
        if msg.member == "RegisterStatusNotifierItem":
            arg = msg.body[0]
            # An item names its object path (its sender is the service) or a bus name.
            service, path = (msg.sender, arg) if arg.startswith("/") else (arg, "/StatusNotifierItem")
            items.append((service, path))
            with open(items_file, "a") as f:
                f.write(json.dumps({"service": service, "path": path}) + "\n")
            bus.send(Message.new_signal(PATH, NAME, "StatusNotifierItemRegistered", "s", [f"{service}{path}"]))
            return Message.new_method_return(msg)
        if msg.member == "RegisterStatusNotifierHost":
            return Message.new_method_return(msg)
        if msg.member == "GetAll":
            return Message.new_method_return(msg, "a{sv}", [properties()])
        if msg.member == "Get":
            return Message.new_method_return(msg, "v", [properties()[msg.body[1]]])
        return Message.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", msg.member)

    bus.add_message_handler(handle)
    await bus.request_name(NAME)
    with open(items_file, "a") as f:
        f.write(json.dumps({"ready": True}) + "\n")
    try:
        await bus.wait_for_disconnect()
    except EOFError:
        pass  # the session bus went away: the session is over


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
