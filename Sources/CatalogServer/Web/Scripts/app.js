// The web app's script, ES modules by concern that only enhance server-rendered pages. The
// server draws every row (RowView.swift, fetched as fragments from `/c/{id}/rows`), and every
// price, number and plural in them; the modules place, fetch and react:
//
// - page.js: words, requests, the spinner and the error banner, `window.__catalog`;
// - windowed-list.js: one windowed list for every list, addressing the whole list at any depth;
// - lists.js: the list on this page and its place in the URL (`at=`);
// - search.js: search as you type, scopes, filters, results paged by cursor;
// - rail.js, keyboard.js: the index rail and the keyboard;
// - pane.js: the record beside the list on wide screens;
// - live.js (change-stream.js, list-refresh.js): the list and the record follow the catalog's
//   changes as they happen;
// - editor.js, toast.js: the record editor, and its toasts (Saved, Undo);
// - new-catalog.js, catalog-settings.js (owner-form.js): a new catalog from a file or a URL, with
//   its preview and the import's progress; a catalog's settings, and deleting it;
// - favorites.js: favorites with and without an account;
// - record.js: a record's share button and its picture full size;
// - recent.js: the records viewed last, on the catalog's start page (kept in this browser);
// - signin.js: the sign-in form's show-password toggle;
// - home-search.js: the home page's search across every catalog;
// - offline.js: the service worker, and forgetting a signed-out user's traces.
//
// The order below is the order the page's listeners are set up in.

import { doc, startBanner, startImagePlaceholders } from "./page.js";
import { startList, startPlaceLinks } from "./lists.js";
import { startSearch } from "./search.js";
import { startRail } from "./rail.js";
import { startKeyboard } from "./keyboard.js";
import { startPane, startSplitter } from "./pane.js";
import { startFavorites } from "./favorites.js";
import { startRecord } from "./record.js";
import { startRecent } from "./recent.js";
import { startLive } from "./live.js";
import { startEditor } from "./editor.js";
import { startToasts } from "./toast.js";
import { startNewCatalog } from "./new-catalog.js";
import { startCatalogSettings } from "./catalog-settings.js";
import { startSignIn } from "./signin.js";
import { startHomeSearch } from "./home-search.js";
import { startServiceWorker, startSignOutForgetting } from "./offline.js";

doc.documentElement.classList.add("js");
startBanner();
startImagePlaceholders();
startPlaceLinks();
startSearch();
// Before the list: it measures where its rows start.
startRecent();
startList();
startRail();
startKeyboard();
startPane();
startSplitter();
startFavorites();
startRecord();
startSignIn();
startHomeSearch();
startLive();
startEditor();
startToasts();
startNewCatalog();
startCatalogSettings();
startSignOutForgetting();
startServiceWorker();
