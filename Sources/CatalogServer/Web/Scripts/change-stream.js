// A catalog's changes as they happen: the Server-Sent Events of `/api/v1/catalogs/{id}/changes`
// (ChangeFeed.swift), read with fetch rather than EventSource. EventSource gives up on a 429 or a
// 503 without saying why, so it cannot honour Retry-After; fetch sees the status and the header,
// sends Last-Event-ID itself and can be paused: there is no stream while the tab is hidden or the
// browser offline, and it resumes after the last change it got. A stream that drops comes back
// after a delay that doubles with each failure (with jitter), from the server's `retry:` up to a
// minute; a refused one waits as long as its Retry-After says.

const MAX_DELAY = 60000;
// A page opens its stream once it has been shown this long: pages passed through on the way to
// another hold none (the server notices a stream that was left only at its next heartbeat, and
// counts it against the client's streams until then). Nothing is missed meanwhile: the stream
// starts from the change the page was drawn at.
const SETTLE = 2500;

// The delay a Retry-After header asks for (seconds or an HTTP date), in milliseconds, or null.
export function retryAfter(value) {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 10 * MAX_DELAY);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.min(Math.max(0, date - Date.now()), 10 * MAX_DELAY);
}

/**
 * Follows one catalog from change `since` on. `handlers` get the events:
 * `change({id, kind, number, record, time})`, `reload({change})` (the log cannot bring the page
 * up to date: read everything again), `deleted()` (the catalog is gone; the stream stops), and
 * `status()` after the stream opened or closed.
 */
export class ChangeStream {
  constructor(url, since, handlers) {
    this.url = url;
    this.last = since;
    this.handlers = handlers;
    this.controller = null;
    this.timer = null;
    this.failures = 0;
    this.retry = 1000;
    this.stopped = false;
    this.connected = false;
    this.opened = 0;
    this.onConditions = () => this.resume();
    this.onHide = () => this.pause();
    document.addEventListener("visibilitychange", this.onConditions);
    addEventListener("online", this.onConditions);
    addEventListener("offline", this.onConditions);
    // A page kept in the back-forward cache holds no connection; it resumes when shown again.
    addEventListener("pagehide", this.onHide);
    addEventListener("pageshow", this.onConditions);
    this.later(SETTLE);
  }

  // Whether the stream should be open now.
  get wanted() { return !this.stopped && document.visibilityState !== "hidden" && navigator.onLine !== false; }

  resume() {
    if (!this.wanted) { this.pause(); return; }
    if (this.controller || this.timer) return;
    this.connect();
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = null;
    this.controller?.abort();
    this.controller = null;
    this.setConnected(false);
  }

  stop() {
    this.stopped = true;
    this.pause();
    document.removeEventListener("visibilitychange", this.onConditions);
    removeEventListener("online", this.onConditions);
    removeEventListener("offline", this.onConditions);
    removeEventListener("pagehide", this.onHide);
    removeEventListener("pageshow", this.onConditions);
  }

  setConnected(connected) {
    if (this.connected === connected) return;
    this.connected = connected;
    if (connected) this.opened += 1;
    this.handlers.status?.(connected);
  }

  later(delay) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; this.resume(); }, delay);
  }

  // The next delay after a failure: doubling, with jitter, so clients that lost the same server
  // do not all come back at once.
  backoff() {
    this.failures += 1;
    const base = Math.min(MAX_DELAY, this.retry * 2 ** Math.min(this.failures - 1, 10));
    return base / 2 + Math.random() * base / 2;
  }

  async connect() {
    const controller = new AbortController();
    this.controller = controller;
    let delay = null;
    try {
      const url = this.url + (this.url.includes("?") ? "&" : "?") + "since=" + this.last;
      const response = await fetch(url, {
        signal: controller.signal, credentials: "same-origin", cache: "no-store",
        headers: { Accept: "text/event-stream", "Last-Event-ID": String(this.last) },
      });
      const type = response.headers.get("Content-Type") || "";
      if (response.status === 404) {
        this.stop();
        this.handlers.deleted?.();
        return;
      }
      if (response.ok && type.startsWith("text/event-stream")) {
        this.setConnected(true);
        await this.read(response.body);
        // The server ended the stream (it is stopping, or this client fell behind): come back.
        delay = this.backoff();
      } else if (response.status === 429 || response.status >= 500) {
        response.body?.cancel().catch(() => {});
        const asked = retryAfter(response.headers.get("Retry-After"));
        if (asked === null) delay = this.backoff();
        else {
          this.failures += 1;
          delay = asked + Math.random() * 1000;
        }
      } else {
        // Refused for good (a bad request, not allowed): following stops.
        console.warn("catalog: the change stream was refused:", response.status);
        this.stop();
        return;
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      delay = this.backoff();
    } finally {
      if (this.controller === controller) {
        this.controller = null;
        this.setConnected(false);
      }
    }
    if (!this.stopped && delay !== null) this.later(delay);
  }

  // Reads events until the stream ends (the format of the HTML standard's event streams).
  async read(body) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let event = { type: "", data: [], id: null };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n")) >= 0) {
        let line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") {
          if (event.data.length || event.type) this.dispatch(event);
          event = { type: "", data: [], id: null };
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let content = colon < 0 ? "" : line.slice(colon + 1);
        if (content.startsWith(" ")) content = content.slice(1);
        if (field === "event") event.type = content;
        else if (field === "data") event.data.push(content);
        else if (field === "id") event.id = content;
        else if (field === "retry" && /^\d+$/.test(content)) this.retry = Math.max(250, Number(content));
      }
      if (this.stopped) { reader.cancel().catch(() => {}); return; }
    }
  }

  dispatch(event) {
    // Once an event came, the stream works: the next drop starts from the shortest delay again.
    this.failures = 0;
    if (event.id !== null && /^\d+$/.test(event.id)) this.last = Number(event.id);
    let data = null;
    try { data = JSON.parse(event.data.join("\n") || "null"); } catch (_) { return; }
    if (event.type === "change") this.handlers.change?.(data);
    else if (event.type === "reload") {
      if (data && Number.isInteger(data.change)) this.last = data.change;
      this.handlers.reload?.(data);
    } else if (event.type === "deleted") {
      this.stop();
      this.handlers.deleted?.();
    }
  }
}
