/// The web app's one stylesheet: phone portrait first, a table view like the original apps
/// (alternating rows, sticky section headers, an index rail), two panes on wide screens, dark
/// mode from the system.
enum AppStylesheet {
    static let text = #"""
        :root {
          --bg: #f2f2f7; --row: #ffffff; --row-alt: #f7f7fa; --text: #111; --muted: #6b6b73;
          --line: #d8d8de; --accent: #0a63d1; --bar: rgba(248,248,250,.94); --mark: #ffe58a;
          --header: #e9e9ef; --danger: #b3261e; --bar-h: 48px; --search-h: 52px;
          color-scheme: light dark;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #000; --row: #1c1c1e; --row-alt: #232326; --text: #f2f2f7; --muted: #a1a1aa;
            --line: #38383c; --accent: #5ea2ff; --bar: rgba(28,28,30,.94); --mark: #6b5300; --header: #2c2c30;
          }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body {
          margin: 0; background: var(--bg); color: var(--text);
          font: 16px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
          padding-bottom: env(safe-area-inset-bottom);
        }
        body[data-tabs] { padding-bottom: calc(60px + env(safe-area-inset-bottom)); }
        a { color: var(--accent); }
        .skip { position: absolute; left: -999px; top: 0; }
        .skip:focus { left: 8px; z-index: 30; background: var(--row); padding: 8px; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        .bar {
          position: sticky; top: 0; z-index: 20; height: var(--bar-h); display: grid;
          grid-template-columns: 1fr auto 1fr; align-items: center; gap: 8px; padding: 0 12px;
          background: var(--bar); backdrop-filter: saturate(180%) blur(12px); border-bottom: 1px solid var(--line);
        }
        .bar-title { grid-column: 2; margin: 0; font-size: 17px; font-weight: 600; max-width: 60vw;
          overflow: hidden; text-overflow: ellipsis; white-space: nowrap; text-align: center; }
        .back { grid-column: 1; justify-self: start; text-decoration: none; white-space: nowrap; overflow: hidden;
          text-overflow: ellipsis; max-width: 100%; }
        .account { grid-column: 3; justify-self: end; }
        .account button, .signin { font: inherit; font-size: 15px; background: none; border: 0; color: var(--accent);
          cursor: pointer; text-decoration: none; }
        main { display: block; outline: none; }
        .search {
          position: sticky; top: var(--bar-h); z-index: 15; background: var(--bg); padding: 8px 12px;
          display: flex; flex-wrap: wrap; gap: 8px; align-items: center;
        }
        .search input[type=search] {
          flex: 1 1 200px; min-width: 0; font: inherit; padding: 8px 12px; border-radius: 10px;
          border: 1px solid var(--line); background: var(--row); color: var(--text);
        }
        .search-go { font: inherit; border: 0; background: none; color: var(--accent); cursor: pointer; }
        .js .search-go { display: none; }
        .scopes { display: none; flex: 1 0 100%; gap: 0; border: 1px solid var(--accent); border-radius: 8px; overflow: hidden; }
        .searching .scopes { display: flex; }
        .scope {
          flex: 1 1 0; font: inherit; font-size: 14px; padding: 6px 4px; border: 0; border-left: 1px solid var(--accent);
          background: transparent; color: var(--accent); cursor: pointer; white-space: nowrap;
        }
        .scope:first-child { border-left: 0; }
        .scope[aria-pressed=true] { background: var(--accent); color: var(--row); }
        .scope .count { font-size: 12px; opacity: .85; margin-left: 4px; }
        .total { margin: 4px 16px; color: var(--muted); font-size: 13px; }
        .rows { list-style: none; margin: 0; padding: 0; background: var(--row); }
        .rows > li:nth-child(even) { background: var(--row-alt); }
        .row-link {
          display: flex; align-items: center; gap: 10px; min-height: 52px; padding: 6px 28px 6px 12px;
          color: inherit; text-decoration: none; border-bottom: 1px solid var(--line);
        }
        .list:not(.searching) .row-link { padding-right: 36px; }
        .row-link:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
        .thumb { width: 40px; height: 40px; border-radius: 6px; object-fit: cover; flex: none; background: var(--header); }
        .row-text { display: flex; flex-direction: column; min-width: 0; flex: 1; }
        .title { font-size: 17px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .title.long { font-size: 15px; }
        .subtitle { font-size: 13px; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .price { font-variant-numeric: tabular-nums; white-space: nowrap; font-size: 15px; }
        .flag { width: 20px; height: 14px; flex: none; border: 1px solid var(--line); }
        .count { color: var(--muted); font-size: 15px; }
        .chevron { color: var(--muted); font-size: 22px; line-height: 1; flex: none; }
        mark { background: var(--mark); color: inherit; border-radius: 2px; }
        .section-header {
          position: sticky; top: calc(var(--bar-h) + var(--search-h)); z-index: 5; margin: 0; padding: 2px 16px;
          font-size: 15px; font-weight: 600; background: var(--header); color: var(--text);
        }
        .more { display: block; padding: 14px; text-align: center; }
        .empty { padding: 32px 16px; text-align: center; color: var(--muted); }
        .rail {
          position: fixed; right: 2px; top: calc(var(--bar-h) + var(--search-h) + 4px); bottom: 8px; z-index: 16;
          display: flex; align-items: center; touch-action: none; user-select: none;
        }
        body[data-tabs] .rail { bottom: 68px; }
        .rail ol { list-style: none; margin: 0; padding: 2px 0; display: flex; flex-direction: column; justify-content: space-between; max-height: 100%; }
        .rail a { display: block; padding: 0 6px; font-size: 11px; font-weight: 600; line-height: 1.25; text-decoration: none; color: var(--accent); text-align: center; }
        .rail a.empty-label { color: var(--muted); }
        .rail a.active { background: var(--accent); color: var(--row); border-radius: 8px; }
        .searching .rail { display: none; }
        .tabs {
          position: fixed; left: 0; right: 0; bottom: 0; z-index: 20; display: flex; background: var(--bar);
          border-top: 1px solid var(--line); padding-bottom: env(safe-area-inset-bottom); backdrop-filter: blur(12px);
        }
        .tab { flex: 1; display: flex; flex-direction: column; align-items: center; padding: 6px 0 8px; font-size: 11px;
          color: var(--muted); text-decoration: none; }
        .tab-icon { font-size: 20px; line-height: 1.2; }
        .tab[aria-current=page] { color: var(--accent); }
        .detail { background: var(--row); padding: 16px; min-height: 50vh; }
        .detail-image { display: block; max-width: 100%; width: 240px; height: auto; margin: 0 auto 12px; border-radius: 12px; }
        .detail-title { margin: 0 0 4px; font-size: 24px; }
        .detail-subtitle { margin: 0 0 12px; color: var(--muted); }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 12px 0; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; }
        .description { max-height: none; overflow: auto; }
        .description p { margin: 0 0 10px; }
        .placeholder { color: var(--muted); font-style: italic; }
        .favorite { font: inherit; border: 1px solid var(--accent); color: var(--accent); background: none; border-radius: 8px; padding: 6px 12px; cursor: pointer; }
        .favorite[aria-pressed=true] { background: var(--accent); color: var(--row); }
        .star::before { content: "☆"; }
        .favorite[aria-pressed=true] .star::before { content: "★"; }
        .signin-form { display: grid; gap: 8px; max-width: 360px; margin: 24px auto; padding: 16px; background: var(--row); border-radius: 12px; }
        .signin-form input { font: inherit; padding: 8px; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); color: var(--text); }
        .signin-form button { font: inherit; padding: 10px; border: 0; border-radius: 8px; background: var(--accent); color: #fff; cursor: pointer; }
        .error { color: var(--danger); }
        .banner { position: sticky; top: var(--bar-h); z-index: 25; background: var(--danger); color: #fff; padding: 8px 12px; }
        .banner button { font: inherit; margin-left: 8px; }
        .spinner { position: fixed; top: calc(var(--bar-h) + 10px); left: 50%; z-index: 26; width: 28px; height: 28px; margin-left: -14px;
          border: 3px solid var(--line); border-top-color: var(--accent); border-radius: 50%; animation: spin .8s linear infinite; }
        .spinner[hidden], .banner[hidden], .empty[hidden] { display: none; }
        @keyframes spin { to { transform: rotate(360deg); } }
        .footnote { padding: 16px; color: var(--muted); font-size: 13px; }
        .error-page { padding: 24px; }
        #pane { display: none; }
        @media (min-width: 900px) {
          .with-pane { display: grid; grid-template-columns: minmax(320px, 420px) 1fr; align-items: start; }
          .with-pane #pane { display: block; position: sticky; top: var(--bar-h); max-height: calc(100vh - var(--bar-h)); overflow: auto; border-left: 1px solid var(--line); }
          .with-pane .rail { right: auto; left: calc(min(420px, 40vw) - 22px); }
          .row-link[aria-current=true] { background: var(--header); }
        }
        @media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
        """#
}
