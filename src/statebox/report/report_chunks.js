// Attempts on demand. The page holds an index row per attempt; its transcript and diff are in a chunk:
// inlined as JSON when the report has one chunk, else a script file beside the page that calls
// stateboxChunk(reportId, number, attempts) (a <script src> works from file://, where fetch() does not).

// An index row as the task table and the attempt buttons use it (layout: html_chunks.py IndexRow); the
// trial id is in the row only when it is not the usual suite/task/agent/model/repeat (runner/record.py).
function indexAttempt(row, run, taskId) {
  const [repeat, passed, signature, chunk, slot, faultKinds, unusualId] = row;
  const s = run.summary, trialId = unusualId || `${s.suite}/${taskId}/${s.agent}/${s.model || "-"}/${repeat}`;
  return { repeat, passed: passed === 1, signature: signature < 0 ? null : run.signatures[signature], chunk, slot, faultKinds, trialId };
}

function chunkFileName(number) {
  return `attempts-${String(number).padStart(4, "0")}.js`;
}

// load(chunkNumber) -> Promise of the chunk's attempts; each chunk is read once.
function chunkLoader(data) {
  const promises = new Map(), waiting = new Map();
  window.stateboxChunk = (reportId, number, attempts) => {
    const w = waiting.get(number);
    if (!w) return;
    waiting.delete(number);
    if (reportId === data.report_id) w.resolve(attempts);
    else w.reject(new Error(`${w.path} belongs to another report: write the report again, or keep each page with its own folder`));
  };

  function fromFile(number, resolve, reject) {
    const folder = data.chunks.folder;
    if (!folder) return reject(new Error(`chunk ${number} is missing from this page`));
    const path = `${folder}/${chunkFileName(number)}`;
    waiting.set(number, { resolve, reject, path });
    const script = document.createElement("script");
    script.src = `${encodeURIComponent(folder)}/${chunkFileName(number)}`;
    script.addEventListener("error", () => {
      waiting.delete(number);
      reject(new Error(`${path} could not be read: keep the folder ${folder} beside this page`));
    });
    script.addEventListener("load", () => {
      if (!waiting.has(number)) return;
      waiting.delete(number);
      reject(new Error(`${path} is not a chunk of a statebox report`));
    });
    document.head.append(script);
  }

  return function load(number) {
    if (!promises.has(number)) {
      const promise = new Promise((resolve, reject) => {
        const inline = document.getElementById(`statebox-chunk-${number}`);
        if (inline) resolve(JSON.parse(inline.textContent));
        else fromFile(number, resolve, reject);
      });
      promise.catch(() => promises.delete(number)); // a failed read may be retried by clicking again
      promises.set(number, promise);
    }
    return promises.get(number);
  };
}
