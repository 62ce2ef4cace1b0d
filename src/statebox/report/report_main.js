// Page assembly: header, warnings, leaderboard, charts, drill-down.
function leaderboard(runs) {
  const order = runs.map((r, i) => ({ r, i }))
    .sort((a, b) => (b.r.summary.pass_at_1 ?? -1) - (a.r.summary.pass_at_1 ?? -1) || a.r.label.localeCompare(b.r.label));
  const ns = [...new Set(runs.map((r) => r.summary.repeats))];
  const n = ns.length === 1 ? String(ns[0]) : "n";
  const head = ["#", "model", "tasks × n", "pass@1 (95% CI)", `pass@${n}`, `pass^${n}`, `pass^${n} plug-in`,
    `all ${n} pass`, "retention", "$/success", "$/dependable", "errors", "sim. faults", "errored spend"];
  const rows = order.map(({ r, i }, rank) => {
    const s = r.summary, k = String(s.repeats), ci = s.pass_at_1_ci, c = s.cost;
    const cell = (key, text, ...extra) => el("td", { class: "num", "data-key": key }, text, ...extra);
    const over = s.tasks_at_k[k] === s.tasks ? null : el("span", { class: "over", "data-key": "tasks_at_n" }, `over ${s.tasks_at_k[k]} of ${s.tasks} tasks`);
    const short = s.short_tasks ? el("span", { class: "badge warn", style: "margin-left:6px", "data-key": "short_tasks" }, `${s.short_tasks} short`) : null;
    return el("tr", { class: "leader-row", "data-model": r.label },
      el("td", { class: "num" }, rank + 1),
      el("td", { class: "model" }, swatch(colorOf(i)), el("strong", {}, r.label),
        el("div", { class: "sub" }, `${s.agent} agent · ${s.suite}`)),
      cell("tasks", `${s.tasks} × ${s.repeats}`, short),
      cell("pass_at_1", pct(s.pass_at_1), ciSpan(s.pass_at_1_ci, pct), counts(s.passes, s.attempts),
        s.pass_at_1_tasks === s.tasks ? null : el("span", { class: "over" }, `over ${s.pass_at_1_tasks} of ${s.tasks} tasks`),
        bandSpan(s, "pass_at_1", null)),
      cell("pass_at_n", pct(s.pass_at_k[k]), ciSpan(s.pass_at_k_ci[k], pct), counts(s.curve_passes, s.curve_attempts), over),
      cell("pass_hat_n", pct(s.pass_hat_k[k]), ciSpan(s.pass_hat_k_ci[k], pct), counts(s.curve_passes, s.curve_attempts),
        over && over.cloneNode(true), bandSpan(s, "pass_hat_k", k)),
      cell("pass_hat_n_plugin", pct(s.pass_hat_k_plugin[k])),
      cell("all_k_tasks", `${s.all_k_tasks}/${s.tasks} (${pct(s.all_k_share)})`, ciSpan(s.all_k_ci, pct)),
      cell("retention", s.retention === null ? "–" : s.retention.toFixed(2)),
      cell("per_success", usd(c.per_success_usd), ciSpan(c.per_success_ci, usd), denominator(`${usd(c.agent_usd)} / ${s.passes} passed`)),
      cell("per_dependable", usd(c.per_dependable_task_usd), ciSpan(c.per_dependable_task_ci, usd), denominator(`${usd(c.agent_usd)} / ${s.all_k_tasks} tasks`)),
      cell("infra_errors", s.infra_errors),
      cell("simulator_faults", s.simulator_faults, s.simulator_faults ? el("span", { class: "ci" }, ` (${pct(s.simulator_fault_share)} of attempts)`) : null),
      cell("errored_usd", usd(c.errored_usd), c.errored_share ? el("span", { class: "ci" }, `${pct(c.errored_share)} of spend`) : null));
  });
  const table = el("table", { id: "leaderboard-table" },
    el("thead", {}, el("tr", {}, head.map((h, j) => el("th", { class: j >= 2 ? "num" : null }, h)))), el("tbody", {}, rows));
  return card("leaderboard", "Leaderboard",
    "Ranked by pass@1, with 95% intervals. pass^n: the chance that all n attempts of a task pass (unbiased); the plug-in (c/n)^n is biased upward and shown only for comparison. all n pass: tasks with exactly n finished attempts, every one passed, over all tasks (short tasks never count). sim. faults: attempts the simulated customer spoiled, left out like infrastructure errors. Costs are the agent's spend, errored and spoiled attempts included: $/success is spend / passed attempts, $/dependable is spend / dependable tasks.",
    el("div", { style: "overflow-x:auto" }, table));
}

// "passed/attempts" under a rate.
function counts(passed, attempts) {
  return el("span", { class: "ci", "data-key": "counts" }, `${passed}/${attempts} passed`);
}

// "spend / denominator" under a cost.
function denominator(text) {
  return el("span", { class: "ci", "data-key": "denominator" }, text);
}

// When an attempt errored: the rate under both conventions and the band of their intervals.
function bandSpan(s, key, k) {
  const b = s.error_band;
  if (!b) return null;
  const value = (side) => (k === null ? side[key] : side[key][k]);
  const band = k === null ? b[key] : b[key][k];
  const text = `errors as failures ${pct(value(b.errors_as_failures))} – excluded ${pct(value(b.errors_excluded))}`;
  return el("span", { class: "over", "data-key": "error_band" }, text, band ? ` · band [${pct(band[0])}, ${pct(band[1])}]` : "");
}

// "[lo, hi]" of an interval, in the given format; an interval without upper bound reads "[lo, no bound]".
function ciSpan(ci, format) {
  if (!ci || ci[0] === null || ci[0] === undefined) return null;
  return el("span", { class: "ci" }, `[${format(ci[0])}, ${ci[1] === null ? "no bound" : format(ci[1])}]`);
}

function domainTable(runs) {
  const domains = [...new Set(runs.flatMap((r) => Object.keys(r.summary.by_domain)))].sort();
  if (domains.length < 2) return null;
  return card("domains", "By domain", "Per domain: pass@1, pass@n and pass^n with their 95% intervals and passed/attempts, and $/success with its interval and denominator.", el("div", { style: "overflow-x:auto" }, el("table", { id: "domain-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "model"), domains.map((d) => el("th", { class: "num" }, d)))),
    el("tbody", {}, runs.map((r, i) => el("tr", {}, el("td", {}, swatch(colorOf(i)), r.label), domains.map((d) => {
      const s = r.summary.by_domain[d];
      if (!s) return el("td", { class: "num muted" }, "–");
      const k = String(s.repeats), over = s.curve_tasks === s.tasks ? "" : ` (over ${s.curve_tasks} of ${s.tasks} tasks)`;
      const line = (key, text, ...extra) => el("div", { "data-key": key }, text, ...extra);
      return el("td", { class: "num", "data-model": r.label, "data-domain": d },
        line("pass_at_1", pct(s.pass_at_1), ciSpan(s.pass_at_1_ci, pct), counts(s.passes, s.attempts)),
        line("pass_at_n", `pass@${k} ${pct(s.pass_at_k[k])}`, ciSpan(s.pass_at_k_ci[k], pct)),
        line("pass_hat_n", `pass^${k} ${pct(s.pass_hat_k[k])}${over}`, ciSpan(s.pass_hat_k_ci[k], pct)),
        line("per_success", `$/success ${usd(s.cost.per_success_usd)}`, ciSpan(s.cost.per_success_ci, usd), denominator(`/ ${s.passes} passed`)),
        s.short_tasks ? el("span", { class: "over" }, `${s.short_tasks} short`) : null);
    })))))));
}

function warningsBox(data) {
  const items = [...data.warnings];
  for (const r of data.runs) {
    const s = r.summary;
    if (!s.canonical) {
      const short = s.shortfall.slice(0, 8).map((t) => `${t.task_id} (${t.attempts}/${s.repeats}${t.errors ? `, ${t.errors} errored` : ""}${t.simulator_faults ? `, ${t.simulator_faults} simulator fault${t.simulator_faults === 1 ? "" : "s"}` : ""})`).join(", ");
      const more = s.shortfall.length > 8 ? ` and ${s.shortfall.length - 8} more` : "";
      items.push(`${r.label}: not canonical — ${s.short_tasks} of ${s.tasks} tasks are short (fewer than ${s.repeats} finished attempts) and never count as dependable: ${short}${more}. pass@k and pass^k are over the tasks with all ${s.repeats} attempts.`);
    }
    if (s.error_band) {
      const b = s.error_band;
      items.push(`${r.label}: ${s.infra_errors} attempt(s) ended in an infrastructure error. Errors can be likelier on failing attempts, which makes "errors excluded" read high and "errors as failures" read low, so pass@1 and pass^${s.repeats} are shown both ways with the band of their intervals (pass^k over ${b.errors_excluded.curve_tasks} and ${b.errors_as_failures.curve_tasks} tasks).`);
    }
    const j = s.judge_agreement;
    if (j) {
      const differ = j.disagreeing_tasks.length ? `; they differ on ${j.disagreeing_tasks.slice(0, 10).join(", ")}${j.disagreeing_tasks.length > 10 ? ` and ${j.disagreeing_tasks.length - 10} more` : ""}` : "";
      items.push(`${r.label}: passed is the suite's own verdict; statebox's typed judge agrees on ${j.agreeing}/${j.attempts} attempts (${pct(j.share)})${differ}.`);
    }
  }
  if (!items.length) return null;
  return el("div", { class: "warnings", id: "warnings" }, el("h3", {}, "Read with care"), el("ul", {}, items.map((w) => el("li", {}, w))));
}

function main() {
  const data = JSON.parse(document.getElementById("statebox-data").textContent);
  const runs = data.runs;
  const suites = [...new Set(runs.map((r) => r.summary.suite))].join(", ");
  const conventions = [...new Set(runs.map((r) => r.summary.convention))].join(", ");
  const attempts = runs.reduce((a, r) => a + r.summary.attempts, 0);
  document.body.append(
    el("header", { class: "page" },
      el("h1", {}, "statebox report ", el("span", {}, suites)),
      el("p", {}, `${runs.length} run${runs.length === 1 ? "" : "s"} · ${attempts.toLocaleString("en-US")} attempts · infrastructure errors: ${conventions.replace("errors-", "")} · statebox ${data.statebox_version}`)),
    el("main", {},
      warningsBox(data),
      leaderboard(runs),
      el("div", { class: "grid2" }, curvesChart(runs), breadthChart(runs)),
      el("div", { class: "grid2" }, paretoChart(runs), signatureChart(runs)),
      failureCard(runs, data.seed_failure_analysis),
      domainTable(runs),
      flagsCard(runs),
      drilldown(runs, chunkLoader(data))),
    el("footer", {}, "Generated by statebox. Definitions of every number: docs/metrics.md in the statebox repository."));
  // The first screen is drawn: when, in ms since navigation started (tests and benchmarks wait for it).
  document.documentElement.setAttribute("data-ready", String(Math.round(performance.now())));
}

main();
