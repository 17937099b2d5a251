"""storrepro: reproductions of five cloud-storage papers."""

import sys

# jsonschema, which nbformat (the runner's papermill, the tests) imports, builds the Earley parser
# of rfc3987-syntax when it is installed, to check the "iri" format: about 3 s in every process,
# for a format no schema nbformat validates uses. Marked absent before anything imports it,
# jsonschema leaves that one format unchecked.
sys.modules.setdefault("rfc3987_syntax", None)
