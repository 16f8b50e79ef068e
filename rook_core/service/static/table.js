// The browser table of `rook serve`: one person at seat 0 against bots.
// It creates a game (a fresh secret deal unless a seed is typed in), joins
// seat 0, then polls the seat's view and shows the legal actions as buttons;
// a button sends the action with the move number.  The game and its seat
// token are kept in the browser's storage, so a reload goes on with the game;
// if the seat's token was lost, the game's owner token frees the seat and the
// page takes it again.
"use strict";

const GAMES = ["tournament", "partnership-57", "crowsnest", "crowsnest-100", "kentucky-discard-original",
               "red-one", "buckeye", "kentucky-rook", "dixie", "house-180", "toonerville"];
const $ = (id) => document.getElementById(id);
const SAVED = "rook_core.seat";
let game = null, token = null, owner = null, view = null, timer = null, sending = false, shown = null;

for (const g of GAMES) {
  const o = document.createElement("option");
  o.value = o.textContent = g;
  $("game").appendChild(o);
}

async function call(method, path, body) {
  const headers = {"Content-Type": "application/json"};
  if (token) headers["Authorization"] = "Bearer " + token;
  const r = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function cardEl(name) {
  const el = document.createElement("span");
  el.className = "card " + (name === "Rook" ? "Rook" : name[0]);
  el.textContent = name;
  return el;
}

function cards(names) {
  const box = document.createElement("div");
  box.className = "cards";
  for (const n of names) box.appendChild(cardEl(n));
  return box;
}

function render() {
  // Polling returns the same view most of the time: redraw only what changed,
  // so a button is never replaced under the pointer.
  const key = JSON.stringify(view);
  if (key === shown) return;
  shown = key;
  const o = view.observation;
  $("board").hidden = false;
  $("board").dataset.move = view.move;
  $("hand").replaceChildren(cards(o.hand || []));
  const table = $("table");
  table.replaceChildren();
  const info = [];
  if (o.game === "toonerville") {
    info.push(`Round ${o.round}: ${o.contract.sets} set(s), ${o.contract.runs} run(s)`,
              `phase ${o.phase}`, `discard ${o.discard_top || "-"}`, `stock ${o.stock_size}`,
              `hand sizes ${o.hand_sizes.join(" / ")}`, `totals ${o.totals.join(" / ")}`);
    o.table.forEach((m, i) => {
      const row = document.createElement("div");
      row.className = "meld";
      row.append(`${i}: ${m.kind} of seat ${m.owner} `, cards(m.cards));
      table.appendChild(row);
    });
  } else {
    info.push(`${o.variant}, hand ${o.hand_number}`, `phase ${o.phase}`, `trump ${o.trump || "-"}`,
              `bid ${o.high_bid || "-"} by ${o.declarer ?? "-"}`, `totals ${o.totals.join(" / ")}`);
    const trick = document.createElement("div");
    trick.append("Trick: ", cards(o.trick.map((x) => x[1])));
    table.appendChild(trick);
  }
  $("info").textContent = info.join(" · ");
  const legal = $("legal");
  legal.replaceChildren();
  for (const a of view.legal) {
    const b = document.createElement("button");
    b.textContent = a;
    b.dataset.action = a;
    b.addEventListener("click", () => send(a));
    legal.appendChild(b);
  }
  if (view.over) {
    $("status").textContent = "Game over: " + JSON.stringify(view.result);
  } else {
    $("status").textContent = view.to_move === view.seat ? "Your move." : `Waiting for seat ${view.to_move}.`;
  }
}

async function refresh() {
  try {
    view = await call("GET", `/games/${game}/view`);
    render();
  } catch (e) {
    $("error").textContent = e.message;
  }
}

async function send(action) {
  if (sending) return;
  sending = true;
  try {
    view = await call("POST", `/games/${game}/actions`, {action, move: view.move});
    $("error").textContent = "";
    render();
  } catch (e) {
    $("error").textContent = e.message;
  } finally {
    sending = false;
  }
}

$("new-game").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  clearInterval(timer);
  token = null;
  shown = null;
  const name = $("game").value;
  const players = name === "toonerville" ? Number($("players").value) : 4;
  const seats = ["human"].concat(Array(players - 1).fill($("bots").value));
  try {
    const body = {game: name, seats};
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    if (name === "toonerville") body.players = players;
    const g = await call("POST", "/games", body);
    game = g.game_id;
    owner = g.owner_token;
    token = (await call("POST", `/games/${game}/seats/0/join`)).token;
    localStorage.setItem(SAVED, JSON.stringify({game, token, owner}));
    await refresh();
    timer = setInterval(refresh, 1500);
  } catch (e) {
    $("status").textContent = "Error: " + e.message;
  }
});

// Go on with the game of this browser's last visit, if it is still there.
(async () => {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(SAVED) || "null");
  } catch (e) {
    saved = null;
  }
  if (!saved || typeof saved.game !== "string" || typeof saved.token !== "string") return;
  game = saved.game;
  token = saved.token;
  owner = typeof saved.owner === "string" ? saved.owner : null;
  try {
    try {
      view = await call("GET", `/games/${game}/view`);
    } catch (e) {
      if (!owner) throw e;
      // The seat's token no longer works: the owner frees the seat and takes it again.
      token = owner;
      await call("POST", `/games/${game}/seats/0/reset`);
      token = (await call("POST", `/games/${game}/seats/0/join`)).token;
      localStorage.setItem(SAVED, JSON.stringify({game, token, owner}));
      view = await call("GET", `/games/${game}/view`);
    }
    render();
    timer = setInterval(refresh, 1500);
  } catch (e) {
    localStorage.removeItem(SAVED);
    game = token = owner = null;
  }
})();
