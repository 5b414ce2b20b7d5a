#!/usr/bin/env bash
# OpenAPI conformance: schemathesis (PyPI) against a live `catalog serve` on a loopback port,
# with the demo catalogs and an administrator's token in a throwaway database. Fails on any
# 5xx, undocumented status, or response that breaks the schema.
#   scripts/api-conformance.sh [CATALOG_BINARY]
# CATALOG_CONFORMANCE_DB=LOCATION uses that (empty) database instead of a throwaway SQLite file,
# e.g. a postgres:// URL (scripts/test-postgres.sh does).
set -euo pipefail

binary="${1:-.build/debug/catalog}"
examples="${SCHEMATHESIS_EXAMPLES:-40}"
# A fixed seed makes `make test` reproducible: a failure is the same failure on every machine and
# every run. SCHEMATHESIS_SEED=random explores new cases (do that when changing the API).
seed="${SCHEMATHESIS_SEED:-20261201}"
seed_args=()
[[ "$seed" == random ]] || seed_args=(--seed "$seed")
if ! command -v schemathesis >/dev/null 2>&1; then
  echo "Installing schemathesis (PyPI)…" >&2
  python3 -m pip install --quiet schemathesis
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

db="${CATALOG_CONFORMANCE_DB:-$work/catalog.sqlite}"
"$binary" demo --db "$db" >/dev/null 2>&1
token="$("$binary" user add conformance --admin --db "$db" 2>/dev/null)"
# An app's key: reads and searches of two catalogs, only their German records (issue 21), so
# every answer a key can get (filtered pages, 403 for what it may not do, 404 for catalogs it is
# not for) is checked against the document too.
key="$("$binary" key add conformance-app --user conformance --catalog products --catalog cookbook \
  --actions read,search --filter 'country = DE' --db "$db" 2>/dev/null | grep -o 'cak_[A-Za-z0-9_-]*' | head -1)"
[[ -n "$key" ]] || { echo "api-conformance: could not make an API key" >&2; exit 1; }
"$binary" serve --db "$db" --port 0 --quiet >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!
for _ in $(seq 1 100); do
  grep -q "listening on" "$work/serve.out" 2>/dev/null && break
  sleep 0.1
done
url="$(grep -o 'http://[^ ]*' "$work/serve.out")"
echo "schemathesis against $url (examples per operation: $examples)" >&2

# Every operation, every check; uploads (the import, its preview, a record's image) are fuzzed
# separately because a body that fits the schema (any string) is still not a valid catalog file or
# image, so it must be allowed to be refused.
# Run from the throwaway folder: schemathesis keeps a cache of its findings in the working directory.
# A schema-breaking value long enough to pass the request line's limit is refused with 414 before
# any route sees it: that is a refusal too (beside schemathesis's default list).
cd "$work"
# Creating and changing catalogs: a schema cannot say which locales ICU has data for, which language
# tags ISO has assigned, which field names are equal once normalized or which records a new mapping
# cannot read (422), nor which revision a generated If-Match names (412); valid data may meet those
# refusals. A generated If-Match is checked before the body it comes with (RFC 9110 evaluates
# preconditions first), so invalid data may be refused with 412 too. Record changes likewise: a
# schema cannot say which currency codes are assigned, that a body's id must be the URL's, or what
# sizes in bytes are allowed; a record to restore may have no such change (404). Search settings: a
# schema cannot say what search reads as one word (a synonym, a stop word), nor that twoTyposFrom is
# not below oneTypoFrom (422). Search and facets: a schema cannot say which fields a catalog has, filters
# or sorts by, so a well-formed field name it does not have may be refused (400, naming the field).
# A key's filter is a text in the filter language, whose grammar a schema cannot say (400), and a
# generated key name may be one an earlier example took already (409).
cat >schemathesis.toml <<'TOML'
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "412", "414", "415", "422", "428", "429", "431", "5xx"]

[[operations]]
include-operation-id = ["searchFacetValues"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "429", "5xx"]

[[operations]]
include-operation-id = ["createCatalog", "updateCatalog", "deleteCatalog", "putItem", "patchItem", "deleteItem",
  "changeItems", "restoreItem", "deleteItemImage", "updateSearchSettings"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "412", "422", "429", "5xx"]

[[operations]]
include-operation-id = ["search", "addKey"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
TOML
# The same document as an app with a read-only, filtered key sees it: reads only (a key's writes
# are refused before their bodies matter), every status it gets must be documented. First, while
# the key and its catalogs are there (the administrator's stateful run below may revoke or delete
# them).
schemathesis run "$url/api/v1/openapi.json" --checks all --exclude-checks positive_data_acceptance \
  --max-examples "$examples" "${seed_args[@]}" --header "Authorization: Bearer $key" --include-method GET \
  --phases examples,coverage,fuzzing --no-color
schemathesis run "$url/api/v1/openapi.json" --checks all --max-examples "$examples" "${seed_args[@]}" \
  --header "Authorization: Bearer $token" --exclude-operation-id importCatalog --exclude-operation-id previewImport \
  --exclude-operation-id putItemImage --no-color
# The uploads alone have no links to follow: no stateful phase for them.
schemathesis run "$url/api/v1/openapi.json" --checks all --exclude-checks positive_data_acceptance \
  --max-examples "$examples" "${seed_args[@]}" --header "Authorization: Bearer $token" --include-operation-id importCatalog \
  --include-operation-id previewImport --include-operation-id putItemImage --phases examples,coverage,fuzzing --no-color

if grep -q "error:" "$work/serve.err"; then
  echo "The server logged unexpected errors:" >&2
  grep "error:" "$work/serve.err" >&2
  exit 1
fi
