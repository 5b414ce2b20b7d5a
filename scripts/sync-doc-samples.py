#!/usr/bin/env python3
"""Copies every `// sample: NAME` … `// end` region of Sources/CatalogClientSamples into the code
block that follows `<!-- sample: NAME -->` in the CatalogClient DocC catalog, so the documentation
shows exactly the code the package compiles (DocumentationSamplesTests checks that they agree)."""
import glob
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
samples = {}
for path in sorted(glob.glob(os.path.join(root, "Sources/CatalogClientSamples/*.swift"))):
    lines = open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        start = re.match(r"^(\s*)// sample: (\S+)$", lines[index])
        if start:
            indent, name, body = len(start.group(1)), start.group(2), []
            index += 1
            while lines[index].strip() != "// end":
                body.append(lines[index][indent:] if lines[index].strip() else "")
                index += 1
            samples[name] = "\n".join(body)
        index += 1

missing = []
for path in sorted(glob.glob(os.path.join(root, "Sources/CatalogClient/CatalogClient.docc/*.md"))):
    text = open(path, encoding="utf-8").read()

    def fill(match):
        name = match.group(1)
        if name not in samples:
            missing.append(name)
            return match.group(0)
        return f"<!-- sample: {name} -->\n```swift\n{samples[name]}\n```"

    updated = re.sub(r"<!-- sample: (\S+) -->\n```swift\n.*?```", fill, text, flags=re.S)
    if updated != text:
        open(path, "w", encoding="utf-8").write(updated)
        print(f"updated {os.path.relpath(path, root)}")
if missing:
    sys.exit(f"no such samples: {', '.join(missing)}")
