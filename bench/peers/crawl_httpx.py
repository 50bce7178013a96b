#!/usr/bin/env python3
"""The crawl with `httpx` and asyncio: every request is a task, at most CONCURRENCY in
flight (a semaphore, and as many pooled connections). Token, registry, the AAS of every
asset type, the submodels of every AAS, the elements of every submodel (the same
requests as `aasmd crawl`).

Usage: crawl_httpx.py DEMO_SERVICE_LINE_JSON [CONCURRENCY] [PLANT]
Prints one JSON line: {"requests": N, "seconds": T, "bytes": B, "concurrency": C}.
"""
import asyncio
import json
import sys
import time
from urllib.parse import quote

import httpx

ASSET_TYPES = ["machine", "tool", "product", "material", "component", "user", "company", "site"]


def seg(text):
    return quote(text, safe="")


async def crawl(conf, plant, concurrency):
    gateway = conf["gateway_url"].rstrip("/")
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    sem = asyncio.Semaphore(concurrency)
    count, size = 0, 0
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        token = await client.post(
            f"{conf['auth_url'].rstrip('/')}/auth/realms/{seg(conf['realm'])}/protocol/openid-connect/token",
            data={
                "grant_type": "client_credentials",
                "client_id": conf["client_id"],
                "client_secret": conf["client_secret"],
            },
        )
        token.raise_for_status()
        bearer = {"Authorization": "Bearer " + token.json()["access_token"]}
        both = dict(bearer, UserToken="Bearer " + conf["user_token"])

        async def get(url, headers, params=None):
            nonlocal count, size
            async with sem:
                r = await client.get(url, headers=headers, params=params)
            count += 1
            size += len(r.content)
            r.raise_for_status()
            return r.json()

        async def elements(base, sm):
            await get(f"{base}/{seg(sm)}/submodel/submodelElements", both)

        async def submodels(aas_id):
            base = f"{gateway}/aasList/{seg(aas_id)}/aas/submodels"
            sms = await get(base, both)
            await asyncio.gather(*(elements(base, sm["idShort"]) for sm in sms if sm.get("idShort")))

        async def shells(asset_type):
            found = await get(gateway + "/aasList", both, {"AssetType": asset_type, "PlantCode": plant})
            await asyncio.gather(*(submodels(aas["identification"]["id"]) for aas in found))

        await asyncio.gather(
            get(conf["registry_url"].rstrip("/") + "/api/v1/registry", bearer),
            *(shells(t) for t in ASSET_TYPES),
        )
    return count, size


def main():
    conf = json.load(open(sys.argv[1]))
    concurrency = int(sys.argv[2]) if len(sys.argv) > 2 else 32
    plant = sys.argv[3] if len(sys.argv) > 3 else conf["plants"][0]
    started = time.perf_counter()
    count, size = asyncio.run(crawl(conf, plant, concurrency))
    took = time.perf_counter() - started
    print(json.dumps({"requests": count, "seconds": round(took, 4), "bytes": size, "concurrency": concurrency}))


if __name__ == "__main__":
    main()
