// The seed's failure analysis per model: this run's shares of its failed attempts beside the ThinkingBox
// paper's published ones (docs/metrics.md, "Failure analysis"; the paper's figures: seed_figures.py).
const FAILURE_FIGURES = [
  ["terminated_cleanly", "terminated cleanly"],
  ["with_wrong_value", "≥ 1 wrong value"],
  ["with_extra_effect", "≥ 1 extra effect"],
  ["with_missing_effect", "≥ 1 missing effect"],
];

function failureCard(runs, seed) {
  if (!seed) return null;
  return card("failure-analysis", "Failure analysis beside the paper's",
    `Among failed attempts: the share that terminated cleanly (ended by the agent or the customer, at least one state-changing call succeeded, the final tool result no error); the shares with at least one wrong value, extra effect or missing effect (they overlap); the share per failure signature (they partition). Grey: ${seed.label}, as published.`,
    el("div", { class: "fa-grid" }, runs.map((r, i) => failurePanel(r, i, seed))));
}

function failurePanel(run, index, seed) {
  const a = run.summary.failure_analysis, paper = seed.shares;
  const signatures = [...Object.keys(paper.signatures), ...Object.keys(a.signatures).filter((n) => !(n in paper.signatures))];
  const rows = [
    ...FAILURE_FIGURES.map(([key, name]) => failureRow(run, index, key, name, a[key], a.shares[key], paper[key], 2)),
    ...signatures.map((name) => failureRow(run, index, `signature:${name}`, `signature ${name}`,
      a.signatures[name] || 0, a.failed_attempts ? a.shares.signatures[name] || 0 : null, paper.signatures[name], 1)),
  ];
  const note = a.writes_unrecorded
    ? el("p", { class: "muted" }, `${a.writes_unrecorded} failed attempt${a.writes_unrecorded === 1 ? "" : "s"} recorded before write counts existed: judged clean by their effects.`)
    : null;
  return el("div", { class: "fa-panel", "data-model": run.label },
    el("h3", {}, swatch(colorOf(index)), run.label,
      el("span", { class: "sub" }, a.failed_attempts ? ` · ${a.failed_attempts} failed attempts` : " · no failed attempts")),
    el("table", { class: "diff fa-table" },
      el("thead", {}, el("tr", {}, ["", "attempts", "this run", "", "ThinkingBox paper, 12-model ablation"].map((h, j) =>
        el("th", { class: j === 1 || j === 2 || j === 4 ? "num" : null }, h)))),
      el("tbody", {}, rows)),
    note);
}

// One figure: count, this run's share and the paper's (as printed), with a bar for each.
function failureRow(run, index, key, name, count, share, paper, digits) {
  const bar = (value, color, cls) => el("span", { class: `fa-bar ${cls}` },
    el("span", { style: `width:${value === null || value === undefined ? 0 : (100 * value).toFixed(1)}%;background:${color}` }));
  return el("tr", {
    class: "fa-row", "data-model": run.label, "data-figure": key, "data-count": count,
    "data-share": share === null ? "" : share, "data-paper": paper === undefined ? "" : paper,
  },
  el("td", {}, name), el("td", { class: "num" }, count), el("td", { class: "num" }, pct(share)),
  el("td", { class: "fa-bars" }, bar(share, colorOf(index), "run"), bar(paper, "#94a3b8", "paper")),
  el("td", { class: "num muted" }, paper === undefined ? "–" : pct(paper, digits)));
}
