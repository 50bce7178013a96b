#!/usr/bin/env python3
"""The crawl as public sample clients of this gateway do it: plain `requests`, one
request after the other. Token, registry, the AAS of every asset type, the submodels of
every AAS, the elements of every submodel (the same requests as `aasmd crawl`).

Usage: crawl_requests.py DEMO_SERVICE_LINE_JSON [PLANT]
Prints one JSON line: {"requests": N, "seconds": T, "bytes": B}.
"""
import json
import sys
import time
from urllib.parse import quote

import requests

ASSET_TYPES = ["machine", "tool", "product", "material", "component", "user", "company", "site"]


def seg(text):
    return quote(text, safe="")


def main():
    conf = json.load(open(sys.argv[1]))
    plant = sys.argv[2] if len(sys.argv) > 2 else conf["plants"][0]
    gateway = conf["gateway_url"].rstrip("/")
    started = time.perf_counter()
    session = requests.Session()
    count, size = 0, 0

    def get(url, headers, params=None):
        nonlocal count, size
        r = session.get(url, headers=headers, params=params, timeout=60)
        count += 1
        size += len(r.content)
        r.raise_for_status()
        return r.json()

    token = session.post(
        f"{conf['auth_url'].rstrip('/')}/auth/realms/{seg(conf['realm'])}/protocol/openid-connect/token",
        data={
            "grant_type": "client_credentials",
            "client_id": conf["client_id"],
            "client_secret": conf["client_secret"],
        },
        timeout=60,
    )
    token.raise_for_status()
    bearer = {"Authorization": "Bearer " + token.json()["access_token"]}
    both = dict(bearer, UserToken="Bearer " + conf["user_token"])

    get(conf["registry_url"].rstrip("/") + "/api/v1/registry", bearer)
    for asset_type in ASSET_TYPES:
        shells = get(gateway + "/aasList", both, {"AssetType": asset_type, "PlantCode": plant})
        for aas in shells:
            base = f"{gateway}/aasList/{seg(aas['identification']['id'])}/aas/submodels"
            for sm in get(base, both):
                if sm.get("idShort"):
                    get(f"{base}/{seg(sm['idShort'])}/submodel/submodelElements", both)
    took = time.perf_counter() - started
    print(json.dumps({"requests": count, "seconds": round(took, 4), "bytes": size}))


if __name__ == "__main__":
    main()
