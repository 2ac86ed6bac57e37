"""Plumbing for Zebra bots written in Python (standard library only).

Zebra writes one JSON object per line to the bot's stdin and reads one per line from
its stdout (see protocol/PROTOCOL.md). This module reads and writes those lines:

    import zebra_bot

    def decide(request):              # the whole `request` message, as a dict
        legal = request["legal"]      # None for formations
        return legal[0]

    zebra_bot.run(decide, name="first")

`run` answers `hello` with `ready`, `ping` with `pong`, each `request` with the action
`decide` returns, and returns on `quit` or at the end of stdin. Logs go to stderr: stdout
carries only protocol.
"""

import json
import sys
import traceback

PROTOCOL_VERSION = 1


def log(*parts):
    """Writes a line to stderr (never to stdout, which carries only protocol)."""
    print(*parts, file=sys.stderr, flush=True)


def read_message(stream=None):
    """The next message from the referee as a dict, or None at the end of input.

    Skips blank lines, a byte-order mark, and lines that are not JSON objects (logged).
    """
    stream = stream if stream is not None else sys.stdin.buffer
    while True:
        raw = stream.readline()
        if not raw:
            return None
        try:
            text = raw.decode("utf-8-sig").strip()
        except UnicodeDecodeError:
            log("zebra_bot: skipped a line that is not UTF-8")
            continue
        if not text:
            continue
        try:
            msg = json.loads(text)
        except ValueError as e:
            log(f"zebra_bot: skipped a line that is not JSON ({e})")
            continue
        if isinstance(msg, dict) and isinstance(msg.get("type"), str):
            return msg
        log("zebra_bot: skipped a line that is not a message")


def send(msg, stream=None):
    """Writes one message as one line and flushes it (an unflushed reply is not sent)."""
    stream = stream if stream is not None else sys.stdout
    stream.write(json.dumps(msg, separators=(",", ":")) + "\n")
    stream.flush()


def send_action(request_id, action, stream=None):
    """Answers request `request_id` with `action` in notation (`e4e5`, `snap`, `[Pd5,...]`)."""
    send({"type": "action", "id": request_id, "action": action}, stream)


def ready(name, author="", version="", options=None):
    """The `ready` message (the answer to `hello`)."""
    return {
        "type": "ready",
        "version": PROTOCOL_VERSION,
        "name": name,
        "author": author,
        "bot_version": version,
        "capabilities": [],
        "options": options or [],
    }


def fallback(request):
    """A safe answer when `decide` fails: the first legal action, else `pass`."""
    legal = request.get("legal") or []
    return legal[0] if legal else "pass"


def run(decide, name="python", author="", version="", options=None,
        on_game_start=None, on_message=None):
    """Serves the protocol until `quit` or the end of stdin.

    decide(request) -> str: the action for a `request` message (a dict).
    on_game_start(message): called with `game_start` (side, seed, options).
    on_message(message): called with every other message (result, event, game_end).
    """
    while True:
        msg = read_message()
        if msg is None:
            return
        kind = msg["type"]
        if kind == "hello":
            if PROTOCOL_VERSION not in msg.get("versions", []):
                log(f"zebra_bot: the referee offers {msg.get('versions')}; this module speaks 1")
            send(ready(name, author, version, options))
        elif kind == "ping":
            send({"type": "pong", "id": msg.get("id")})
        elif kind == "request":
            try:
                action = decide(msg)
            except Exception:  # a bug in decide must not cost the game its answer
                log(traceback.format_exc())
                action = None
            if not isinstance(action, str):
                action = fallback(msg)
            send_action(msg.get("id"), action)
        elif kind == "quit":
            return
        elif kind == "game_start":
            if on_game_start:
                on_game_start(msg)
        elif on_message:
            on_message(msg)
