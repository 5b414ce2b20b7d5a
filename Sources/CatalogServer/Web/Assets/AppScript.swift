/// The web app's one script, an ES module that only enhances server-rendered pages: search as
/// you type (debounced, the previous request cancelled, timings kept for tests), scope buttons,
/// loading more rows while scrolling, the index rail's scrubbing, the keyboard (`/` searches,
/// arrow keys move through rows), a spinner after 150 ms, an error banner with retry, and a
/// detail pane on wide screens. Every value is put into the page as text, never as markup.
enum AppScript {
    static let text = #"""
        const doc = document;
        doc.documentElement.classList.add("js");
        const list = doc.getElementById("list");
        const spinner = doc.getElementById("spinner");
        const banner = doc.getElementById("banner");
        let retryAction = null;
        let pending = 0;
        window.__catalog = { searchTimings: [], renders: 0 };

        async function request(url, signal) {
          pending += 1;
          const timer = setTimeout(() => { if (pending > 0 && spinner) spinner.hidden = false; }, 150);
          try {
            const response = await fetch(url, { signal, headers: { Accept: "application/json" } });
            if (!response.ok) throw new Error("HTTP " + response.status);
            if (banner) banner.hidden = true;
            return await response.json();
          } finally {
            clearTimeout(timer);
            pending -= 1;
            if (pending === 0 && spinner) spinner.hidden = true;
          }
        }

        function failed(error, action) {
          if (error && error.name === "AbortError") return;
          console.error(error);
          retryAction = action;
          if (banner) banner.hidden = false;
        }
        doc.getElementById("retry")?.addEventListener("click", () => {
          if (banner) banner.hidden = true;
          const action = retryAction;
          retryAction = null;
          if (action) action();
        });

        function element(name, className, text) {
          const node = doc.createElement(name);
          if (className) node.className = className;
          if (text !== undefined) node.textContent = text;
          return node;
        }

        // Text with <mark> around the UTF-16 ranges the API found, every piece as text.
        function marked(className, text, ranges) {
          const node = element("span", className);
          let position = 0;
          for (const range of ranges.slice().sort((a, b) => a.start - b.start)) {
            const start = Math.max(position, Math.min(range.start, text.length));
            const end = Math.min(range.start + range.length, text.length);
            if (start >= end) continue;
            node.append(text.slice(position, start), element("mark", null, text.slice(start, end)));
            position = end;
          }
          node.append(text.slice(position));
          return node;
        }

        const formatters = new Map();
        function price(value, currency, locale) {
          const key = locale + "|" + (currency || "");
          if (!formatters.has(key)) {
            try {
              formatters.set(key, currency && currency.length === 3
                ? new Intl.NumberFormat(locale, { style: "currency", currency })
                : new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }));
            } catch (_) {
              formatters.set(key, new Intl.NumberFormat(locale));
            }
          }
          return formatters.get(key).format(Number(value));
        }

        function encode(value) { return encodeURIComponent(value); }

        function row(record, matches, backQuery) {
          const catalog = list.dataset.catalog;
          const item = element("li", "row");
          item.dataset.id = record.id;
          const link = element("a", "row-link");
          link.href = "/c/" + encode(catalog) + "/i/" + encode(record.id) + backQuery;
          if (record.image) {
            const image = element("img", "thumb");
            const isRaster = record.image.startsWith("/images/") && !record.image.toLowerCase().endsWith(".svg");
            image.src = isRaster ? record.image + "?size=80" : record.image;
            image.alt = ""; image.loading = "lazy"; image.decoding = "async"; image.width = 40; image.height = 40;
            link.append(image);
          }
          const text = element("span", "row-text");
          const ranges = (field) => matches.filter((m) => m.field === field).map((m) => ({ start: m.start, length: m.length }));
          const title = marked("title", record.title, ranges("title"));
          if (record.title.length > 28) title.classList.add("long");
          text.append(title);
          if (record.subtitle) {
            text.append(marked("subtitle", record.subtitle, ranges("subtitle")));
          } else if (record.categories && record.categories.length) {
            text.append(element("span", "subtitle", list.dataset.category + " " + record.categories.join(", ")));
          }
          link.append(text);
          if (record.price !== null && record.price !== undefined) {
            link.append(element("span", "price", price(record.price, record.currency, list.dataset.locale)));
          }
          if (record.country && record.country.length === 2) {
            const flag = element("img", "flag");
            flag.src = "/images/demo/flags/" + record.country.toLowerCase() + ".svg";
            flag.alt = record.country.toUpperCase(); flag.width = 20; flag.height = 14; flag.loading = "lazy";
            link.append(flag);
          }
          const chevron = element("span", "chevron", "›");
          chevron.setAttribute("aria-hidden", "true");
          link.append(chevron);
          item.append(link);
          return item;
        }

        // ---- Search as you type -------------------------------------------------------------
        const form = list?.querySelector("form.search");
        const input = doc.getElementById("q");
        let scope = new URL(location.href).searchParams.get("scope");
        let controller = null;
        let debounce = null;
        let keystrokeAt = 0;

        function stateQuery(query) {
          const params = new URLSearchParams();
          if (query) params.set("q", query);
          if (scope) params.set("scope", scope);
          params.set("search", "1");
          return "?" + params.toString();
        }

        function ensureResults() {
          let results = doc.getElementById("results");
          if (!results) {
            doc.getElementById("sections")?.remove();
            doc.getElementById("more")?.remove();
            const total = element("p", "total"); total.id = "total"; total.setAttribute("aria-live", "polite");
            results = element("ol", "rows results"); results.id = "results";
            const empty = element("p", "empty", list.dataset.noResults); empty.id = "empty"; empty.hidden = true;
            list.append(total, results, empty);
          }
          return results;
        }

        function drawScopes(counts) {
          for (const button of list.querySelectorAll(".scope")) {
            const label = button.value;
            const selected = (scope || list.querySelector(".scope")?.value) === label;
            button.setAttribute("aria-pressed", selected ? "true" : "false");
            const count = counts.find((c) => c.label === label);
            let badge = button.querySelector(".count");
            if (!badge) { badge = element("span", "count"); button.append(badge); }
            badge.textContent = count ? String(count.count) + (count.capped ? "+" : "") : "";
          }
        }

        async function search() {
          const query = input.value;
          const startedAt = keystrokeAt || performance.now();
          if (controller) controller.abort();
          controller = new AbortController();
          const params = new URLSearchParams({ q: query, limit: "50" });
          if (scope) params.set("scope", scope);
          const url = "/api/v1/catalogs/" + encode(list.dataset.catalog) + "/search?" + params.toString();
          try {
            const response = await request(url, controller.signal);
            if (query !== input.value) return;
            const results = ensureResults();
            const backQuery = stateQuery(query);
            const fragment = doc.createDocumentFragment();
            for (const hit of response.items) fragment.append(row(hit, hit.matches || [], backQuery));
            results.replaceChildren(fragment);
            doc.getElementById("total").textContent =
              String(response.total) + (response.totalCapped ? "+" : "") + " " + list.dataset.results;
            doc.getElementById("empty").hidden = response.items.length > 0;
            drawScopes(response.scopes || []);
            history.replaceState({ searching: true }, "", location.pathname + backQuery);
            window.__catalog.renders += 1;
            requestAnimationFrame(() => {
              window.__catalog.searchTimings.push(performance.now() - startedAt);
            });
          } catch (error) {
            failed(error, search);
          }
        }

        function startSearching() {
          if (!list.classList.contains("searching")) {
            list.classList.add("searching");
          }
        }

        if (input && list) {
          input.addEventListener("focus", startSearching);
          input.addEventListener("input", (event) => {
            keystrokeAt = event.timeStamp || performance.now();
            startSearching();
            clearTimeout(debounce);
            debounce = setTimeout(search, 15);
          });
          input.addEventListener("keydown", (event) => {
            if (event.key === "Escape") {
              input.value = "";
              scope = null;
              location.assign(location.pathname);
            } else if (event.key === "ArrowDown") {
              event.preventDefault();
              list.querySelector(".row-link")?.focus();
            }
          });
          form.addEventListener("submit", (event) => {
            event.preventDefault();
            const button = event.submitter;
            if (button && button.classList.contains("scope")) {
              const first = list.querySelector(".scope")?.value;
              scope = button.value === first ? null : button.value;
            }
            keystrokeAt = performance.now();
            search();
          });
        }

        // ---- More rows while scrolling ------------------------------------------------------
        let loading = false;
        function lastSection() {
          const sections = doc.querySelectorAll("#sections > .section");
          return sections[sections.length - 1];
        }
        async function loadMore(more) {
          if (loading) return;
          loading = true;
          const after = new URL(more.href).searchParams.get("after");
          const url = "/api/v1/catalogs/" + encode(list.dataset.catalog) + "/items?limit=100&after=" + encode(after);
          try {
            const page = await request(url);
            const container = doc.getElementById("sections");
            for (const record of page.items) {
              let section = lastSection();
              const label = record.section || "#";
              if (!section || section.dataset.label !== label) {
                section = element("section", "section");
                section.dataset.label = label;
                const header = element("h2", "section-header", label);
                header.id = "s-" + label;
                section.setAttribute("aria-labelledby", header.id);
                section.append(header, element("ol", "rows"));
                container.append(section);
              }
              section.querySelector("ol").append(row(record, [], ""));
            }
            if (page.next) {
              more.href = location.pathname + "?after=" + encode(page.next);
            } else {
              more.remove();
            }
          } catch (error) {
            failed(error, () => loadMore(more));
          } finally {
            loading = false;
          }
        }
        const more = doc.getElementById("more");
        if (more && "IntersectionObserver" in window) {
          const observer = new IntersectionObserver((entries) => {
            for (const entry of entries) if (entry.isIntersecting && doc.body.contains(more)) loadMore(more);
          }, { rootMargin: "800px 0px" });
          observer.observe(more);
        }

        // ---- Index rail: tap jumps, dragging scrubs -------------------------------------------
        const rail = doc.getElementById("rail");
        if (rail) {
          let active = null;
          const jump = (link) => {
            const target = doc.getElementById("s-" + link.dataset.label);
            if (target) {
              target.scrollIntoView({ block: "start" });
              history.replaceState(null, "", "#s-" + encode(link.dataset.label));
            } else {
              location.assign(link.href);
            }
          };
          rail.addEventListener("click", (event) => {
            const link = event.target.closest("a");
            if (!link) return;
            event.preventDefault();
            jump(link);
          });
          rail.addEventListener("pointerdown", (event) => {
            if (event.pointerType === "mouse") return;
            rail.setPointerCapture(event.pointerId);
          });
          rail.addEventListener("pointermove", (event) => {
            if (!rail.hasPointerCapture(event.pointerId)) return;
            const link = doc.elementFromPoint(rail.getBoundingClientRect().left + 8, event.clientY)?.closest(".rail a");
            if (!link || link === active) return;
            active?.classList.remove("active");
            active = link;
            link.classList.add("active");
            const target = doc.getElementById("s-" + link.dataset.label);
            if (target) target.scrollIntoView({ block: "start" });
          });
          rail.addEventListener("pointerup", () => {
            if (active) {
              active.classList.remove("active");
              if (!doc.getElementById("s-" + active.dataset.label)) location.assign(active.href);
            }
            active = null;
          });
        }

        // ---- Keyboard ---------------------------------------------------------------------------
        doc.addEventListener("keydown", (event) => {
          const typing = event.target.closest?.("input, textarea, select");
          if (event.key === "/" && !typing && input) {
            event.preventDefault();
            input.focus();
            input.select();
            return;
          }
          if ((event.key === "ArrowDown" || event.key === "ArrowUp") && event.target.classList?.contains("row-link")) {
            event.preventDefault();
            const links = Array.from(doc.querySelectorAll(".row-link"));
            const index = links.indexOf(event.target) + (event.key === "ArrowDown" ? 1 : -1);
            if (index < 0 && input) input.focus();
            else links[Math.min(index, links.length - 1)]?.focus();
          }
        });

        // ---- Two panes on wide screens --------------------------------------------------------
        const wide = window.matchMedia("(min-width: 900px)");
        if (list && wide.matches) {
          const main = doc.getElementById("main");
          const pane = element("aside");
          pane.id = "pane";
          pane.setAttribute("aria-live", "polite");
          main.classList.add("with-pane");
          main.append(pane);
          list.addEventListener("click", async (event) => {
            const link = event.target.closest(".row-link");
            if (!link || event.metaKey || event.ctrlKey || event.shiftKey || !wide.matches) return;
            event.preventDefault();
            try {
              pending += 1;
              const response = await fetch(link.href);
              const html = await response.text();
              const page = new DOMParser().parseFromString(html, "text/html");
              const article = page.querySelector("article.detail");
              if (article) pane.replaceChildren(doc.adoptNode(article));
              for (const other of list.querySelectorAll(".row-link[aria-current]")) other.removeAttribute("aria-current");
              link.setAttribute("aria-current", "true");
            } catch (error) {
              failed(error, () => link.click());
            } finally {
              pending -= 1;
            }
          });
        }
        """#
}
