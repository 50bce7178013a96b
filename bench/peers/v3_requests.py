#!/usr/bin/env python3
"""A V3 server read as a plain Python client of the AAS Part 2 API reads it: `requests`,
one request after the other, each answer parsed as JSON. Two ways, both over routes
`aasmd --v3 URL snapshot take` reads:

- listed (the default): every page of /shells, then every page of /submodels, 100 items
  a page, following paging_metadata.cursor;
- --by-id: every page of /shells, then each submodel a shell names by its id,
  /submodels/{base64url id}, as a client that follows the shells' references does (and
  as the platform's V2 gateway is read, node by node).

Usage: v3_requests.py [--by-id] V3_URL
Prints one JSON line: {"requests": N, "seconds": T, "waited": W, "bytes": B, "shells": S,
"submodels": M}; `waited` the seconds from each request sent to its whole body received:
what any client making these requests one after the other spends at least.
"""
import base64
import json
import sys
import time

import requests

PAGE = 100


class Client:
    def __init__(self, base):
        self.base = base.rstrip("/")
        self.session = requests.Session()
        self.requests, self.bytes, self.waited = 0, 0, 0.0

    def get(self, path, params=None):
        asked = time.perf_counter()
        r = self.session.get(f"{self.base}/{path}", params=params, timeout=60)
        self.requests += 1
        self.bytes += len(r.content)
        self.waited += time.perf_counter() - asked
        r.raise_for_status()
        return r.json()

    def listed(self, route):
        items, cursor, seen = [], None, set()
        while True:
            params = {"limit": PAGE}
            if cursor:
                params["cursor"] = cursor
            page = self.get(route, params)
            items.extend(page["result"])
            cursor = page.get("paging_metadata", {}).get("cursor")
            if not page["result"] or not cursor or cursor in seen:
                return items
            seen.add(cursor)


def submodel_ids(shell):
    """The id each of the shell's references names: its last key of type Submodel."""
    for reference in shell.get("submodels") or []:
        keys = [k for k in reference.get("keys") or [] if k.get("type") == "Submodel"]
        if keys:
            yield keys[-1]["value"]


def encoded(identifier):
    return base64.urlsafe_b64encode(identifier.encode()).decode().rstrip("=")


def main():
    by_id = "--by-id" in sys.argv[1:]
    client = Client([a for a in sys.argv[1:] if a != "--by-id"][0])
    started = time.perf_counter()
    shells = client.listed("shells")
    if by_id:
        ids = dict.fromkeys(i for shell in shells for i in submodel_ids(shell))
        submodels = [client.get(f"submodels/{encoded(i)}") for i in ids]
    else:
        submodels = client.listed("submodels")
    took = time.perf_counter() - started
    print(json.dumps({"requests": client.requests, "seconds": round(took, 3), "waited": round(client.waited, 3),
                      "bytes": client.bytes, "shells": len(shells), "submodels": len(submodels)}))


if __name__ == "__main__":
    main()
