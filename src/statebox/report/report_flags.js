// Policy violations (trace checks the agent broke) and simulator faults (the simulated customer's part),
// per model and per task. Simulator faults are left out of every other number on the page.
function flagsCard(runs) {
  const any = runs.some((r) => r.summary.simulator_faults || Object.keys(r.summary.policy_violations).length);
  if (!any) return null;
  return card("flags", "Policy violations and simulator faults",
    "Policy violations: failed attempts that broke a trace check (a write before the customer confirmed, before identity was verified, ...). Simulator faults: attempts where the simulated customer misplayed its part (a fact stated unasked, an identifier invented, ...); they are neither passes nor agent failures, are left out of pass@k and $/success, and are rerun by --rerun-simulator-faults.",
    runs.map((r) => flagsOfRun(r)));
}

function flagsOfRun(r) {
  const s = r.summary;
  const finished = s.attempts - (s.convention === "errors-as-failures" ? s.infra_errors : 0) + s.simulator_faults;
  const rows = [
    ...Object.entries(s.policy_violations).map(([check, n]) => el("tr", { class: "flag-row", "data-kind": "policy_violation", "data-name": check },
      el("td", {}, "policy violation"), el("td", { class: "kind" }, check), el("td", { class: "num" }, n),
      el("td", { class: "num" }, `${pct(s.failed_attempts ? n / s.failed_attempts : null)} of ${s.failed_attempts} failed`))),
    ...Object.entries(s.simulator_fault_kinds).map(([kind, n]) => el("tr", { class: "flag-row", "data-kind": "simulator_fault", "data-name": kind },
      el("td", {}, "simulator fault"), el("td", { class: "kind" }, kind), el("td", { class: "num" }, n),
      el("td", { class: "num" }, `${pct(s.simulator_fault_kind_shares[kind])} of ${finished} finished`))),
  ];
  const summary = el("p", { class: "muted" }, `${s.simulator_faults} attempt${s.simulator_faults === 1 ? "" : "s"} with a simulator fault (${pct(s.simulator_fault_share)} of ${finished} finished), left out.`);
  const perModel = el("table", { class: "diff flags-table", "data-model": r.label },
    el("thead", {}, el("tr", {}, ["", "check or fault", "attempts", "share"].map((h) => el("th", {}, h)))), el("tbody", {}, rows));
  const perTask = el("table", { class: "diff flagged-tasks", "data-model": r.label },
    el("thead", {}, el("tr", {}, ["task", "policy violations", "simulator faults"].map((h) => el("th", {}, h)))),
    el("tbody", {}, s.flagged_tasks.map((t) => el("tr", { class: "flagged-task", "data-task-id": t.task_id },
      el("td", {}, t.task_id), el("td", {}, tally(t.policy_violations)), el("td", {}, tally(t.simulator_faults))))));
  return el("div", { class: "flags-run" }, el("h3", {}, r.label), summary, perModel, el("h4", {}, "Per task"), perTask);
}

function tally(counts) {
  const parts = Object.entries(counts).map(([name, n]) => `${name} ×${n}`);
  return parts.length ? parts.join(", ") : "–";
}
