// The live page: reads /live/sales (server-sent events, read with fetch so that a refused request's problem+json can
// be shown) and draws each ranking as bars. A ranking is drawn only if it counts at least what the one shown counted
// (countedThrough), so no bar ever shrinks for the same question; one that is not current is drawn faded, with why.
"use strict";

const staleAfterMs = 5000;
const retryAfterMs = 2000;
const form = document.getElementById("choice");
const problem = document.getElementById("problem");
const panels = { store: document.getElementById("store-panel"), item: document.getElementById("item-panel") };
const shownThrough = new Map();
let stream = null;
let lastEventAt = 0;

function today() {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60000).toISOString().slice(0, 10);
}

function compact(isoDay) { return isoDay.replaceAll("-", ""); }

function addDays(isoDay, days) {
  const day = new Date(isoDay + "T00:00:00Z");
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

function time(iso) { return iso ? new Date(iso).toLocaleTimeString() : "–"; }

function choice() {
  const values = Object.fromEntries(new FormData(form));
  const query = new URLSearchParams({ store: values.store, item: values.item });
  if (values.range === "day") {
    query.set("from", compact(values.day));
    query.set("to", compact(values.day));
  } else if (values.range === "week") {
    query.set("from", compact(addDays(values.day, -6)));
    query.set("to", compact(values.day));
  }
  const days = values.range === "all" ? "all time" : values.range === "day" ? `on ${values.day}` : `${addDays(values.day, -6)} to ${values.day}`;
  return { values, query, days };
}

function showChoice({ values, days }) {
  panels.store.querySelector(".id").textContent = values.store;
  panels.item.querySelector(".id").textContent = values.item;
  for (const panel of Object.values(panels)) {
    panel.querySelector(".days").textContent = days;
  }
}

function markNotCurrent(panel, why) {
  panel.classList.add("not-current");
  panel.querySelector(".state").textContent = why;
}

function drawRanking(ranking) {
  const panel = panels[ranking.question];
  const key = `${ranking.question}/${ranking.id}/${ranking.from}/${ranking.to}`;
  const shown = shownThrough.get(key) ?? -1;
  if (ranking.countedThrough < shown) return;
  if (ranking.asOf) {
    shownThrough.set(key, ranking.countedThrough);
    const list = panel.querySelector(".bars");
    const most = Math.max(1, ...ranking.bars.map(bar => bar.units));
    list.replaceChildren(...ranking.bars.map(bar => {
      const row = document.createElement("li");
      row.dataset.id = bar.id;
      const name = document.createElement("span");
      name.textContent = `${ranking.question === "store" ? "item" : "store"} ${bar.id}`;
      const drawn = document.createElement("span");
      drawn.className = "bar";
      drawn.style.width = `${(100 * bar.units / most).toFixed(1)}%`;
      const units = document.createElement("span");
      units.className = "units";
      units.textContent = bar.units.toLocaleString();
      row.append(name, drawn, units);
      return row;
    }));
    if (ranking.bars.length === 0) {
      const none = document.createElement("li");
      none.className = "none";
      none.textContent = "No sales in these days.";
      list.replaceChildren(none);
    }
  }
  if (ranking.state === "current") {
    panel.classList.remove("not-current");
    panel.querySelector(".state").textContent = `As of ${time(ranking.asOf)}, counted through ledger entry ${ranking.countedThrough}.`;
  } else {
    const since = ranking.asOf ? ` Showing the answer of ${time(ranking.asOf)}.` : "";
    markNotCurrent(panel, `${ranking.message}${since}`);
  }
}

function drawChain(chain) {
  const counting = chain.shards.map(shard => shard.purchasesPerSecond);
  document.getElementById("confirmed").textContent = `${chain.confirmedPerSecond.toFixed(1)} (last at ${time(chain.lastConfirmed)})`;
  document.getElementById("counted").textContent = counting.length ? Math.max(...counting).toFixed(1) : "–";
  document.getElementById("lag").textContent = chain.countingLagSeconds == null
    ? (chain.lastConfirmed ? "not known: a shard has not answered" : "nothing confirmed yet")
    : `${chain.countingLagSeconds.toFixed(1)} s`;
  document.getElementById("shards").textContent = `${chain.shards.length} of ${chain.shardCount}` +
    (chain.shards.length ? ` (replicas answering: ${chain.shards.map(shard => `shard ${shard.shard}: ${shard.replicasAnswering}`).join(", ")})` : "");
  const state = document.getElementById("chain-state");
  state.textContent = `As of ${time(chain.at)}.`;
  state.classList.toggle("away", chain.shards.length < chain.shardCount);
}

function handle(block) {
  let type = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) type = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
  }
  if (data.length === 0) return;
  lastEventAt = Date.now();
  const value = JSON.parse(data.join("\n"));
  if (type === "store" || type === "item") drawRanking(value);
  else if (type === "chain") drawChain(value);
  else if (type === "refused") showProblem(value.message);
}

function showProblem(message) {
  problem.textContent = message;
  problem.hidden = !message;
}

async function read(query, signal) {
  const headers = { Accept: "text/event-stream" };
  const credential = document.getElementById("credential").value.trim();
  if (credential) headers.Authorization = `Bearer ${credential}`;
  const response = await fetch(`/live/sales?${query}`, { signal, headers });
  if (response.status === 401 || response.status === 403) {
    document.getElementById("credential-field").hidden = false;
    showProblem("This API asks for an analyst's credential (Auth:RequireForCourseApi): paste one above and press Show. " +
      "`dotnet run --project tools/Supermarket.Credentials -- analyst <your name>` prints one on the API's machine.");
    return false;
  }
  if (response.status === 400) {
    const refused = await response.json().catch(() => null);
    showProblem(refused?.detail ?? "The choice is not one the API can answer.");
    return false;
  }
  if (!response.ok) throw new Error(`the API answered ${response.status}`);
  showProblem("");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return true;
    // The whole buffer: a CR LF may be split between two reads.
    buffer = (buffer + value).replaceAll("\r\n", "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      handle(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
}

async function follow(query, signal) {
  while (!signal.aborted) {
    try {
      if (!(await read(query, signal))) return;
    } catch (error) {
      if (signal.aborted) return;
      for (const panel of Object.values(panels)) markNotCurrent(panel, `The API cannot be reached (${error.message}); trying again.`);
    }
    await new Promise(resolve => setTimeout(resolve, retryAfterMs));
  }
}

function start() {
  stream?.abort();
  stream = new AbortController();
  const current = choice();
  history.replaceState(null, "", `?${new URLSearchParams(current.values)}`);
  showChoice(current);
  for (const panel of Object.values(panels)) {
    panel.querySelector(".bars").replaceChildren();
    markNotCurrent(panel, "Asking…");
  }
  lastEventAt = Date.now();
  follow(current.query, stream.signal);
}

// A stream that has gone quiet shows as such: no bar is shown as current for longer than it is known to be.
setInterval(() => {
  if (Date.now() - lastEventAt > staleAfterMs && problem.hidden) {
    for (const panel of Object.values(panels)) markNotCurrent(panel, `No news from the API since ${new Date(lastEventAt).toLocaleTimeString()}.`);
  }
}, 1000);

const asked = new URLSearchParams(location.search);
for (const name of ["store", "item", "day", "range"]) {
  // By id: the form's elements collection has a method named item.
  if (asked.has(name)) document.getElementById(name).value = asked.get(name);
}
if (!document.getElementById("day").value) document.getElementById("day").value = today();
form.addEventListener("submit", event => { event.preventDefault(); start(); });
start();
