/// The web app's one stylesheet: phone portrait first, a table view like the original apps
/// (alternating rows, inset separators, sticky section headers, an index rail, disclosure
/// chevrons, a segmented scope control, a tab bar), grouped cards for details, list and record
/// side by side on wide screens, dark mode from the system.
enum AppStylesheet {
    static let text = #"""
        :root {
          --bg: #f2f2f7; --row: #ffffff; --row-alt: #f6f6f9; --text: #111114; --muted: #6c6c72;
          --line: #d9d9de; --accent: #0a63d1; --on-accent: #ffffff; --bar: rgba(247,247,250,.92);
          --field: #e5e5ea; --segment: #ffffff; --mark: #ffe27a; --header: rgba(236,236,241,.96);
          --selected: #dce8fb; --chevron: #b8b8bf; --danger: #b3261e;
          --bar-h: 48px; --search-h: 52px; --tabs-h: 56px; --rail-w: 24px;
          color-scheme: light dark;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #000000; --row: #1c1c1e; --row-alt: #222225; --text: #f2f2f7; --muted: #a1a1aa;
            --line: #38383c; --accent: #5ea2ff; --on-accent: #06121f; --bar: rgba(22,22,24,.92);
            --field: #2c2c2f; --segment: #5a5a5f; --mark: #7a6000; --header: rgba(30,30,33,.96);
            --selected: #1d3557; --chevron: #5c5c62; --danger: #ff6b60;
          }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body {
          margin: 0; background: var(--bg); color: var(--text); min-height: 100vh;
          font: 16px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
          padding-bottom: env(safe-area-inset-bottom); -webkit-tap-highlight-color: transparent;
        }
        body[data-tabs] { padding-bottom: calc(var(--tabs-h) + env(safe-area-inset-bottom)); }
        a { color: var(--accent); }
        :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; top: 0; }
        .skip:focus { left: 8px; z-index: 40; background: var(--row); padding: 8px; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

        /* ---- Navigation bar ---- */
        .bar {
          position: sticky; top: 0; z-index: 20; height: var(--bar-h); display: grid;
          grid-template-columns: minmax(0, 1fr) auto minmax(0, 1fr); align-items: center; gap: 8px;
          padding: 0 12px; background: var(--bar); border-bottom: 1px solid var(--line);
          -webkit-backdrop-filter: saturate(180%) blur(16px); backdrop-filter: saturate(180%) blur(16px);
        }
        .bar-title { grid-column: 2; margin: 0; font-size: 17px; font-weight: 600; max-width: 56vw;
          overflow: hidden; text-overflow: ellipsis; white-space: nowrap; text-align: center; }
        .back { grid-column: 1; justify-self: start; text-decoration: none; white-space: nowrap; overflow: hidden;
          text-overflow: ellipsis; max-width: 100%; font-size: 17px; padding: 8px 0; }
        .back-arrow { display: inline-block; width: 11px; height: 11px; margin: 0 3px 0 4px; vertical-align: 0;
          border-left: 2.5px solid currentColor; border-bottom: 2.5px solid currentColor; transform: rotate(45deg); }
        .account { grid-column: 3; justify-self: end; }
        .account button, .signin { font: inherit; font-size: 17px; background: none; border: 0; padding: 8px 0;
          color: var(--accent); cursor: pointer; text-decoration: none; }
        main { display: block; outline: none; }

        /* ---- Search bar with scopes ---- */
        .search {
          position: sticky; top: var(--bar-h); z-index: 15; background: var(--bg);
          padding: 8px 12px; display: flex; flex-direction: column; gap: 8px;
        }
        .search-row { display: flex; align-items: center; gap: 10px; height: 36px; }
        .search-field { flex: 1; min-width: 0; }
        .search input[type=search] {
          -webkit-appearance: none; appearance: none; width: 100%; height: 36px; font: inherit; font-size: 17px;
          padding: 0 10px 0 34px; border-radius: 10px; border: 0; background-color: var(--field); color: var(--text);
          background-image: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='10.5' cy='10.5' r='6.5' fill='none' stroke='%238e8e93' stroke-width='2.2'/%3E%3Cpath d='M15.5 15.5l5 5' stroke='%238e8e93' stroke-width='2.4' stroke-linecap='round'/%3E%3C/svg%3E");
          background-repeat: no-repeat; background-position: 9px center; background-size: 18px 18px;
        }
        .search input[type=search]::placeholder { color: var(--muted); }
        .search input[type=search]:focus { outline: 2px solid var(--accent); outline-offset: 0; }
        .search-go { font: inherit; font-size: 17px; border: 0; background: none; color: var(--accent); cursor: pointer; padding: 0; }
        .js .search-go { display: none; }
        .search-cancel { display: none; font-size: 17px; text-decoration: none; white-space: nowrap; }
        .searching .search-cancel { display: block; }
        .searching .search-go { display: none; }
        .scopes { display: none; padding: 2px; gap: 2px; border-radius: 9px; background: var(--field); }
        .searching .scopes { display: flex; }
        .scope {
          flex: 1 1 auto; min-width: 0; display: flex; align-items: center; justify-content: center; gap: 4px;
          font: inherit; font-size: 13px; font-weight: 500; height: 30px; padding: 0 6px; border: 0; border-radius: 7px;
          background: transparent; color: var(--text); cursor: pointer; white-space: nowrap;
        }
        .scope-label { min-width: 0; overflow: hidden; text-overflow: ellipsis; }
        .scope[aria-pressed=true] { background: var(--segment); font-weight: 600; box-shadow: 0 1px 3px rgba(0,0,0,.14); }
        .scope .count { font-size: 12px; color: var(--muted); font-variant-numeric: tabular-nums; }
        .scope .count:empty { display: none; }
        .total { margin: 2px 16px 6px; color: var(--muted); font-size: 13px; }

        /* ---- Table rows ---- */
        .rows { list-style: none; margin: 0; padding: 0; background: var(--row); }
        .rows > li:nth-child(even) { background: var(--row-alt); }
        .row-link {
          position: relative; display: flex; align-items: center; gap: 12px; min-height: 56px;
          padding: 8px 14px 8px 16px; color: inherit; text-decoration: none;
        }
        .row-link::after {
          content: ""; position: absolute; left: 16px; right: 0; bottom: 0; height: 1px; background: var(--line);
          transform: scaleY(.5); transform-origin: bottom;
        }
        .row-link:has(.thumb)::after { left: 68px; }
        .rows > li:last-child > .row-link::after { left: 0; }
        .row-link:active, .row-link[aria-current=true] { background: var(--selected); }
        .row-link:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
        .list:not(.searching) .sections .row-link { padding-right: calc(var(--rail-w) + 8px); }
        .thumb { width: 40px; height: 40px; border-radius: 8px; object-fit: cover; flex: none; background: var(--field); }
        .row-text { display: flex; flex-direction: column; min-width: 0; flex: 1; gap: 1px; }
        .title { font-size: 17px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .title.long { font-size: 15px; }
        .subtitle { font-size: 14px; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .price { font-variant-numeric: tabular-nums; white-space: nowrap; font-size: 15px; flex: none; }
        .flag { width: 20px; height: 14px; flex: none; border-radius: 2px; box-shadow: 0 0 0 .5px rgba(0,0,0,.25); object-fit: cover; }
        .count { color: var(--muted); font-size: 17px; font-variant-numeric: tabular-nums; flex: none; }
        .chevron { flex: none; width: 8px; height: 8px; margin: 0 4px 0 2px; border-top: 2px solid var(--chevron);
          border-right: 2px solid var(--chevron); transform: rotate(45deg); }
        mark { background: var(--mark); color: inherit; border-radius: 3px; padding: 0 1px; margin: 0 -1px; }
        .section { scroll-margin-top: calc(var(--bar-h) + var(--search-h)); }
        .section-header {
          position: sticky; top: calc(var(--bar-h) + var(--search-h)); z-index: 5; margin: 0; padding: 3px 16px;
          font-size: 15px; font-weight: 600; line-height: 20px; background: var(--header); color: var(--text);
          scroll-margin-top: calc(var(--bar-h) + var(--search-h));
        }
        .more { display: block; padding: 16px; text-align: center; }
        .empty { padding: 48px 16px; text-align: center; color: var(--muted); font-size: 17px; margin: 0; }
        .footnote { padding: 16px; color: var(--muted); font-size: 13px; text-align: center; }

        /* ---- Index rail ---- */
        .rail {
          position: fixed; right: 0; min-width: var(--rail-w); top: calc(var(--bar-h) + var(--search-h) + 4px); bottom: 8px;
          z-index: 16; display: flex; align-items: center; justify-content: flex-end; touch-action: none; user-select: none;
          -webkit-user-select: none;
        }
        body[data-tabs] .rail { bottom: calc(var(--tabs-h) + 8px + env(safe-area-inset-bottom)); }
        .rail ol { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; max-height: 100%; }
        .rail li { flex: 0 1 auto; min-height: 0; display: flex; }
        .rail a { display: block; min-width: var(--rail-w); padding: 1px 2px; font-size: 11px; font-weight: 600; line-height: 13px;
          letter-spacing: -.02em;
          text-decoration: none; color: var(--accent); text-align: center; border-radius: 6px; }
        .rail a.active, .rail a:focus-visible { background: var(--accent); color: var(--on-accent); outline: none; }
        .searching .rail { display: none; }

        /* ---- Tab bar ---- */
        .tabs {
          position: fixed; left: 0; right: 0; bottom: 0; z-index: 20; display: flex; justify-content: center;
          height: calc(var(--tabs-h) + env(safe-area-inset-bottom)); padding-bottom: env(safe-area-inset-bottom);
          background: var(--bar); border-top: 1px solid var(--line);
          -webkit-backdrop-filter: saturate(180%) blur(16px); backdrop-filter: saturate(180%) blur(16px);
        }
        .tab { flex: 1 1 0; max-width: 180px; display: flex; flex-direction: column; align-items: center; justify-content: center;
          gap: 1px; font-size: 11px; font-weight: 500; color: var(--muted); text-decoration: none; }
        .tab svg { display: block; }
        .tab[aria-current=page] { color: var(--accent); }

        /* ---- Detail ---- */
        .detail { padding: 16px 16px 24px; }
        .detail-image { display: block; width: 200px; max-width: 60%; height: auto; margin: 4px auto 16px; border-radius: 16px; }
        .detail-title { margin: 0 0 2px; font-size: 26px; line-height: 1.2; font-weight: 700; overflow-wrap: anywhere; }
        .detail-subtitle { margin: 0 0 12px; color: var(--muted); font-size: 17px; }
        .facts { margin: 16px 0; padding: 0 16px; background: var(--row); border-radius: 12px; display: grid;
          grid-template-columns: minmax(80px, max-content) minmax(0, 1fr); column-gap: 0; }
        .facts dt, .facts dd { padding: 11px 0; margin: 0; border-bottom: 1px solid var(--line); }
        .facts dt { padding-right: 16px; }
        .facts dt { color: var(--muted); }
        .facts dd { text-align: right; overflow-wrap: anywhere; }
        .facts dt:nth-last-of-type(1), .facts dd:nth-last-of-type(1) { border-bottom: 0; }
        .facts .flag { vertical-align: -1px; }
        .description { background: var(--row); border-radius: 12px; padding: 12px 16px; font-size: 17px; line-height: 1.45;
          overflow-wrap: anywhere; }
        .description p { margin: 0 0 10px; }
        .description p:last-child { margin-bottom: 0; }
        .placeholder { color: var(--muted); font-style: italic; }
        .favorite-form { margin: 12px 0 0; }
        .favorite { font: inherit; font-size: 15px; font-weight: 600; border: 0; color: var(--accent); background: var(--field);
          border-radius: 18px; padding: 7px 14px; cursor: pointer; }
        .favorite[aria-pressed=true] { background: var(--accent); color: var(--on-accent); }
        .star::before { content: "☆"; }
        .favorite[aria-pressed=true] .star::before { content: "★"; }
        .favorite-hint { margin: 12px 0 0; font-size: 15px; }

        /* ---- Sign-in, banner, spinner ---- */
        .signin-form { display: grid; gap: 8px; width: calc(100% - 32px); max-width: 380px; margin: 24px auto; padding: 20px 16px; background: var(--row); border-radius: 12px; }
        .signin-form label { font-size: 15px; color: var(--muted); }
        .signin-form input { font: inherit; font-size: 17px; padding: 10px 12px; border: 0; border-radius: 10px; background: var(--field); color: var(--text); }
        .signin-form button { font: inherit; font-size: 17px; font-weight: 600; margin-top: 8px; padding: 12px; border: 0; border-radius: 12px;
          background: var(--accent); color: var(--on-accent); cursor: pointer; }
        .error { color: var(--danger); margin: 0; }
        .banner { position: sticky; top: var(--bar-h); z-index: 25; display: flex; align-items: center; justify-content: space-between;
          gap: 8px; background: var(--danger); color: #fff; padding: 8px 12px; font-size: 15px; }
        .banner button { font: inherit; font-weight: 600; border: 1px solid rgba(255,255,255,.7); border-radius: 8px; color: #fff;
          background: transparent; padding: 4px 10px; cursor: pointer; }
        .spinner { position: fixed; top: calc(var(--bar-h) + 12px); left: 50%; z-index: 26; width: 28px; height: 28px; margin-left: -14px;
          border: 3px solid var(--line); border-top-color: var(--accent); border-radius: 50%; animation: spin .8s linear infinite;
          background: var(--row); box-shadow: 0 1px 4px rgba(0,0,0,.15); }
        .spinner[hidden], .banner[hidden], .empty[hidden] { display: none; }
        @keyframes spin { to { transform: rotate(360deg); } }
        .error-page { padding: 24px; }
        .pane { display: none; }

        /* ---- Wide screens: the list and a record side by side; other pages as a centered column ---- */
        @media (min-width: 900px) {
          main:not(.split) { max-width: 720px; margin: 0 auto; padding: 16px 16px 24px; }
          main:not(.split) > .rows { border-radius: 12px; overflow: hidden; }
          .split { display: grid; grid-template-columns: 400px minmax(0, 1fr); align-items: start; }
          .split > .list { min-width: 0; border-right: 1px solid var(--line); min-height: calc(100vh - var(--bar-h)); background: var(--row); }
          .split .rail { right: auto; left: calc(400px - 29px); width: 28px; }
          .split .pane { display: block; position: sticky; top: var(--bar-h); height: calc(100vh - var(--bar-h)); overflow: auto; }
          body[data-tabs] .split .pane { height: calc(100vh - var(--bar-h) - var(--tabs-h)); }
          .pane .detail { max-width: 720px; margin: 0 auto; padding: 24px; }
          .pane-empty { margin: 30vh 24px 0; text-align: center; color: var(--muted); font-size: 17px; }
          .detail-image { width: 240px; }
        }
        @media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
        """#
}
