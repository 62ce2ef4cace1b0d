// Drill-down: a run's tasks -> a task's attempts -> one attempt's transcript beside its state diff.
// The tasks and attempt buttons come from the page's index; the attempt itself from its chunk (load).
function drilldown(runs, load) {
  const state = { run: 0, domain: "", search: "", failing: false, task: null, repeat: null, shown: 0 };
  const indexes = new Map();
  const runSelect = el("select", { id: "drill-run", "aria-label": "run" },
    runs.map((r, i) => el("option", { value: i }, r.label)));
  const domainSelect = el("select", { id: "drill-domain", "aria-label": "domain" });
  const search = el("input", { id: "drill-search", type: "search", placeholder: "task id contains…", "aria-label": "task id" });
  const failing = el("input", { id: "drill-failing", type: "checkbox" });
  const shown = el("span", { class: "muted", id: "drill-count" });
  const taskBody = el("tbody", { id: "task-rows" });
  const attemptView = el("div", { id: "attempt-view" });
  const controls = el("div", { class: "controls" },
    runs.length > 1 ? el("label", {}, "Run ", runSelect) : null, el("label", {}, "Domain ", domainSelect),
    el("label", {}, "Task ", search), el("label", {}, failing, " with a failed attempt"), shown);
  const table = el("div", { class: "task-scroll" }, el("table", { id: "task-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "task"), el("th", {}, "domain"), el("th", { class: "num" }, "passed"), el("th", {}, "attempts"))),
    taskBody));

  // The selected run's tasks with their index rows read into attempt objects (once per run).
  function runTasks(i = state.run) {
    if (!indexes.has(i)) {
      const run = runs[i];
      indexes.set(i, run.tasks.map((t) => ({ ...t, attempts: t.attempts.map((row) => indexAttempt(row, run, t.task_id)) })));
    }
    return indexes.get(i);
  }

  function tasks() {
    return runTasks().filter((t) => (!state.domain || t.domain === state.domain)
      && (!state.search || t.task_id.includes(state.search)) && (!state.failing || t.attempts.some((a) => !a.passed && !flagged(a))));
  }

  function renderDomains() {
    const domains = [...new Set(runTasks().map((t) => t.domain).filter((d) => d))].sort();
    clear(domainSelect).append(el("option", { value: "" }, "all"), ...domains.map((d) => el("option", { value: d }, d)));
  }

  // Only the selection mark moves: the table of a run's tasks can hold thousands of attempt dots.
  function markSelected() {
    for (const row of taskBody.querySelectorAll("tr.task-row.selected")) row.classList.remove("selected");
    const row = [...taskBody.children].find((r) => r.dataset.taskId === state.task);
    if (row) row.classList.add("selected");
  }

  function renderTasks() {
    clear(taskBody);
    const listed = tasks();
    shown.textContent = `${listed.length} of ${runTasks().length} tasks`;
    for (const task of listed) {
      const counted = task.attempts.filter((a) => !flagged(a)); // simulator faults are left out of the counts
      const n = counted.length, c = counted.filter((a) => a.passed).length;
      const row = el("tr", { class: "task-row" + (task.task_id === state.task ? " selected" : ""), "data-task-id": task.task_id, tabindex: 0 },
        el("td", {}, task.task_id), el("td", { class: "muted" }, task.domain || "–"),
        el("td", { class: "num" }, `${c}/${n}`, el("span", { class: "rate" }, el("span", { style: `width:${n ? (100 * c) / n : 0}%` }))),
        el("td", {}, el("div", { class: "dots" },
          task.attempts.map((a) => el("span", { class: "dot " + outcomeClass(a), title: `#${a.repeat} ${outcomeLabel(a)}` })),
          task.errors.map((e) => el("span", { class: "dot error", title: `#${e.repeat} infrastructure error: ${e.kind}` })))));
      row.addEventListener("click", () => { selectTask(task.task_id); linkTo("task", task.task_id); });
      row.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { selectTask(task.task_id); linkTo("task", task.task_id); } });
      taskBody.append(row);
    }
  }

  function selectTask(taskId, repeat) {
    state.task = taskId;
    const task = runTasks().find((t) => t.task_id === taskId);
    const first = task ? task.attempts.find((a) => !a.passed) || task.attempts[0] : null;
    state.repeat = repeat !== undefined ? repeat : first ? first.repeat : null;
    markSelected();
    renderAttempts(task);
  }

  function renderAttempts(task) {
    clear(attemptView);
    if (!task) return attemptView.append(el("p", { class: "empty" }, "Click a task to see its attempts."));
    const buttons = el("div", { class: "attempts", id: "attempt-buttons" },
      el("strong", { style: "margin-right:6px;align-self:center" }, task.task_id),
      task.attempts.map((a) => {
        const b = el("button", {
          class: `attempt ${outcomeClass(a)}${a.repeat === state.repeat ? " selected" : ""}`, "data-repeat": a.repeat, type: "button",
        }, `#${a.repeat} ${flagged(a) ? "⚑ simulator fault" : a.passed ? "✓ passed" : "✗ " + (a.signature || "failed")}`);
        b.addEventListener("click", () => { selectTask(task.task_id, a.repeat); linkTo("attempt", a.trialId); });
        return b;
      }),
      task.errors.map((e) => el("button", { class: "attempt", disabled: true, type: "button", title: e.message }, `#${e.repeat} ⚠ ${e.kind}`)));
    attemptView.append(buttons);
    const attempt = task.attempts.find((a) => a.repeat === state.repeat);
    if (!attempt) return attemptView.append(el("p", { class: "empty" }, "No finished attempt: only infrastructure errors."));
    showAttempt(attempt);
  }

  // The attempt's detail once its chunk is read; a later click wins over a slower earlier read.
  function showAttempt(attempt) {
    const token = ++state.shown;
    const pending = el("p", { class: "empty", id: "attempt-loading" }, `Loading attempt #${attempt.repeat}…`);
    attemptView.removeAttribute("data-loaded");
    attemptView.setAttribute("aria-busy", "true");
    attemptView.append(pending);
    load(attempt.chunk).then((attempts) => {
      if (token !== state.shown) return;
      pending.replaceWith(attemptDetail(attempts[attempt.slot]));
      attemptView.setAttribute("data-loaded", "true");
      attemptView.removeAttribute("aria-busy");
    }, (error) => {
      if (token !== state.shown) return;
      pending.replaceWith(el("p", { class: "load-error", id: "attempt-error" }, `This attempt cannot be shown: ${error.message}.`));
      attemptView.setAttribute("data-loaded", "error");
      attemptView.removeAttribute("aria-busy");
    });
  }

  runSelect.addEventListener("change", () => { state.run = Number(runSelect.value); state.domain = ""; start(); });
  domainSelect.addEventListener("change", () => { state.domain = domainSelect.value; renderTasks(); });
  search.addEventListener("input", () => { state.search = search.value.trim(); renderTasks(); });
  failing.addEventListener("change", () => { state.failing = failing.checked; renderTasks(); });

  function start() {
    renderDomains();
    renderTasks();
    const all = tasks();
    const firstFailing = all.find((t) => t.attempts.some((a) => !a.passed)) || all[0];
    if (firstFailing) selectTask(firstFailing.task_id);
    else renderAttempts(null);
  }

  // `#task=ID` or `#attempt=TRIAL`: that task (in the shown run if it has it) or that attempt, scrolled to.
  function openFragment() {
    const link = parseFragment(location.hash);
    if (!link) return false;
    const found = findLinked(runs, runTasks, link, state.run);
    if (!found) {
      start();
      attemptView.prepend(el("p", { class: "load-error", id: "fragment-error" }, `This report has no ${link.kind} ${link.id}.`));
      return true;
    }
    state.run = found.run; runSelect.value = String(found.run);
    Object.assign(state, { domain: "", search: "", failing: false });
    search.value = ""; failing.checked = false;
    renderDomains();
    renderTasks();
    selectTask(found.task, found.repeat);
    requestAnimationFrame(() => (link.kind === "task" ? table : attemptView).scrollIntoView({ block: "start" }));
    return true;
  }

  window.addEventListener("hashchange", openFragment);
  if (!openFragment()) start();
  return card("drilldown", "Tasks and attempts",
    "Click a task, then an attempt: its transcript beside its state diff — what the agent changed against what was required. The address bar then links straight to it (#task=ID, #attempt=TRIAL).",
    controls, table, attemptView);
}

// {kind: "task" | "attempt", id} of a `#task=ID` / `#attempt=TRIAL` fragment, or null.
function parseFragment(hash) {
  const m = /^#(task|attempt)=(.+)$/.exec(hash || "");
  if (!m) return null;
  try { return { kind: m[1], id: decodeURIComponent(m[2]) }; } catch { return { kind: m[1], id: m[2] }; }
}

// Where a link points: {run, task, repeat}, looking in the preferred run first; null when nowhere.
function findLinked(runs, tasksOf, link, preferred) {
  const order = [preferred, ...runs.map((_, i) => i).filter((i) => i !== preferred)];
  for (const i of order) {
    for (const t of tasksOf(i)) {
      if (link.kind === "task" && t.task_id === link.id) return { run: i, task: t.task_id, repeat: undefined };
      const a = link.kind === "attempt" ? t.attempts.find((x) => x.trialId === link.id) : null;
      if (a) return { run: i, task: t.task_id, repeat: a.repeat };
    }
  }
  return null;
}

// The address bar names what the reader clicked, so it can be copied as a link; no history entry.
function linkTo(kind, id) {
  if (id === undefined || id === null) return;
  try { history.replaceState(null, "", `#${kind}=${encodeURIComponent(id)}`); } catch { /* a page without history */ }
}

// An attempt (from the index) whose simulated customer misplayed: neither a pass nor an agent failure.
function flagged(a) {
  return a.faultKinds.length > 0;
}

function outcomeClass(a) {
  return flagged(a) ? "fault" : a.passed ? "pass" : "fail";
}

function outcomeLabel(a) {
  if (flagged(a)) return "simulator fault (left out): " + a.faultKinds.join(", ");
  return a.passed ? "passed" : a.signature || "failed";
}

function attemptDetail(a) {
  const cost = Object.entries(a.cost_usd || {}).map(([role, v]) => `${role} ${usd(v)}`).join(" · ");
  const head = el("div", { class: "detail-head", id: "attempt-head", "data-trial-id": a.trial_id },
    el("span", { class: "badge " + (a.passed ? "pass" : "fail") }, a.passed ? "PASSED" : "FAILED"),
    a.simulator_faults.length ? el("span", { class: "badge fault", id: "attempt-fault" }, "SIMULATOR FAULT · left out of the numbers") : null,
    a.signature ? el("span", { class: "badge warn", id: "attempt-signature" }, a.signature) : null,
    !a.state_passed ? el("span", { class: "badge fail" }, "state wrong") : el("span", { class: "badge pass" }, "state right"),
    el("span", { class: "meta" }, `finish: ${a.finish_reason || "–"}${a.customer_end_reason ? " (" + a.customer_end_reason + ")" : ""} · cost: ${cost}`));
  return el("div", {}, head, el("div", { class: "detail" },
    el("div", { class: "pane" }, el("h3", {}, "Transcript"), transcriptView(a.transcript, markedEntries(a))),
    el("div", { class: "pane" }, el("h3", {}, "State diff"), faultView(a.simulator_faults), violationView(a.discrepancies),
      discrepancyView(a.discrepancies), rubricView(a.rubrics), effectsView(a.effects))));
}

function transcriptView(entries, marked) {
  if (!entries.length) return el("p", { class: "empty" }, "Empty transcript.");
  return el("div", { class: "transcript", id: "transcript" }, entries.map((e, i) => {
    const who = e.role === "tool" ? `tool result · ${e.tool_name || "?"}${e.is_error ? " · error" + (e.error_kind ? ": " + e.error_kind : "") : ""}` : e.role;
    return el("div", { class: `entry ${e.role}${e.is_error ? " error" : ""}${marked.has(i) ? " flagged" : ""}`, "data-role": e.role, "data-index": i, id: `entry-${i}` },
      el("div", { class: "who" }, `${i} · ${who}`),
      e.content ? el("div", { class: "text" }, e.content) : null,
      e.tool_calls.map((c) => el("div", { class: "tool-call" }, `${c.name}(${c.arguments ? JSON.stringify(c.arguments) : c.raw_arguments || ""})`)));
  }));
}

function discrepancyView(items) {
  const title = el("h4", {}, "Discrepancies — required against actual");
  if (!items.length) return el("div", {}, title, el("p", { class: "ok" }, "None: the end state matches what was required."));
  return el("div", {}, title, el("table", { class: "diff", id: "discrepancies" },
    el("thead", {}, el("tr", {}, ["kind", "table", "key", "field", "expected", "actual"].map((h) => el("th", {}, h)))),
    el("tbody", {}, items.map((d) => el("tr", { class: "discrepancy " + d.kind, "data-kind": d.kind },
      el("td", { class: "kind" }, d.kind), el("td", {}, d.table), el("td", { class: "value" }, show(d.key)),
      el("td", {}, d.field === null ? "–" : d.field), valueCell(d.expected), valueCell(d.actual))))));
}

// A discrepancy's value: a whole row (a missing or extra effect) one field a line, anything else as shown.
function valueCell(value) {
  const isRow = value !== null && typeof value === "object" && !Array.isArray(value);
  if (!isRow) return el("td", { class: "value" }, show(value));
  return el("td", { class: "value row-value" },
    Object.entries(value).map(([name, v]) => el("div", { class: "row-field" }, el("span", { class: "muted" }, `${name}: `), show(v))));
}

function rubricView(rubrics) {
  if (!rubrics || !rubrics.length) return null;
  return el("div", {}, el("h4", {}, "Rubrics"), el("table", { class: "diff" },
    el("tbody", {}, rubrics.map((r) => el("tr", {},
      el("td", {}, el("span", { class: "badge " + (r.passed ? "pass" : "fail") }, r.passed ? "yes" : "no")),
      el("td", {}, r.question, r.reason ? el("div", { class: "muted" }, r.reason) : null))))));
}

function effectsView(effects) {
  const title = el("h4", {}, "What the agent changed");
  const groups = ["inserted", "updated", "deleted"].filter((k) => effects && effects[k] && Object.keys(effects[k]).length);
  if (!groups.length) return el("div", {}, title, el("p", { class: "muted" }, "Nothing: no row was inserted, updated or deleted."));
  return el("div", { id: "effects" }, title, groups.map((kind) => el("div", { class: "effect-group", "data-effect": kind },
    Object.keys(effects[kind]).sort().map((table) => el("div", {},
      el("div", { class: "effect-table" }, `${kind} · ${table}`),
      effects[kind][table].map((row) => el("div", { class: "effect-row " + kind }, effectText(kind, row))))))));
}

function effectText(kind, row) {
  if (kind !== "updated") return show(row);
  const fields = Object.entries(row.fields || {}).map(([f, c]) => `${f}: ${show(c.before)} → ${show(c.after)}`);
  return `key ${show(row.key)}\n` + fields.join("\n");
}

// The transcript entries a finding points at: the offending tool calls and the customer's faulty messages.
function markedEntries(a) {
  const violations = a.discrepancies.filter((d) => d.kind === "policy_violation").map((d) => d.message_index);
  return new Set([...violations, ...a.simulator_faults.map((f) => f.message_index)].filter((i) => i !== null && i !== undefined));
}

function entryLink(index) {
  if (index === null || index === undefined) return "–";
  const link = el("a", { href: `#entry-${index}`, class: "entry-link", "data-index": index }, `entry ${index}`);
  link.addEventListener("click", (ev) => {
    const target = document.getElementById(`entry-${index}`);
    if (!target) return;
    ev.preventDefault();
    target.scrollIntoView({ block: "center" });
    target.classList.add("focus");
    setTimeout(() => target.classList.remove("focus"), 1500);
  });
  return link;
}

function violationView(discrepancies) {
  const items = discrepancies.filter((d) => d.kind === "policy_violation");
  if (!items.length) return null;
  return el("div", {}, el("h4", {}, "Policy violations — trace checks the agent broke"), el("table", { class: "diff", id: "violations" },
    el("thead", {}, el("tr", {}, ["check", "tool", "what happened", "call", "rule"].map((h) => el("th", {}, h)))),
    el("tbody", {}, items.map((d) => el("tr", { class: "violation", "data-check": d.check },
      el("td", { class: "kind" }, d.check), el("td", {}, d.field || "–"), el("td", {}, show(d.actual)),
      el("td", {}, entryLink(d.message_index)), el("td", { class: "muted" }, show(d.expected)))))));
}

function faultView(faults) {
  if (!faults.length) return null;
  return el("div", {}, el("h4", {}, "Simulator faults — the simulated customer's, not the agent's"),
    el("p", { class: "muted" }, "This attempt is neither a pass nor a failure of the agent: it is left out of every number and rerun by --rerun-simulator-faults."),
    el("table", { class: "diff", id: "simulator-faults" },
      el("thead", {}, el("tr", {}, ["fault", "fact", "message", "evidence"].map((h) => el("th", {}, h)))),
      el("tbody", {}, faults.map((f) => el("tr", { class: "fault", "data-kind": f.kind },
        el("td", { class: "kind" }, f.kind), el("td", {}, f.fact || "–"), el("td", {}, entryLink(f.message_index)),
        el("td", {}, f.evidence))))));
}
