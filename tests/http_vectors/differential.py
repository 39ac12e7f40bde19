#!/usr/bin/python3
"""Differential run of the front end's request parser against two independent HTTP/1.1
parsers: Node's llhttp (llhttp_verdicts.mjs) and python3-h11 (Debian), on every vector of
vectors.json. Our parser's answer is `ours` in the file (the unit test
request_parser_vectors_test.cpp holds the parser to it, fed at every split point).

A verdict is "reject", "incomplete" or the list of requests parsed (method, target,
body). Where another parser's verdict differs from ours, the vector pins that verdict
under "llhttp" / "h11" with a "why" reviewed once: this script fails when a disagreement
is not pinned, when a pin no longer holds, or when a pinned disagreement has no reason.

  tests/http_vectors/differential.py [--node node] [--write]

--write prints the verdicts of both parsers for every disagreement, to review and pin.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "vectors.json")

import h11  # noqa: E402  (python3-h11)


def raw_of(raw):
    parts = [raw] if isinstance(raw, str) else raw
    out = b""
    for p in parts:
        out += (p if isinstance(p, str) else p["repeat"] * p["times"]).encode("latin-1")
    return out


def h11_verdict(raw):
    conn = h11.Connection(h11.SERVER, max_incomplete_event_size=64 * 1024)
    conn.receive_data(raw)
    conn.receive_data(b"")  # the client closed its side: the end of the bytes
    requests, current = [], None
    try:
        while True:
            event = conn.next_event()
            if isinstance(event, h11.Request):
                current = {"method": event.method.decode("latin-1"), "target": event.target.decode("latin-1"), "body": ""}
            elif isinstance(event, h11.Data):
                current["body"] += bytes(event.data).decode("latin-1")
            elif isinstance(event, h11.EndOfMessage):
                requests.append(current)
                current = None
                conn.send(h11.Response(status_code=200, headers=[("Content-Length", "0")]))
                conn.send(h11.EndOfMessage())
                conn.start_next_cycle()
            elif event is h11.NEED_DATA or event is h11.PAUSED:
                break
            elif isinstance(event, h11.ConnectionClosed):
                break
    except h11.RemoteProtocolError as e:
        return {"reject": str(e)}
    except h11.LocalProtocolError as e:  # e.g. the client closed before we could answer
        if current is not None:
            return "incomplete"
        return {"requests": requests} if requests else {"reject": str(e)}
    if current is not None or conn.their_state not in (h11.IDLE, h11.DONE, h11.CLOSED, h11.MUST_CLOSE):
        return "incomplete"
    return {"requests": requests}


def normalise(verdict):
    """reject | incomplete | [(method, target, body), ...]"""
    if verdict == "incomplete":
        return "incomplete"
    if "reject" in verdict or "status" in verdict and verdict["status"]:
        return "reject"
    if verdict.get("incomplete"):
        return "incomplete"
    return [(r["method"], r["target"], r["body"]) for r in verdict.get("requests", [])]


def main():
    node = "node"
    write = "--write" in sys.argv
    if "--node" in sys.argv:
        node = sys.argv[sys.argv.index("--node") + 1]
    with open(VECTORS, encoding="utf-8") as f:
        vectors = json.load(f)["vectors"]
    out = subprocess.run([node, os.path.join(HERE, "llhttp_verdicts.mjs"), VECTORS], check=True, capture_output=True)
    llhttp = {v["name"]: v["verdict"] for v in json.loads(out.stdout)}
    problems, disagreements = [], 0
    for v in vectors:
        ours = normalise(v["ours"])
        for parser, verdict in (("llhttp", llhttp[v["name"]]), ("h11", h11_verdict(raw_of(v["raw"])))):
            theirs = normalise(verdict)
            pin = v.get(parser)
            if theirs == ours:
                if pin is not None:
                    problems.append(f"{v['name']}: {parser} now agrees with ours; drop its pin")
                continue
            disagreements += 1
            if write:
                print(json.dumps({"name": v["name"], "parser": parser, "ours": v["ours"], "theirs": verdict}))
            if pin is None:
                problems.append(f"{v['name']}: {parser} disagrees ({verdict}) and the vector has no pin")
            elif normalise(pin["verdict"]) != theirs:
                problems.append(f"{v['name']}: {parser} answers {verdict}, pinned {pin['verdict']}")
            elif not pin.get("why"):
                problems.append(f"{v['name']}: the {parser} pin has no reason")
    print(f"{len(vectors)} vectors, 2 parsers, {disagreements} disagreements with ours", file=sys.stderr)
    for p in problems:
        print("FAIL " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
