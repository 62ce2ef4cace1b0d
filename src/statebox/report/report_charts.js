// Charts, drawn as inline SVG. Every plotted point carries data-* attributes with its exact value.
function frame(opts) {
  const width = opts.width || 600, height = opts.height || 330;
  const m = { top: 22, right: 22, bottom: 46, left: 56 };
  const [x0, x1] = opts.x, [y0, y1] = opts.y;
  const root = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": opts.title });
  const x = (v) => m.left + ((v - x0) / (x1 - x0 || 1)) * (width - m.left - m.right);
  const y = (v) => height - m.bottom - ((v - y0) / (y1 - y0 || 1)) * (height - m.top - m.bottom);
  for (const t of opts.yTicks) {
    root.append(svgEl("line", { class: "grid", x1: m.left, x2: width - m.right, y1: y(t), y2: y(t) }));
    root.append(svgEl("text", { x: m.left - 8, y: y(t) + 4, "text-anchor": "end" }, opts.yFormat(t)));
  }
  for (const t of opts.xTicks) {
    root.append(svgEl("line", { class: "axis", x1: x(t), x2: x(t), y1: height - m.bottom, y2: height - m.bottom + 4 }));
    root.append(svgEl("text", { x: x(t), y: height - m.bottom + 17, "text-anchor": "middle" }, opts.xFormat(t)));
  }
  root.append(svgEl("line", { class: "axis", x1: m.left, x2: width - m.right, y1: y(y0), y2: y(y0) }));
  root.append(svgEl("line", { class: "axis", x1: m.left, x2: m.left, y1: y(y0), y2: y(y1) }));
  root.append(svgEl("text", { class: "axis-label", x: (m.left + width - m.right) / 2, y: height - 8, "text-anchor": "middle" }, opts.xLabel));
  root.append(svgEl("text", {
    class: "axis-label", x: 14, y: (m.top + height - m.bottom) / 2, "text-anchor": "middle",
    transform: `rotate(-90 14 ${(m.top + height - m.bottom) / 2})`,
  }, opts.yLabel));
  return { root, x, y, x1: width - m.right };
}

const UNIT = [0, 0.25, 0.5, 0.75, 1];

// 0 and round steps (1, 2 or 5 x 10^e) up to at least max.
function niceTicks(max) {
  const raw = max / 4, base = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * base).find((s) => s >= raw);
  const ticks = [];
  for (let t = 0; t < max + step * 0.999; t += step) ticks.push(Number(t.toPrecision(6)));
  return ticks;
}

// Places point labels, to the left in the right third of the chart, moved down past earlier labels.
function labeller(f) {
  const placed = [];
  return (x, y, text) => {
    const left = x > f.x1 * 0.66;
    let ty = y - 8;
    while (placed.some(([px, py]) => Math.abs(px - x) < 90 && Math.abs(py - ty) < 13)) ty += 13;
    placed.push([x, ty]);
    return svgEl("text", { class: "point-label", x: left ? x - 10 : x + 10, y: ty, "text-anchor": left ? "end" : "start" }, text);
  };
}

function integerTicks(max) {
  if (max <= 10) return Array.from({ length: max }, (_, i) => i + 1);
  const step = niceTicks(max)[1];
  const ticks = [1];
  for (let k = step; k <= max; k += step) ticks.push(k);
  if (max - ticks[ticks.length - 1] >= step / 2) ticks.push(max);
  return ticks;
}

function curvePoints(summary, key) {
  return Object.entries(summary[key])
    .map(([k, v]) => [Number(k), v])
    .filter(([, v]) => v !== null)
    .sort((a, b) => a[0] - b[0]);
}

function curvesChart(runs) {
  const n = Math.max(1, ...runs.map((r) => r.summary.repeats));
  const f = frame({
    title: "pass^k and pass@k against k", x: n > 1 ? [1, n] : [0.5, 1.5], y: [0, 1],
    xTicks: integerTicks(n), yTicks: UNIT, xFormat: String, yFormat: (t) => pct(t, 0),
    xLabel: "k (attempts)", yLabel: "share of tasks",
  });
  runs.forEach((run, i) => {
    for (const [key, dash] of [["pass_at_k", "5 4"], ["pass_hat_k", null]]) {
      const pts = curvePoints(run.summary, key);
      const path = pts.map(([k, v]) => `${f.x(k)},${f.y(v)}`).join(" ");
      f.root.append(svgEl("polyline", {
        points: path, fill: "none", stroke: colorOf(i), "stroke-width": 2, "stroke-dasharray": dash, opacity: dash ? 0.75 : 1,
      }));
      for (const [k, v] of pts) {
        const name = key === "pass_at_k" ? "pass@" : "pass^";
        const tasks = run.summary.tasks_at_k[String(k)], total = run.summary.tasks;
        const over = tasks === total ? "" : ` (over ${tasks} of ${total} tasks)`;
        f.root.append(svgEl("circle", {
          class: "pt curve-point", cx: f.x(k), cy: f.y(v), r: dash ? 2.6 : 3.4,
          fill: dash ? "#fff" : colorOf(i), stroke: colorOf(i), "stroke-width": 1.5,
          "data-model": run.label, "data-metric": key, "data-k": k, "data-value": v, "data-tasks": tasks,
        }, svgEl("title", {}, `${run.label} — ${name}${k} = ${pct(v)}${over}`)));
      }
    }
  });
  const legend = el("div", { class: "legend" },
    el("span", {}, el("span", { class: "solid" }), "pass^k (all k attempts pass)"),
    el("span", {}, el("span", { class: "dash" }), "pass@k (at least one of k passes)"),
    runs.map((r, i) => el("span", {}, swatch(colorOf(i)), r.label)));
  return card("curves", "Reliability as k grows",
    "pass^k falls as more consecutive successes are required; pass@k rises with more tries. Unbiased estimators, k = 1..n, every point over one task set, the tasks with all n attempts counted, so the curves are monotone (hover for the count when that is fewer than all).",
    f.root, legend);
}

function breadthChart(runs) {
  const f = frame({
    title: "breadth against consistency", x: [0, 1], y: [0, 1], xTicks: UNIT, yTicks: UNIT,
    xFormat: (t) => pct(t, 0), yFormat: (t) => pct(t, 0),
    xLabel: "consistency: pass^n (every attempt passes)", yLabel: "breadth: pass@n",
  });
  f.root.append(svgEl("line", { x1: f.x(0), y1: f.y(0), x2: f.x(1), y2: f.y(1), stroke: "#cbd5e1", "stroke-dasharray": "3 3" }));
  const label = labeller(f);
  runs.forEach((run, i) => {
    const k = run.summary.repeats, hat = run.summary.pass_hat_k[String(k)], at = run.summary.pass_at_k[String(k)];
    if (hat === null || at === null || hat === undefined || at === undefined) return;
    f.root.append(svgEl("line", { x1: f.x(hat), y1: f.y(hat), x2: f.x(hat), y2: f.y(at), stroke: colorOf(i), opacity: 0.35, "stroke-width": 2 }));
    f.root.append(svgEl("circle", {
      class: "pt breadth-point", cx: f.x(hat), cy: f.y(at), r: 6, fill: colorOf(i), stroke: "#fff", "stroke-width": 1.5,
      "data-model": run.label, "data-k": k, "data-pass-at-k": at, "data-pass-hat-k": hat,
    }, svgEl("title", {}, `${run.label} — pass@${k} ${pct(at)}, pass^${k} ${pct(hat)}`)));
    f.root.append(label(f.x(hat), f.y(at), run.label));
  });
  return card("breadth", "Breadth against consistency",
    "Each model at k = n: how many tasks it can solve at all (pass@n) against how many it solves every time (pass^n). The gap to the diagonal is what repeats expose.",
    f.root);
}

function paretoChart(runs) {
  const placed = runs.map((r, i) => ({ run: r, i, cost: r.summary.cost.per_success_usd, acc: r.summary.pass_at_1 }))
    .filter((p) => p.cost !== null && p.acc !== null);
  const unknown = runs.filter((r) => r.summary.cost.per_success_usd === null).map((r) => r.label);
  const note = "Agent cost per successful attempt against pass@1. Filled points are on the Pareto frontier: no other run is both cheaper and at least as accurate.";
  if (!placed.length) return card("pareto", "Cost against accuracy", note, el("p", { class: "empty" }, "No run has a known cost per success."));
  const ticks = niceTicks(Math.max(...placed.map((p) => p.cost)) * 1.1 || 1);
  const f = frame({
    title: "cost against accuracy", x: [0, ticks[ticks.length - 1]], y: [0, 1], xTicks: ticks, yTicks: UNIT,
    xFormat: (t) => "$" + String(Number(t.toPrecision(3))), yFormat: (t) => pct(t, 0), xLabel: "agent cost per successful attempt (USD)", yLabel: "pass@1",
  });
  const frontier = placed.filter((p) => p.run.on_frontier).sort((a, b) => a.cost - b.cost || b.acc - a.acc);
  if (frontier.length > 1) {
    const steps = [];
    frontier.forEach((p, j) => {
      if (j > 0) steps.push(`${f.x(p.cost)},${f.y(frontier[j - 1].acc)}`);
      steps.push(`${f.x(p.cost)},${f.y(p.acc)}`);
    });
    f.root.append(svgEl("polyline", { points: steps.join(" "), fill: "none", stroke: "#0f172a", "stroke-width": 1.5, "stroke-dasharray": "4 3" }));
  }
  const label = labeller(f);
  for (const p of placed) {
    const on = p.run.on_frontier;
    f.root.append(svgEl("circle", {
      class: "pt pareto-point", cx: f.x(p.cost), cy: f.y(p.acc), r: on ? 7 : 5.5,
      fill: on ? colorOf(p.i) : "#fff", stroke: colorOf(p.i), "stroke-width": 2,
      "data-model": p.run.label, "data-cost": p.cost, "data-value": p.acc, "data-frontier": on ? "true" : "false",
    }, svgEl("title", {}, `${p.run.label} — ${usd(p.cost)} per success, pass@1 ${pct(p.acc)}${on ? " (frontier)" : ""}`)));
    f.root.append(label(f.x(p.cost), f.y(p.acc), p.run.label));
  }
  const extra = unknown.length ? el("p", { class: "note" }, "Cost unknown (no price): " + unknown.join(", ")) : null;
  return card("pareto", "Cost against accuracy", note, f.root, extra);
}

function signatureChart(runs) {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.summary.signatures)))].sort();
  const rowH = 34, width = 600, left = 150, right = 20, height = 24 + rowH * runs.length;
  const root = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": "failure signature shares" });
  runs.forEach((run, i) => {
    const sigs = run.summary.signatures, failed = Object.values(sigs).reduce((a, b) => a + b, 0);
    const y = 8 + i * rowH;
    root.append(svgEl("text", { class: "axis-label", x: left - 10, y: y + 15, "text-anchor": "end" }, run.label));
    if (!failed) {
      root.append(svgEl("text", { x: left, y: y + 15 }, "no failed attempts"));
      return;
    }
    let x = left;
    names.forEach((name, j) => {
      const count = sigs[name] || 0;
      if (!count) return;
      const w = ((width - left - right) * count) / failed;
      root.append(svgEl("rect", {
        class: "signature-bar", x, y, width: Math.max(w, 0.5), height: 22, fill: signatureColor(name, j),
        "data-model": run.label, "data-signature": name, "data-count": count, "data-value": count / failed,
      }, svgEl("title", {}, `${run.label} — ${name}: ${count} of ${failed} failed attempts (${pct(count / failed)})`)));
      if (w > 44) root.append(svgEl("text", { x: x + w / 2, y: y + 15, "text-anchor": "middle", fill: "#fff", style: "fill:#fff;font-weight:600" }, pct(count / failed, 0)));
      x += w;
    });
  });
  const legend = el("div", { class: "legend" }, names.map((name, j) => el("span", {}, swatch(signatureColor(name, j)), name)));
  const kinds = el("table", { class: "diff", id: "kind-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "model"), el("th", { class: "num" }, "failed"),
      ["wrong value", "missing effect", "extra effect"].map((k) => el("th", { class: "num" }, k)))),
    el("tbody", {}, runs.map((run) => {
      const failed = Object.values(run.summary.signatures).reduce((a, b) => a + b, 0);
      return el("tr", {}, el("td", {}, run.label), el("td", { class: "num" }, failed),
        ["wrong_value", "missing_effect", "extra_effect"].map((k) => {
          const c = run.summary.discrepancy_kinds[k] || 0;
          return el("td", { class: "num", "data-model": run.label, "data-kind": k, "data-count": c }, failed ? `${c} (${pct(c / failed, 0)})` : "–");
        }));
    })));
  return card("signatures", "Why attempts fail",
    "Share of failed attempts by failure signature (exactly one each), and of failed attempts whose state diff shows each discrepancy kind (they overlap).",
    root, legend, el("div", { style: "overflow-x:auto;margin-top:10px" }, kinds));
}
