#!/usr/bin/env bash
# The client library's "Getting started" (Sources/CatalogClient/CatalogClient.docc/GettingStarted.md)
# and the README's work as written: every README block marked `<!-- package: … -->` or
# `<!-- sample: … -->` must be the page's block of the same mark, word for word, and the page's
# Package.swift (the block after `<!-- package: manifest -->`) is put in a
# fresh package in a temporary folder, its dependency pointed at this checkout through a folder
# whose name is not the package's (so `package: "Catalog"` must hold by itself), and the page's
# Swift samples (each block after `<!-- sample: NAME -->`) become the app's main.swift, which
# must build. It builds the client's closure from scratch, a few minutes.
#   scripts/getting-started-check.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
page="$root/Sources/CatalogClient/CatalogClient.docc/GettingStarted.md"
export PATH="/opt/swift/usr/bin:$PATH"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A folder name with a space for the app, another name than "catalog" for the checkout.
app="$work/My App"
mkdir -p "$app/Sources/MyApp"
ln -s "$root" "$work/checkout of the catalog"

python3 - "$page" "$app" "$root/README.md" <<'PY'
import re, sys
page, app, readme = sys.argv[1], sys.argv[2], sys.argv[3]
marked = re.compile(r"<!-- (package|sample): ([\w-]+) -->\n```swift\n(.*?)```", re.S)
text = open(page, encoding="utf-8").read()
blocks = marked.findall(text)
# The README shows some of the page's blocks: the same text, or it is not what is built here.
by_mark = {(kind, name): body for kind, name, body in blocks}
shown = marked.findall(open(readme, encoding="utf-8").read())
if not shown:
    sys.exit("getting-started-check: the README shows no marked block of the Getting started page")
for kind, name, body in shown:
    if by_mark.get((kind, name)) != body:
        sys.exit("getting-started-check: the README's block <!-- %s: %s --> is not the page's" % (kind, name))
manifests = [body for kind, _, body in blocks if kind == "package"]
if len(manifests) != 1:
    sys.exit("getting-started-check: the page must have one manifest block, it has %d" % len(manifests))
manifest = manifests[0]
if 'path: "../catalog"' not in manifest:
    sys.exit('getting-started-check: the manifest no longer depends on path: "../catalog"')
manifest = manifest.replace('path: "../catalog"', 'path: "../checkout of the catalog"')
open(app + "/Package.swift", "w", encoding="utf-8").write(manifest)
samples = [body for kind, _, body in blocks if kind == "sample"]
if not samples:
    sys.exit("getting-started-check: the page has no samples")
# Each sample in a function of its own (their names may repeat: `page`), given the client the
# first one makes.
main = ["import CatalogClient", "import Foundation", ""]
for index, body in enumerate(samples):
    main.append("func sample%d(client: CatalogClient) async throws {" % index)
    main += ["    " + line if line else "" for line in body.rstrip("\n").split("\n")]
    main.append("}")
    main.append("")
open(app + "/Sources/MyApp/main.swift", "w", encoding="utf-8").write("\n".join(main))
PY

cd "$app"
echo "getting-started-check: building the page's package in $app" >&2
if ! swift build --product MyApp >"$work/build.log" 2>&1; then
  cat "$work/build.log" >&2
  echo "getting-started-check: the Getting started page's package does not build as written" >&2
  exit 1
fi
echo "getting-started-check: the Getting started page builds as written" >&2
