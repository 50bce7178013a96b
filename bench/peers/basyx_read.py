"""Eclipse BaSyx Python SDK's own AASX reader reading one package whole: the peer of
bench/file-open.sh. Run with the Python that has basyx-python-sdk (the virtual
environment scripts/install-deps.sh test makes). Prints one JSON line: the seconds the
reading took by its own clock, and the shells and submodels it read."""

import json
import sys
import time

from basyx.aas import model
from basyx.aas.adapter import aasx

start = time.monotonic()
objects = model.DictObjectStore()
files = aasx.DictSupplementaryFileContainer()
with aasx.AASXReader(sys.argv[1]) as reader:
    reader.read_into(objects, files)
seconds = time.monotonic() - start
print(json.dumps({
    "seconds": round(seconds, 2),
    "shells": sum(isinstance(o, model.AssetAdministrationShell) for o in objects),
    "submodels": sum(isinstance(o, model.Submodel) for o in objects),
}))
