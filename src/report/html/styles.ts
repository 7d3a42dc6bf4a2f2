/** The page's stylesheet: system fonts only, nothing loaded from anywhere. */
export const STYLES = `
:root {
  --bg: #f5f6f8; --panel: #fff; --text: #1d2330; --muted: #5f6b7a; --faint: #656f7d;
  --line: #e1e5ea; --line-strong: #cdd3db; --accent: #2f5bd3; --hover: #f0f3f8; --sel: #e8eefc;
  --good: #127a45; --good-bg: #e2f4e9; --fair: #806300; --fair-bg: #fbf1cc;
  --warn: #9a4608; --warn-bg: #fde6d4; --bad: #c02626; --bad-bg: #fbe1e1; --na: #5a6371; --na-bg: #eceff3;
  --env: #2f7fd8; --svc: #8a55d6; --agent: #16968a; --reason: #9aa5b4; --err: #d23b3b;
  --env-ink: #2568b8; --agent-ink: #0e7a70; --err-ink: #c02626;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #14171c; --panel: #1c2028; --text: #e4e8ee; --muted: #a3adbb; --faint: #8a94a3;
    --line: #2c323c; --line-strong: #3a414d; --accent: #7ea2ff; --hover: #232833; --sel: #26314a;
    --good: #5fd08f; --good-bg: #173526; --fair: #e6c450; --fair-bg: #3a3115; --warn: #f0a060;
    --warn-bg: #3d2714; --bad: #f07a7a; --bad-bg: #3e1b1b; --na: #a3adbb; --na-bg: #2a2f38;
    --env-ink: #5c9be8; --agent-ink: #2fb5a7; --err-ink: #f07a7a;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--text);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
main { max-width: 1400px; margin: 0 auto; padding: 28px 24px 64px; }
h1 { font-size: 22px; margin: 0; letter-spacing: -0.01em; }
h2 { font-size: 16px; margin: 28px 0 12px; }
h3 { font-size: 14px; margin: 0; }
code, pre, .mono { font-family: var(--mono); font-size: 12.5px; }
button { font: inherit; color: inherit; }
.muted { color: var(--muted); }
.faint { color: var(--faint); }
.nowrap { white-space: nowrap; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

header .top { display: flex; flex-wrap: wrap; align-items: baseline; gap: 8px 16px; margin-bottom: 4px; }
.brand { font-weight: 700; color: var(--accent); letter-spacing: 0.02em; }
.meta { display: flex; flex-wrap: wrap; gap: 4px 18px; color: var(--muted); font-size: 13px; }
.meta b { color: var(--text); font-weight: 600; }

.badge {
  display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600;
  background: var(--na-bg); color: var(--na); white-space: nowrap;
}
.badge.bad { background: var(--bad-bg); color: var(--bad); }
.badge.warn { background: var(--warn-bg); color: var(--warn); }
.badge.good { background: var(--good-bg); color: var(--good); }
/* The Gate line can be long (why the run failed): it wraps, its failures listed under it. */
.gate { margin-top: 10px; font-size: 13px; }
.gate .badge { white-space: normal; }
.gate ul { list-style: none; margin: 4px 0 0; padding: 0 0 0 8px; }

.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 12px; margin: 20px 0 8px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: 0.05em; }
.card .value { font-size: 26px; font-weight: 650; margin-top: 2px; font-variant-numeric: tabular-nums; }
.card .note { color: var(--muted); font-size: 12.5px; }

.score { display: inline-block; white-space: nowrap; min-width: 36px; padding: 1px 7px; border-radius: 6px; font-weight: 650;
  text-align: center; font-variant-numeric: tabular-nums; }
.s-good { background: var(--good-bg); color: var(--good); }
.s-fair { background: var(--fair-bg); color: var(--fair); }
.s-warn { background: var(--warn-bg); color: var(--warn); }
.s-bad { background: var(--bad-bg); color: var(--bad); }
.s-na { background: var(--na-bg); color: var(--na); font-weight: 500; font-size: 12px; }
.value .score { font-size: 24px; padding: 2px 10px; }

.table-wrap { overflow-x: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 10px; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 8px 10px; text-align: left; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { font-size: 12px; font-weight: 600; color: var(--muted); background: var(--panel); white-space: nowrap; }
/* Auto layout: a name column is never narrower than its longest word; names wrap at spaces and after
   / - _ . (breakable()), and only a token longer than the whole table width may break anywhere. */
table.results { table-layout: auto; }
table.results td { overflow-wrap: break-word; }
table.results td.name { min-width: 8em; }
.col-status { width: 180px; }
table.results > thead > tr > th { padding: 0; }
table.results th .sort { background: none; border: 0; width: 100%; padding: 8px 10px; cursor: pointer; font-weight: 600;
  color: inherit; text-align: inherit; white-space: nowrap; }
table.results th.c .sort { padding-left: 4px; padding-right: 4px; }
table.results th .sort:hover { color: var(--text); }
table.results th .sort::after { content: "\\2195"; color: var(--line-strong); margin-left: 3px; }
table.results th[aria-sort="ascending"] .sort::after { content: "\\25B2"; color: var(--accent); }
table.results th[aria-sort="descending"] .sort::after { content: "\\25BC"; color: var(--accent); }
tr.detail-row.filtered { display: none; }
.agent-inline, table.results th .sort-inline { display: none; }
.table-outer { position: relative; }
.table-outer.scrolls:not(.at-end)::after { content: ""; position: absolute; top: 1px; right: 1px; bottom: 1px; width: 28px;
  pointer-events: none; border-radius: 0 10px 10px 0; background: linear-gradient(to right, transparent, rgba(0, 0, 0, .16)); }
.scroll-hint { margin: 0 0 6px; font-size: 12.5px; font-weight: 600; color: var(--accent); }
/* A pair's detail stays the width of the visible table and does not scroll sideways with it. */
.table-wrap { container-type: inline-size; }
table.results > tbody > tr.detail-row > td > .panel { position: sticky; left: 0; width: 100cqw; }
/* When only the table scrolls sideways (narrow windows), the scenario column stays in view. */
table.results > thead > tr > th:first-child, table.results > tbody > tr.pair-row > td:first-child {
  position: sticky; left: 0; z-index: 1; background: var(--panel); }
table.results > tbody > tr.pair-row:hover > td:first-child { background: var(--hover); }
table.results > tbody > tr.pair-row.open > td:first-child { background: var(--sel); }
.filters { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; margin-bottom: 10px; }
.filters input, .filters select { font: inherit; color: inherit; background: var(--panel); border: 1px solid var(--line-strong);
  border-radius: 6px; padding: 4px 8px; }
.filters input { flex: 0 1 300px; min-width: 0; }
table.results > tbody > tr > td.c, table.results > thead > tr > th.c { padding-left: 4px; padding-right: 4px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.c, th.c { text-align: center; }
.table-wrap > table > tbody > tr:last-child > td,
.table-wrap > table > tbody > tr.pair-row:nth-last-child(2):not(.open) > td,
.table-wrap > table > tbody > tr.pair-row:nth-last-child(3):not(.open) > td { border-bottom: 0; }
tr.pair-row:hover > td { background: var(--hover); }
tr.pair-row.open > td { background: var(--sel); }
tr.detail-row > td { padding: 0; background: var(--bg); }
.disclose { background: none; border: 0; padding: 0; cursor: pointer; text-align: left; display: flex; gap: 8px;
  align-items: baseline; font-weight: 600; }
.disclose::before { content: "\\25B8"; color: var(--faint); display: inline-block; transition: transform .12s; }
.disclose[aria-expanded="true"]::before { transform: rotate(90deg); }
.key { color: var(--muted); font-weight: 400; font-size: 12.5px; }
.reason { color: var(--muted); font-size: 12px; max-width: 260px; }

.panel { padding: 18px 20px 22px; border-top: 1px solid var(--line); }
.panel-head { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: baseline; margin-bottom: 12px; }
.panel-head h3 { font-size: 16px; }
.box { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; margin-top: 12px; }
.banner { border-radius: 8px; padding: 10px 14px; margin-top: 12px; border: 1px solid; }
.banner.bad { background: var(--bad-bg); color: var(--bad); border-color: transparent; }
.banner.na { background: var(--na-bg); color: var(--text); border-color: transparent; }

/* No overflow clipping here: the Representative tooltip must be able to leave the table. */
.runs-wrap { border: 1px solid var(--line); border-radius: 8px; margin-top: 8px; }
.runs-wrap tbody tr:last-child > td { border-bottom: 0; }
.runs tbody tr { cursor: pointer; }
.runs tbody tr:hover > td { background: var(--hover); }
.runs tbody tr.selected > td { background: var(--sel); }
.run-btn { background: none; border: 1px solid var(--line-strong); border-radius: 6px; padding: 1px 8px; cursor: pointer; white-space: nowrap; }
.runs tr.selected .run-btn { border-color: var(--accent); color: var(--accent); font-weight: 600; }
.rep-mark { color: var(--accent); font-weight: 700; }

.tip { position: relative; display: inline-flex; align-items: center; gap: 4px; cursor: help; }
.tip-icon { display: inline-grid; place-items: center; width: 15px; height: 15px; border-radius: 50%;
  border: 1px solid var(--faint); font-size: 10px; color: var(--muted); }
.tip-body { display: none; position: absolute; z-index: 20; top: calc(100% + 6px); right: 0; width: 300px; text-align: left;
  padding: 8px 10px; border-radius: 8px; background: #1f2530; color: #f2f4f7; font-size: 12.5px; font-weight: 400;
  line-height: 1.45; text-transform: none; letter-spacing: 0; white-space: normal; box-shadow: 0 6px 20px rgba(0,0,0,.2); }
.tip:hover .tip-body, .tip:focus .tip-body, .tip:focus-within .tip-body { display: block; }

.overview { display: grid; grid-template-columns: 190px 1fr; gap: 20px; align-items: center; }
.composite { text-align: center; }
.composite .big { font-size: 42px; font-weight: 700; line-height: 1.1; font-variant-numeric: tabular-nums; }
.composite .big .s-na { font-size: 16px; padding: 4px 12px; margin-top: 6px; }
.bars { display: grid; grid-template-columns: 130px 1fr 80px 84px; gap: 8px 12px; align-items: center; }
.bar { height: 10px; border-radius: 5px; background: var(--na-bg); overflow: hidden; }
.bar > span { display: block; height: 100%; border-radius: 5px; }
.f-good { background: var(--good); } .f-fair { background: #d6a400; } .f-warn { background: #e07a1f; } .f-bad { background: var(--bad); }
.weight { color: var(--faint); font-size: 12px; text-align: right; white-space: nowrap; }

.insights { border-left: 3px solid var(--warn); }
.insights ul { margin: 6px 0 0; padding-left: 18px; }
.insights li { margin: 2px 0; }

details.section { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; margin-top: 12px; }
details.section > summary { cursor: pointer; padding: 11px 16px; font-weight: 600; list-style: none; display: flex;
  gap: 8px; align-items: center; }
details.section > summary::-webkit-details-marker { display: none; }
details.section > summary::before { content: "\\25B8"; color: var(--faint); transition: transform .12s; }
details.section[open] > summary::before { transform: rotate(90deg); }
details.section > summary .count { color: var(--muted); font-weight: 400; }
.section-body { padding: 4px 16px 16px; }
summary:focus-visible, button:focus-visible, [tabindex]:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }

.link-btn { background: none; border: 0; color: var(--accent); cursor: pointer; padding: 4px 0; font-weight: 500; }
.link-btn:hover { text-decoration: underline; }
.btn { background: var(--panel); border: 1px solid var(--line-strong); border-radius: 6px; padding: 3px 10px;
  cursor: pointer; font-size: 13px; }
.btn:hover { background: var(--hover); }
.btn.primary { background: var(--accent); border-color: var(--accent); color: #fff; }

.criteria { display: grid; gap: 10px; }
.criterion { display: grid; grid-template-columns: 1fr 150px; gap: 4px 16px; padding-bottom: 10px; border-bottom: 1px solid var(--line); }
.criterion:last-child { border-bottom: 0; padding-bottom: 0; }
.criterion .check { font-weight: 600; }
.criterion .rationale { grid-column: 1 / -1; color: var(--muted); font-size: 13px; }
.criterion .grade { display: grid; grid-template-columns: 1fr auto; gap: 8px; align-items: center; }

.dims { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px; margin-top: 12px; }
.dim { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; }
.dim-head { display: flex; justify-content: space-between; align-items: center; gap: 8px; }
.dim-stats { color: var(--muted); font-size: 12.5px; margin: 2px 0 10px; }
.subs { display: grid; grid-template-columns: repeat(auto-fill, minmax(92px, 1fr)); gap: 6px; margin-bottom: 10px; }
.sub { background: var(--bg); border-radius: 6px; padding: 5px 8px; }
.sub .name { font-size: 11.5px; color: var(--muted); }
.sub .v { font-weight: 650; font-variant-numeric: tabular-nums; }
.audits { list-style: none; margin: 0; padding: 0; }
.audit { padding: 7px 0; border-top: 1px solid var(--line); font-size: 13px; }
.audit .head { display: flex; flex-wrap: wrap; gap: 6px; align-items: baseline; }
.audit .ix { font-family: var(--mono); font-size: 12px; color: var(--text); overflow-wrap: anywhere; }
.audit .why { color: var(--muted); margin-top: 2px; }
.tag { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 11.5px; font-weight: 600; }
.src { color: var(--faint); font-size: 11.5px; }

.wf-legend { display: flex; flex-wrap: wrap; gap: 14px; font-size: 12px; color: var(--muted); margin: 4px 0 10px; }
.sw { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
.c-environment { background: var(--env); } .c-service { background: var(--svc); } .c-agent { background: var(--agent); }
.c-reasoning { background: var(--reason); } .c-error { background: var(--err); }
.wf { display: grid; gap: 2px; }
.wf-row { position: relative; display: grid; grid-template-columns: minmax(180px, 34%) 1fr 64px; gap: 10px;
  align-items: center; background: none; border: 0; padding: 2px 4px; border-radius: 4px; text-align: left; cursor: pointer; }
.wf-row:hover, .wf-row:focus-visible { background: var(--hover); }
.wf-label { font-family: var(--mono); font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.wf-track { position: relative; height: 14px; background: repeating-linear-gradient(90deg, transparent 0 calc(25% - 1px), var(--line) calc(25% - 1px) 25%); }
.wf-bar { position: absolute; top: 2px; height: 10px; min-width: 3px; border-radius: 3px; }
.wf-bar.failed { outline: 2px solid var(--err); outline-offset: 0; }
.wf-dur { font-size: 12px; color: var(--muted); text-align: right; font-variant-numeric: tabular-nums; }
.wf-axis { display: grid; grid-template-columns: minmax(180px, 34%) 1fr 64px; gap: 10px; font-size: 11px; color: var(--faint); padding: 0 4px; }
.wf-ticks { position: relative; height: 14px; }
.wf-ticks > span { position: absolute; transform: translateX(-50%); white-space: nowrap; }
.wf-ticks > span:first-child { transform: none; } .wf-ticks > span:last-child { transform: translateX(-100%); }
.wf-tip { display: none; position: absolute; left: 34%; top: 100%; z-index: 15; max-width: 520px; padding: 8px 10px;
  border-radius: 8px; background: #1f2530; color: #f2f4f7; font-size: 12px; line-height: 1.45; box-shadow: 0 6px 20px rgba(0,0,0,.25); }
.wf-tip div { white-space: pre-wrap; word-break: break-word; }
.wf-row:hover .wf-tip, .wf-row:focus .wf-tip { display: block; }

.events { display: grid; gap: 6px; }
.ev { border: 1px solid var(--line); border-radius: 8px; padding: 6px 10px; background: var(--panel); }
.ev.hl { border-color: var(--accent); box-shadow: 0 0 0 2px var(--sel); }
.ev-head { display: flex; gap: 8px; align-items: baseline; font-size: 12px; color: var(--muted); }
.ev-kind { font-weight: 700; text-transform: uppercase; font-size: 10.5px; letter-spacing: 0.06em; }
.ev-user .ev-kind { color: var(--accent); } .ev-tool_call .ev-kind { color: var(--env-ink); }
.ev-tool_result .ev-kind { color: var(--agent-ink); } .ev-error .ev-kind, .ev.is-error .ev-kind { color: var(--err-ink); }
.ev-tool_result { margin-left: 22px; }
.ev pre { margin: 4px 0 0; white-space: pre-wrap; word-break: break-word; max-height: 420px; overflow: auto; }
.ev-thinking pre { color: var(--muted); font-style: italic; }

.md { line-height: 1.55; overflow-wrap: anywhere; }
.md pre { background: var(--bg); padding: 8px 10px; border-radius: 6px; overflow: auto; }
.md code { background: var(--bg); padding: 0 3px; border-radius: 3px; }
.md pre code { background: none; padding: 0; }
.md table { width: auto; } .md th, .md td { border: 1px solid var(--line); }
.md a { color: var(--accent); }
.md blockquote { margin: 0; padding-left: 12px; border-left: 3px solid var(--line-strong); color: var(--muted); }

.tree { list-style: none; margin: 6px 0 0; padding-left: 0; font-size: 13px; }
.tree .tree { padding-left: 18px; }
.tree-dir > span { font-weight: 600; color: var(--muted); }
.file { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 3px 0; }
.file .fname { font-family: var(--mono); font-size: 12.5px; }
.file.skipped .fname { color: var(--faint); text-decoration: line-through; }
.toolbar { display: flex; gap: 8px; align-items: center; margin: 4px 0 6px; }

.modal-back { position: fixed; inset: 0; background: rgba(15, 20, 28, .55); display: grid; place-items: center; z-index: 50; padding: 24px; }
.modal { background: var(--panel); border-radius: 12px; width: min(960px, 100%); max-height: 90vh; display: flex;
  flex-direction: column; box-shadow: 0 20px 60px rgba(0,0,0,.35); }
.modal-head { display: flex; gap: 12px; align-items: center; justify-content: space-between; padding: 12px 16px; border-bottom: 1px solid var(--line); }
.modal-head h3 { font-family: var(--mono); font-size: 13px; overflow-wrap: anywhere; }
.modal-body { overflow: auto; padding: 14px 16px; }
.modal-body pre { margin: 0; white-space: pre-wrap; word-break: break-word; }
.modal-body img { max-width: 100%; height: auto; display: block; margin: 0 auto; background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
.empty { color: var(--muted); font-style: italic; }

.trend-note { margin: -6px 0 10px; font-size: 13px; }
.trend-chart { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 6px 4px; min-height: 232px; }
.trend-svg { display: block; max-width: 100%; }
.trend-grid line { stroke: var(--line); } .trend-grid.major line { stroke: var(--line-strong); }
.trend-svg text { fill: var(--muted); font-size: 11px; font-variant-numeric: tabular-nums; }
.trend-svg text.current { fill: var(--text); font-weight: 600; }
.trend-now { stroke: var(--line-strong); stroke-dasharray: 3 3; }
.trend-line polyline { stroke-width: 2; stroke-linejoin: round; }
.trend-line.tl-avg polyline { stroke-width: 3; }
.trend-line.tl-dash polyline { stroke-dasharray: 6 4; }
.trend-line circle { stroke: var(--panel); stroke-width: 1.5; }
.tl-avg { --tl: var(--text); } .tl-0 { --tl: var(--env); } .tl-1 { --tl: var(--svc); } .tl-2 { --tl: var(--agent); }
.tl-3 { --tl: #c99a00; } .tl-4 { --tl: #e07a1f; } .tl-5 { --tl: #c2407e; }
.trend-line polyline { stroke: var(--tl); } .trend-line circle { fill: var(--tl); } .sw[class*="tl-"] { background: var(--tl); }
.trend-legend { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 10px 0 4px; font-size: 13px; }
.trend-legend label { display: inline-flex; gap: 6px; align-items: center; cursor: pointer; }
.trend-legend .sw { margin-right: 0; }
.trend-values { margin-top: 6px; font-size: 13px; }
.trend-values > summary { cursor: pointer; color: var(--accent); padding: 4px 0; }
.trend-table { overflow-x: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; margin-top: 6px; }
.trend-values-table th, .trend-values-table td { padding: 5px 10px; }
.trend-values-table thead th { white-space: normal; vertical-align: bottom; }
.trend-values-table tbody tr:last-child > * { border-bottom: 0; }
.trend-values-table tr.current > * { background: var(--sel); }
footer { margin-top: 36px; color: var(--faint); font-size: 12px; text-align: center; }
@media (max-width: 900px) {
  /* Cost is also in each run's detail line; the table keeps the scores, duration and tokens. */
  table.results > colgroup > col.col-cost, table.results > thead > tr > th:nth-child(10),
  table.results > tbody > tr.pair-row > td:nth-child(10) { display: none; }
  .col-status { width: 120px; }
  /* Every column stays in view at 760 px: the agent moves under the scenario name (and its sort
     button into the scenario header). */
  table.results > colgroup > col.col-agent, table.results > thead > tr > th:nth-child(2),
  table.results > tbody > tr.pair-row > td:nth-child(2) { display: none; }
  .agent-inline { display: block; margin: 2px 0 0 18px; font-size: 12.5px; color: var(--muted); }
  table.results > thead > tr > th:first-child { white-space: normal; }
  /* Only the sorted column shows its arrow here: the others' would cost a column's width. */
  table.results th[aria-sort="none"] > .sort::after,
  table.results th .sort-inline .sort:not([data-sorted="asc"]):not([data-sorted="desc"])::after { content: none; }
  table.results > thead > tr > th:first-child .sort { display: inline-block; width: auto; }
  /* A reason may quote a long token (a path, a URL, an error code): it wraps inside the column. */
  table.results > tbody > tr.pair-row .reason { overflow-wrap: anywhere; }
  table.results > tbody > tr.pair-row .score.s-na { padding: 1px 4px; font-size: 12px; min-width: 0; }
  table.results > thead > tr > th:first-child .sort-inline { display: inline; color: var(--faint); }
  table.results > thead > tr > th:first-child > .sort { padding-right: 4px; }
  table.results > thead > tr > th:first-child .sort-inline .sort { padding-left: 4px; }
  table.results th .sort-inline .sort[data-sorted="asc"]::after { content: "\\25B2"; color: var(--accent); }
  table.results th .sort-inline .sort[data-sorted="desc"]::after { content: "\\25BC"; color: var(--accent); }
  table.results > tbody > tr.pair-row > td { padding-left: 6px; padding-right: 6px; }
  table.results th .sort { padding-left: 6px; padding-right: 6px; }
  main { padding-left: 14px; padding-right: 14px; }
}
@media (max-width: 760px) {
  .overview { grid-template-columns: 1fr; }
  .bars { grid-template-columns: 100px 1fr 48px; } .bars .weight { display: none; }
}
`;
