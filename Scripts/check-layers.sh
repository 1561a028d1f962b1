#!/usr/bin/env bash
# The faces only map types and run lifecycles: no file under
# Sources/Speech/Legacy or Sources/Speech/Modern may import the engine. The
# Bridge imports it `internal`, so its types cannot leak into the faces'
# signatures either. Run by Scripts/test.sh (and so by CI).
set -euo pipefail
cd "$(dirname "$0")/.."
offenders=$(grep -lE '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]+(class[[:space:]]+|struct[[:space:]]+|enum[[:space:]]+|func[[:space:]]+)?SpeechEngine\b' \
    Sources/Speech/Legacy/*.swift Sources/Speech/Modern/*.swift || true)
if [ -n "$offenders" ]; then
    echo "error: these face files import SpeechEngine; go through Sources/Speech/Bridge instead:" >&2
    echo "$offenders" >&2
    exit 1
fi
bridge_public=$(grep -lE '^[[:space:]]*(@_exported[[:space:]]+)?(public[[:space:]]+|package[[:space:]]+)?import[[:space:]]+SpeechEngine\b' Sources/Speech/Bridge/*.swift \
    | xargs -r grep -LE '^[[:space:]]*internal[[:space:]]+import[[:space:]]+SpeechEngine\b' || true)
if [ -n "$bridge_public" ]; then
    echo "error: Bridge files must import SpeechEngine as 'internal import':" >&2
    echo "$bridge_public" >&2
    exit 1
fi
echo "check-layers: faces do not import SpeechEngine; the Bridge imports it internal"
