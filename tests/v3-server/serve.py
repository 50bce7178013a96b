"""Serves AAS files over the AAS Part 2 HTTP API (V3.0) with Eclipse BaSyx Python SDK's
own server (basyx.aas.adapter.http.WSGIApp): an independent V3 server for our tests.

    serve.py FILE...   AASX packages, or environments as JSON or XML (V3.0)

Listens on 127.0.0.1 at a free port and prints one JSON line on stdout,
{"url": "http://127.0.0.1:PORT/api/v3.0", "shells": N, "submodels": N}, then serves until
killed. Each request is logged on stderr.
"""

import json
import sys

from basyx.aas import model
from basyx.aas.adapter import aasx
from basyx.aas.adapter.http import WSGIApp
from basyx.aas.adapter.json import read_aas_json_file
from basyx.aas.adapter.xml import read_aas_xml_file
from werkzeug.serving import make_server


def load(paths):
    objects = model.DictObjectStore()
    files = aasx.DictSupplementaryFileContainer()
    for path in paths:
        if path.lower().endswith(".aasx"):
            with aasx.AASXReader(path) as reader:
                reader.read_into(objects, files)
        elif path.lower().endswith(".xml"):
            with open(path, "rb") as f:
                objects.update(read_aas_xml_file(f))
        else:
            with open(path, encoding="utf-8-sig") as f:
                objects.update(read_aas_json_file(f))
    return objects, files


def main():
    objects, files = load(sys.argv[1:])
    server = make_server("127.0.0.1", 0, WSGIApp(objects, files), threaded=True)
    count = lambda kind: sum(isinstance(o, kind) for o in objects)
    print(json.dumps({
        "url": f"http://127.0.0.1:{server.server_port}/api/v3.0",
        "shells": count(model.AssetAdministrationShell),
        "submodels": count(model.Submodel),
    }), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
