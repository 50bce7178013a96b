#!/usr/bin/env python3
"""A V3 server read as a plain Python client of the AAS Part 2 API reads it: `requests`,
one request after the other, over the same routes `aasmd --v3 URL snapshot take` reads
(every page of /shells, then every page of /submodels, 100 items a page, following
paging_metadata.cursor), each page parsed as JSON.

Usage: v3_requests.py V3_URL
Prints one JSON line: {"requests": N, "seconds": T, "waited": W, "bytes": B, "shells": S,
"submodels": M}; `waited` the seconds from each request sent to its whole body received:
what any client reading these pages one after the other spends at least.
"""
import json
import sys
import time

import requests

PAGE = 100


def main():
    base = sys.argv[1].rstrip("/")
    session = requests.Session()
    started = time.perf_counter()
    count, size, held, waited = 0, 0, {}, 0.0
    for route in ("shells", "submodels"):
        items, cursor, seen = [], None, set()
        while True:
            params = {"limit": PAGE}
            if cursor:
                params["cursor"] = cursor
            asked = time.perf_counter()
            r = session.get(f"{base}/{route}", params=params, timeout=60)
            count += 1
            size += len(r.content)
            waited += time.perf_counter() - asked
            r.raise_for_status()
            page = r.json()
            items.extend(page["result"])
            cursor = page.get("paging_metadata", {}).get("cursor")
            if not page["result"] or not cursor or cursor in seen:
                break
            seen.add(cursor)
        held[route] = items
    took = time.perf_counter() - started
    print(json.dumps({"requests": count, "seconds": round(took, 3), "waited": round(waited, 3), "bytes": size,
                      "shells": len(held["shells"]), "submodels": len(held["submodels"])}))


if __name__ == "__main__":
    main()
