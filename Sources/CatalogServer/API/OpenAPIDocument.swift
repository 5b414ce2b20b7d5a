import CatalogHTTP

/// `GET /api/v1/openapi.json`: the OpenAPI 3.1 description of every JSON endpoint.
struct OpenAPIRoute {
    func register(in routes: inout RouterBuilder) {
        routes.get("/api/v1/openapi.json") { _, _ in
            Response(
                status: .ok, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
                body: OpenAPIDocument.bytes)
        }
    }
}

/// The OpenAPI document, written by hand next to the routes it describes; a test checks that
/// every route of the router appears in it, and schemathesis checks real responses against it.
enum OpenAPIDocument {
    static let bytes = Array(text.utf8)

    static let text = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Catalog API",
            "version": "1.0.0",
            "description": "Catalogs of records (products, programs, recipes): browse in index order, search as you type, favorites, imports. Also the original cookbook endpoints and XML feeds."
          },
          "servers": [{"url": "/"}],
          "components": {
            "securitySchemes": {
              "bearer": {"type": "http", "scheme": "bearer", "description": "An API token from `catalog user add`, or the token `POST /api/v1/signin` returns."}
            },
            "parameters": {
              "catalog": {"name": "id", "in": "path", "required": true, "description": "The catalog's id.", "schema": {"type": "string", "maxLength": 64, "pattern": "^[^\\u0000]*$"}},
              "item": {"name": "item", "in": "path", "required": true, "description": "The record's id.", "schema": {"type": "string", "minLength": 1, "pattern": "^[^\\u0000]*$"}},
              "limit": {"name": "limit", "in": "query", "description": "Records per page (default 50).", "schema": {"type": "integer", "minimum": 1, "maximum": 500}},
              "after": {"name": "after", "in": "query", "description": "The `next` cursor of a page: the page after it. Cursors name a place in index order, so they stay valid across re-imports.", "schema": {"$ref": "#/components/schemas/BrowseCursor"}},
              "before": {"name": "before", "in": "query", "description": "The `previous` cursor of a page: the page before it (ignored with `after`).", "schema": {"$ref": "#/components/schemas/BrowseCursor"}}
            },
            "responses": {
              "BadRequest": {"description": "A parameter is missing or malformed.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "NotFound": {"description": "No such catalog, item, section, category, scope or resource.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "Unauthorized": {"description": "No valid bearer token.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "Forbidden": {"description": "The user may not do this.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "NotModified": {"description": "The client's copy (If-None-Match) is current."},
              "URITooLong": {"description": "The request target is longer than the server accepts.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            },
            "schemas": {
              "BrowseCursor": {"type": "string", "minLength": 2, "maxLength": 4096, "pattern": "^([A-Za-z0-9_-]{4})*([A-Za-z0-9_-]{2,3})?$"},
              "Error": {
                "type": "object", "required": ["error"],
                "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}
              },
              "CatalogSummary": {
                "type": "object", "required": ["id", "title", "locale", "count"],
                "properties": {"id": {"type": "string"}, "title": {"type": "string"}, "locale": {"type": "string"}, "count": {"type": "integer", "minimum": 0}}
              },
              "CatalogDetail": {
                "type": "object", "required": ["id", "title", "locale", "count", "scopes", "fields", "sections"],
                "properties": {
                  "id": {"type": "string"}, "title": {"type": "string"}, "locale": {"type": "string"}, "count": {"type": "integer", "minimum": 0},
                  "scopes": {"type": "array", "items": {"type": "string"}, "description": "Scope button labels, in order."},
                  "fields": {"type": "array", "items": {"type": "string"}, "description": "The source's field names in their original order."},
                  "sections": {"type": "array", "items": {"type": "string"}, "description": "Every label of the index rail, in order, empty sections included."}
                }
              },
              "Section": {
                "type": "object", "required": ["label", "count"],
                "properties": {"label": {"type": "string"}, "count": {"type": "integer", "minimum": 1}}
              },
              "Record": {
                "type": "object",
                "required": ["id", "title", "subtitle", "description", "categories", "price", "currency", "quantity", "country", "image", "featured", "section", "fields"],
                "properties": {
                  "id": {"type": "string"},
                  "title": {"type": "string"},
                  "subtitle": {"type": ["string", "null"]},
                  "description": {"type": ["string", "null"]},
                  "categories": {"type": "array", "items": {"type": "string"}},
                  "price": {"type": ["number", "null"]},
                  "currency": {"type": ["string", "null"]},
                  "quantity": {"type": ["integer", "null"]},
                  "country": {"type": ["string", "null"], "description": "ISO 3166-1 alpha-2."},
                  "image": {"type": ["string", "null"]},
                  "featured": {"type": ["integer", "null"], "description": "Featured rank, 1 first."},
                  "section": {"type": ["string", "null"], "description": "The index section's label."},
                  "fields": {"type": "object", "description": "Extra fields with their JSON types: a string, a number (its literal as read), a boolean, null, or an array of values.", "additionalProperties": {"type": ["string", "number", "boolean", "null", "array"], "items": {"type": ["string", "number", "boolean", "null", "array"]}}}
                }
              },
              "MatchRange": {
                "type": "object", "required": ["field", "start", "length"],
                "properties": {"field": {"type": "string"}, "start": {"type": "integer", "minimum": 0}, "length": {"type": "integer", "minimum": 0}},
                "description": "A matched range of a field, in UTF-16 code units."
              },
              "Snippet": {
                "type": "object", "required": ["field", "text", "matches"],
                "properties": {"field": {"type": "string"}, "text": {"type": "string"}, "matches": {"type": "array", "items": {"$ref": "#/components/schemas/MatchRange"}}},
                "description": "A piece of a field outside the list's fields that explains the match, with ranges relative to `text`."
              },
              "SearchHit": {
                "allOf": [{"$ref": "#/components/schemas/Record"}, {"type": "object", "required": ["matches", "snippet"], "properties": {"matches": {"type": "array", "items": {"$ref": "#/components/schemas/MatchRange"}}, "snippet": {"oneOf": [{"$ref": "#/components/schemas/Snippet"}, {"type": "null"}]}}}]
              },
              "FacetCount": {
                "type": "object", "required": ["value", "count", "capped"],
                "properties": {"value": {"type": "string"}, "count": {"type": "integer", "minimum": 0}, "capped": {"type": "boolean"}}
              },
              "ScopeCount": {
                "type": "object", "required": ["label", "count", "capped"],
                "properties": {"label": {"type": "string"}, "count": {"type": "integer", "minimum": 0}, "capped": {"type": "boolean", "description": "True when there are more than `count`."}}
              },
              "SearchResponse": {
                "type": "object", "required": ["items", "total", "totalCapped", "scope", "scopes", "next"],
                "properties": {
                  "items": {"type": "array", "items": {"$ref": "#/components/schemas/SearchHit"}},
                  "next": {"type": ["string", "null"], "description": "The cursor of the next page (`after=`), null on the last."},
                  "facets": {"type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/components/schemas/FacetCount"}}},
                  "total": {"type": "integer", "minimum": 0},
                  "totalCapped": {"type": "boolean"},
                  "scope": {"type": ["string", "null"]},
                  "scopes": {"type": "array", "items": {"$ref": "#/components/schemas/ScopeCount"}}
                }
              },
              "ItemsPage": {
                "type": "object", "required": ["items", "next", "previous"],
                "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/Record"}}, "next": {"type": ["string", "null"]}, "previous": {"type": ["string", "null"]}}
              },
              "Category": {
                "type": "object", "required": ["id", "name", "count"],
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "image": {"type": ["string", "null"]}, "count": {"type": "integer", "minimum": 0}}
              },
              "Favorite": {
                "type": "object", "required": ["catalog", "item", "added"],
                "properties": {"catalog": {"type": "string"}, "item": {"type": "string"}, "added": {"type": "string"}, "record": {"oneOf": [{"$ref": "#/components/schemas/Record"}, {"type": "null"}]}}
              },
              "ImportSummary": {
                "type": "object", "required": ["read", "added", "updated", "removed", "total", "notes"],
                "properties": {"read": {"type": "integer"}, "added": {"type": "integer"}, "updated": {"type": "integer"}, "removed": {"type": "integer"}, "total": {"type": "integer"}, "notes": {"type": "array", "items": {"type": "string"}, "description": "What the user should know about how the source was read (several values for one role, …)."}}
              },
              "SignInRequest": {
                "type": "object", "required": ["name", "password"],
                "properties": {"name": {"type": "string"}, "password": {"type": "string"}}
              },
              "SignInResponse": {
                "type": "object", "required": ["token", "user", "expires"],
                "properties": {
                  "token": {"type": "string", "description": "A session token (`cts_…`) to send as `Authorization: Bearer`."},
                  "user": {"type": "object", "required": ["name", "admin"], "properties": {"name": {"type": "string"}, "admin": {"type": "boolean"}}},
                  "expires": {"type": "string", "description": "When the token stops working, ISO 8601 in UTC."}
                }
              },
              "CompatRecipe": {
                "type": "object", "required": ["recid", "title", "subtitle", "description", "complexity", "imageurl"],
                "additionalProperties": false,
                "properties": {"recid": {"type": "string"}, "title": {"type": "string"}, "subtitle": {"type": "string"}, "description": {"type": "string"}, "complexity": {"type": "string"}, "imageurl": {"type": "string"}}
              },
              "CompatCategory": {
                "type": "object", "required": ["catid", "name", "imageurl"],
                "additionalProperties": false,
                "properties": {"catid": {"type": "integer"}, "name": {"type": "string"}, "imageurl": {"type": "string"}}
              }
            }
          },
          "paths": {
            "/api/v1/openapi.json": {
              "get": {
                "summary": "This document.", "operationId": "getOpenAPI",
                "responses": {"200": {"description": "The OpenAPI document.", "content": {"application/json": {"schema": {"type": "object"}}}}, "304": {"$ref": "#/components/responses/NotModified"}}
              }
            },
            "/api/v1/catalogs": {
              "get": {
                "summary": "Every catalog with its record count.", "operationId": "listCatalogs",
                "responses": {
                  "200": {"description": "The catalogs.", "content": {"application/json": {"schema": {"type": "object", "required": ["catalogs"], "properties": {"catalogs": {"type": "array", "items": {"$ref": "#/components/schemas/CatalogSummary"}}}}}}},
                  "304": {"$ref": "#/components/responses/NotModified"}
                }
              }
            },
            "/api/v1/catalogs/{id}": {
              "get": {
                "summary": "One catalog: title, locale, count, scopes, fields.", "operationId": "getCatalog",
                "parameters": [{"$ref": "#/components/parameters/catalog"}],
                "responses": {
                  "200": {"description": "The catalog.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CatalogDetail"}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/api/v1/catalogs/{id}/sections": {
              "get": {
                "summary": "The non-empty index sections, in the locale's order.", "operationId": "listSections",
                "parameters": [{"$ref": "#/components/parameters/catalog"}],
                "responses": {
                  "200": {"description": "The sections.", "content": {"application/json": {"schema": {"type": "object", "required": ["sections"], "properties": {"sections": {"type": "array", "items": {"$ref": "#/components/schemas/Section"}}}}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/api/v1/catalogs/{id}/items": {
              "get": {
                "summary": "Records in index order, a page at a time (keyset pagination).", "operationId": "listItems",
                "parameters": [
                  {"$ref": "#/components/parameters/catalog"}, {"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/after"},
                  {"$ref": "#/components/parameters/before"},
                  {"name": "section", "in": "query", "description": "Only this section (a label).", "schema": {"type": "string", "maxLength": 64, "pattern": "^[^\\u0000]*$"}},
                  {"name": "start", "in": "query", "description": "Start at this section's label and go on (the index rail's jump); an empty section starts at the next one. The page's `previous` reaches everything before.", "schema": {"type": "string", "maxLength": 64, "pattern": "^[^\\u0000]*$"}}
                ],
                "responses": {
                  "200": {"description": "A page.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ItemsPage"}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "414": {"$ref": "#/components/responses/URITooLong"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/api/v1/catalogs/{id}/items/{item}": {
              "get": {
                "summary": "One record.", "operationId": "getItem",
                "parameters": [{"$ref": "#/components/parameters/catalog"}, {"$ref": "#/components/parameters/item"}],
                "responses": {
                  "200": {"description": "The record.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Record"}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/api/v1/catalogs/{id}/search": {
              "get": {
                "summary": "As-you-type search: ranked hits with match ranges, the total and a count per scope.", "operationId": "search",
                "description": "Case, accents and letter variants are ignored; every word must match, the last one as a prefix; words match inside title words from the first letter and other fields from the start of their words; from five letters a typo is forgiven (two from nine). Ranked: the exact title, titles starting with the query, whole title words, title word starts, inside title words, typos, other fields; shorter titles first. The text is data, never query syntax. An empty `q` lists the scope's records in index order.",
                "parameters": [
                  {"$ref": "#/components/parameters/catalog"},
                  {"name": "q", "in": "query", "description": "What the user typed.", "schema": {"type": "string", "maxLength": 200, "pattern": "^[^\\u0000]*$"}},
                  {"name": "scope", "in": "query", "description": "A scope label (`Windows`, `Apple&Win`).", "schema": {"type": "string", "maxLength": 200, "pattern": "^[^\\u0000]*$"}},
                  {"name": "category", "in": "query", "description": "Only records carrying this category (repeatable: all must hold).", "style": "form", "explode": true, "schema": {"type": "array", "maxItems": 20, "items": {"type": "string", "maxLength": 200, "pattern": "^[^\\u0000]*$"}}},
                  {"name": "country", "in": "query", "description": "Only records from this country, ISO 3166-1 alpha-2 (repeatable: any may hold).", "style": "form", "explode": true, "schema": {"type": "array", "maxItems": 20, "items": {"type": "string", "pattern": "^[A-Za-z]{2}$"}}},
                  {"name": "price", "in": "query", "description": "Only records priced in `MIN..MAX` (either side may be empty).", "schema": {"type": "string", "pattern": "^(-?[0-9]{1,12}([.,][0-9]{1,6})?)?\\.\\.(-?[0-9]{1,12}([.,][0-9]{1,6})?)?$"}},
                  {"name": "facets", "in": "query", "description": "Add counts per value of these facets.", "schema": {"type": "string", "pattern": "^(categories|country)(,(categories|country))?$"}},
                  {"name": "sort", "in": "query", "description": "The order: relevance (default; index order for an empty query), title, -title, price, -price (no price last).", "schema": {"type": "string", "enum": ["relevance", "title", "-title", "price", "-price"]}},
                  {"name": "after", "in": "query", "description": "The `next` cursor of the previous page.", "schema": {"type": "string", "pattern": "^(r[0-7]\\.[0-9a-z]{1,12}|o[0-9a-z]{1,12})$"}},
                  {"name": "limit", "in": "query", "description": "Hits to return (default 50).", "schema": {"type": "integer", "minimum": 1, "maximum": 200}}
                ],
                "responses": {
                  "200": {"description": "The results.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SearchResponse"}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "414": {"$ref": "#/components/responses/URITooLong"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/api/v1/catalogs/{id}/categories": {
              "get": {
                "summary": "The catalog's categories with ids and counts.", "operationId": "listCategories",
                "parameters": [{"$ref": "#/components/parameters/catalog"}],
                "responses": {
                  "200": {"description": "The categories.", "content": {"application/json": {"schema": {"type": "object", "required": ["categories"], "properties": {"categories": {"type": "array", "items": {"$ref": "#/components/schemas/Category"}}}}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/api/v1/catalogs/{id}/categories/{category}/items": {
              "get": {
                "summary": "Records of one category in index order, a page at a time.", "operationId": "listCategoryItems",
                "parameters": [
                  {"$ref": "#/components/parameters/catalog"},
                  {"name": "category", "in": "path", "required": true, "description": "The category's name.", "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^\\u0000]*$"}},
                  {"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/after"},
                  {"$ref": "#/components/parameters/before"}
                ],
                "responses": {
                  "200": {"description": "A page.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ItemsPage"}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "414": {"$ref": "#/components/responses/URITooLong"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/api/v1/catalogs/{id}/featured": {
              "get": {
                "summary": "Featured (\"hot\") records by rank.", "operationId": "listFeatured",
                "parameters": [{"$ref": "#/components/parameters/catalog"}, {"$ref": "#/components/parameters/limit"}],
                "responses": {
                  "200": {"description": "The featured records.", "content": {"application/json": {"schema": {"type": "object", "required": ["items"], "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/Record"}}}}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "414": {"$ref": "#/components/responses/URITooLong"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/api/v1/catalogs/{id}/snapshot": {
              "get": {
                "summary": "The catalog as a self-contained SQLite file for offline use (records, sections, sort keys, search index; no accounts).", "operationId": "getSnapshot",
                "description": "The ETag changes exactly when the catalog does: `If-None-Match` answers 304; `Range` (with `If-Range`) resumes a download with 206. The client library's OfflineCatalog browses and searches the file exactly as the server does.",
                "parameters": [
                  {"$ref": "#/components/parameters/catalog"},
                  {"name": "Range", "in": "header", "description": "One byte range: `bytes=START-` or `bytes=START-END`. Any other value is ignored and the whole file is sent, as HTTP asks of a server that does not understand a range.", "schema": {"type": "string"}}
                ],
                "responses": {
                  "200": {"description": "The file.", "content": {"application/vnd.sqlite3": {"schema": {"type": "string", "format": "binary"}}}},
                  "206": {"description": "The requested bytes of the file.", "content": {"application/vnd.sqlite3": {"schema": {"type": "string", "format": "binary"}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "404": {"$ref": "#/components/responses/NotFound"},
                  "416": {"description": "The range starts beyond the end of the file (`Content-Range: bytes */SIZE`)."},
                  "503": {"description": "The server is busy building snapshots; try again.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
                }
              }
            },
            "/api/v1/signin": {
              "post": {
                "summary": "Signs in with a name and password; answers a token for `Authorization: Bearer` (30 days).", "operationId": "signIn",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SignInRequest"}}}},
                "responses": {
                  "200": {"description": "Signed in.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SignInResponse"}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"description": "The name or the password is wrong.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
                  "415": {"description": "Not JSON.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
                  "429": {"description": "Too many failed sign-ins; `Retry-After` says when to try again.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
                  "503": {"description": "The server is busy checking passwords; try again.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
                }
              }
            },
            "/api/v1/signout": {
              "post": {
                "summary": "Ends the session a sign-in token belongs to.", "operationId": "signOut",
                "security": [{"bearer": []}],
                "responses": {
                  "204": {"description": "Signed out."},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/api/v1/favorites": {
              "get": {
                "summary": "The signed-in user's favorites, newest first, with their records.", "operationId": "listFavorites",
                "security": [{"bearer": []}],
                "responses": {
                  "200": {"description": "The favorites.", "content": {"application/json": {"schema": {"type": "object", "required": ["favorites"], "properties": {"favorites": {"type": "array", "items": {"$ref": "#/components/schemas/Favorite"}}}}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/api/v1/favorites/{catalog}/{item}": {
              "parameters": [
                {"name": "catalog", "in": "path", "required": true, "schema": {"type": "string", "maxLength": 64, "pattern": "^[^\\u0000]*$"}},
                {"$ref": "#/components/parameters/item"}
              ],
              "put": {
                "summary": "Marks a record as a favorite (idempotent).", "operationId": "addFavorite",
                "security": [{"bearer": []}],
                "responses": {
                  "204": {"description": "It is a favorite."},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              },
              "delete": {
                "summary": "Removes a favorite (idempotent).", "operationId": "removeFavorite",
                "security": [{"bearer": []}],
                "responses": {
                  "204": {"description": "It is not a favorite."},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/api/v1/catalogs/{id}/import": {
              "post": {
                "summary": "Imports records into the catalog (admins only): all or nothing.", "operationId": "importCatalog",
                "security": [{"bearer": []}],
                "parameters": [
                  {"$ref": "#/components/parameters/catalog"},
                  {"name": "format", "in": "query", "description": "Default: from the Content-Type.", "schema": {"type": "string", "enum": ["xml", "json", "csv", "sqlite"]}},
                  {"name": "record", "in": "query", "description": "XML: the record element; JSON: the key holding the records.", "schema": {"type": "string"}},
                  {"name": "table", "in": "query", "description": "SQLite: the table.", "schema": {"type": "string"}},
                  {"name": "replace", "in": "query", "description": "Remove records missing from the upload.", "schema": {"type": "boolean"}},
                  {"name": "locale", "in": "query", "description": "The locale of a new catalog.", "schema": {"type": "string"}},
                  {"name": "title", "in": "query", "description": "The catalog's title.", "schema": {"type": "string"}}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/xml": {"schema": {"type": "string"}}, "application/json": {"schema": {}}, "text/csv": {"schema": {"type": "string"}},
                    "application/vnd.sqlite3": {"schema": {"type": "string", "format": "binary"}}
                  }
                },
                "responses": {
                  "200": {"description": "What the import did.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ImportSummary"}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "414": {"$ref": "#/components/responses/URITooLong"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "413": {"description": "The upload is too large.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
                  "415": {"description": "Unknown format.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
                  "422": {"description": "The file is malformed; the message says where. Nothing changed.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
                }
              }
            },
            "/gethots": {
              "get": {
                "summary": "Cookbook: the featured recipes (original endpoint).", "operationId": "getHots", "tags": ["original cookbook"],
                "responses": {
                  "200": {"description": "Recipes.", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/CompatRecipe"}}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/getcategories": {
              "get": {
                "summary": "Cookbook: the categories (original endpoint).", "operationId": "getCategories", "tags": ["original cookbook"],
                "responses": {
                  "200": {"description": "Categories.", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/CompatCategory"}}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/getrecipesbycategory": {
              "get": {
                "summary": "Cookbook: the recipes of a category (original endpoint).", "operationId": "getRecipesByCategory", "tags": ["original cookbook"],
                "parameters": [{"name": "catid", "in": "query", "required": true, "schema": {"type": "integer", "minimum": 0, "maximum": 2147483647}}],
                "responses": {
                  "200": {"description": "Recipes.", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/CompatRecipe"}}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "414": {"$ref": "#/components/responses/URITooLong"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/getrecipe": {
              "get": {
                "summary": "Cookbook: one recipe (original endpoint).", "operationId": "getRecipe", "tags": ["original cookbook"],
                "parameters": [{"name": "recid", "in": "query", "required": true, "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^\\u0000]*$"}}],
                "responses": {
                  "200": {"description": "The recipe.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CompatRecipe"}}}},
                  "304": {"$ref": "#/components/responses/NotModified"},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "414": {"$ref": "#/components/responses/URITooLong"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/catalogs/{id}/feed.xml": {
              "get": {
                "summary": "The catalog as XML in its own record shape (the sequencers' original feed format).", "operationId": "getFeed",
                "parameters": [{"$ref": "#/components/parameters/catalog"}],
                "responses": {
                  "200": {"description": "The feed.", "content": {"application/xml": {"schema": {"type": "string"}}}},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            }
          }
        }
        """#
}
