// The browser table of `rook serve`: one person at seat 0 against bots.
// It creates a game (a fresh secret deal unless a seed is typed in), joins
// seat 0, then polls the seat's view and shows the legal actions as buttons;
// a button sends the action with the move number.  The game and its seat
// token are kept in the browser's storage, so a reload goes on with the game;
// if the seat's token was lost, the game's owner token frees the seat and the
// page takes it again.  When a hand of a trick game is over, the page asks
// for its double-dummy review and shows what each seat's costly cards cost.
"use strict";

const GAMES = ["tournament", "partnership-57", "crowsnest", "crowsnest-100", "kentucky-discard-original",
               "red-one", "buckeye", "kentucky-rook", "dixie", "house-180", "toonerville"];
const $ = (id) => document.getElementById(id);
const COLOURS = {B: "black", G: "green", R: "red", Y: "yellow"};
const SAVED = "rook_core.seat";
let game = null, token = null, owner = null, view = null, timer = null, sending = false, shown = null;
let reviewed = 0;   // the last hand whose review was asked for
let epoch = 0;      // bumped by each new game: an answer to an older game's request is dropped

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

function line(label, text) {
  const row = document.createElement("div");
  row.className = "line";
  row.dataset.what = label;
  const b = document.createElement("b");
  b.textContent = label + ": ";
  row.append(b, text);
  return row;
}

// A trick's cards, each with the seat that played it ([[seat, card], ...]).
function played(what, text, trick) {
  const row = line(what === "previous" ? "previous trick" : what, text);
  row.dataset.what = what;
  for (const [seat, card] of trick) {
    const one = document.createElement("span");
    one.className = "played";
    one.dataset.seat = seat;
    one.append(`seat ${seat} `, cardEl(card), " ");
    row.append(one);
  }
  return row;
}

// Who sits where: the page's person at its seat, bots elsewhere (the game's public seats).
let seatKinds = null;   // GET /games/{id}'s seats, read once a game
function seatName(s) {
  if (s === view.seat) return "you";
  const seat = seatKinds && seatKinds[s];
  if (!seat) return "?";
  return seat.kind === "bot" ? `${seat.bot} bot` : seat.taken ? "a person" : "an open seat";
}

async function readSeats() {
  const asked = game;
  try {
    const pub = await call("GET", `/games/${game}`);
    if (game === asked) {
      seatKinds = pub.seats;
      shown = null;           // draw the names
      if (view) render();
    }
  } catch (e) {
    seatKinds = null;
  }
}

function gameOver(result, o) {
  if (!result) return "Game over.";
  if (o.game === "toonerville") {
    const t = result.totals.map((x, p) => `player ${p} ${x}`).join(", ");
    return `Game over: player(s) ${result.winners.join(", ")} won with the fewest points (${t}).`;
  }
  const [a, b] = result.totals;
  if (result.winner_team === null || result.winner_team === undefined) {
    return `Game over after ${result.hands} hands with no winner (the hand limit): team 0 ${a}, team 1 ${b}.`;
  }
  const w = result.winner_team;
  const you = view.seat % 2 === w ? "your team wins" : "your team loses";
  return `Game over: team ${w} wins ${w === 0 ? a : b} to ${w === 0 ? b : a} after ${result.hands} hands; ${you}.`;
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
    info.push(`${o.variant}, hand ${o.hand_number}, ${o.phase} phase`,
              `you are seat ${o.seat} (team ${o.seat % 2}, with seat ${(o.seat + 2) % 4}); dealer: seat ${o.dealer}`);
    table.append(line("seats", [0, 1, 2, 3].map((s) => `seat ${s}: ${seatName(s)}`).join(" · ")));
    table.append(line("bidding", o.bids.length ? o.bids.map(([s, b]) => `seat ${s} ${b === null ? "pass" : b}`)
      .join(", ") : "no call yet"));
    if (o.declarer !== null && o.declarer !== undefined) {
      table.append(line("contract", `seat ${o.declarer} (team ${o.declarer % 2}) bid ${o.high_bid}` +
        (o.trump ? `, trump ${COLOURS[o.trump] || o.trump}` : "")));
    }
    table.appendChild(played("trick", "", o.trick));
    if (o.tricks.length) {
      const last = o.tricks[o.tricks.length - 1];
      table.appendChild(played("previous", `seat ${last.winner} took it: `, last.cards));
    }
    table.append(line("this hand", `team 0 ${o.points[0]} points (${o.tricks_won[0]} tricks), ` +
      `team 1 ${o.points[1]} points (${o.tricks_won[1]} tricks)`));
    table.append(line("score", `team 0 ${o.totals[0]}, team 1 ${o.totals[1]}; playing to ${o.target}`));
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
    $("status").textContent = gameOver(view.result, o);
  } else {
    $("status").textContent = view.to_move === view.seat ? "Your move." : `Waiting for seat ${view.to_move}.`;
  }
}

function showReview(n, r) {
  $("review").hidden = false;
  $("review-title").textContent = `Hand ${n}, reviewed with every hand open`;
  const seats = $("review-seats"), list = $("review-cards");
  seats.replaceChildren();
  list.replaceChildren();
  if (r.error) {
    $("review-summary").textContent = r.error;
    return;
  }
  const [lo, hi] = Array.isArray(r.worth) ? r.worth : [r.worth, r.worth];
  const span = (a, b) => (a === b ? `${a}` : `${a} to ${b}`);
  $("review-summary").textContent =
    `Seat ${r.declarer} declared ${r.bid} in ${COLOURS[r.trump] || r.trump}; the teams took ${r.points[0]} and ` +
    `${r.points[1]}. Best play from the first lead gives team 0 ${span(lo, hi)} and team 1 ` +
    `${span(r.total - hi, r.total - lo)} of the ${r.total} points.`;
  const head = document.createElement("tr");
  for (const h of ["Seat", "Team", "Costly cards", "Points given away"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  seats.appendChild(head);
  for (const [seat, m] of Object.entries(r.mistakes)) {
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    for (const x of [seat === "0" ? "0 (you)" : seat, Number(seat) % 2, m.cards, m.cost]) {
      const td = document.createElement("td");
      td.textContent = x;
      tr.appendChild(td);
    }
    seats.appendChild(tr);
  }
  for (const c of r.cards) {
    if (c.cost <= 0) continue;
    const li = document.createElement("li");
    li.append(`Trick ${c.trick}: seat ${c.seat} played `, cardEl(c.card),
              `, ${c.cost}${c.exact === false ? " or more" : ""} points given away; best: `, cards(c.best || []));
    list.appendChild(li);
  }
  if (!list.children.length) {
    const li = document.createElement("li");
    li.textContent = "Every card was a best card.";
    list.appendChild(li);
  }
}

// Ask once for the review of the latest finished hand of a trick game.
async function reviewFinished() {
  const o = view.observation;
  if (o.game === "toonerville") return;
  const n = view.over ? o.hand_number : o.hand_number - 1;
  if (n <= reviewed) return;
  reviewed = n;
  const asked = game;
  try {
    const r = await call("GET", `/games/${game}/hands/${n}/review`);
    if (game === asked) showReview(n, r);
  } catch (e) {
    if (game !== asked) return;
    if (/busy|waiting|try again/i.test(e.message)) reviewed = n - 1;   // asked again at the next poll
    else showReview(n, {error: `Hand ${n}: ${e.message}`});
  }
}

async function refresh() {
  if (!game || !token) return;          // a new game is being set up
  const mine = epoch;
  try {
    const v = await call("GET", `/games/${game}/view`);
    if (mine !== epoch) return;
    view = v;
    render();
    reviewFinished();
  } catch (e) {
    if (mine === epoch) $("error").textContent = e.message;
  }
}

async function send(action) {
  if (sending || !game || !token) return;   // a new game is being set up: its buttons come with its view
  sending = true;
  try {
    view = await call("POST", `/games/${game}/actions`, {action, move: view.move});
    $("error").textContent = "";
    render();
    reviewFinished();
  } catch (e) {
    $("error").textContent = e.message;
  } finally {
    sending = false;
  }
}

$("new-game").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  clearInterval(timer);
  const mine = ++epoch;
  game = token = null;
  shown = null;
  $("legal").replaceChildren();   // the last game's actions are not this one's
  $("error").textContent = "";
  reviewed = 0;
  $("review").hidden = true;
  const name = $("game").value;
  const players = name === "toonerville" ? Number($("players").value) : 4;
  const seats = ["human"].concat(Array(players - 1).fill($("bots").value));
  try {
    const body = {game: name, seats};
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    if (name === "toonerville") body.players = players;
    const g = await call("POST", "/games", body);
    if (mine !== epoch) return;
    const joined = (await call("POST", `/games/${g.game_id}/seats/0/join`)).token;
    if (mine !== epoch) return;
    game = g.game_id;
    owner = g.owner_token;
    token = joined;
    localStorage.setItem(SAVED, JSON.stringify({game, token, owner}));
    seatKinds = null;
    await refresh();
    readSeats();
    clearInterval(timer);
    timer = setInterval(refresh, 1500);
  } catch (e) {
    $("status").textContent = "Error: " + e.message;
  }
});

// Go on with the game of this browser's last visit, if it is still there
// (unless a new game was started meanwhile: then that one's state is kept).
(async () => {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(SAVED) || "null");
  } catch (e) {
    saved = null;
  }
  if (!saved || typeof saved.game !== "string" || typeof saved.token !== "string") return;
  const mine = epoch;
  game = saved.game;
  token = saved.token;
  owner = typeof saved.owner === "string" ? saved.owner : null;
  try {
    let v;
    try {
      v = await call("GET", `/games/${game}/view`);
    } catch (e) {
      if (mine !== epoch) return;
      if (!owner) throw e;
      // The seat's token no longer works: the owner frees the seat and takes it again.
      token = owner;
      await call("POST", `/games/${game}/seats/0/reset`);
      if (mine !== epoch) return;
      token = (await call("POST", `/games/${game}/seats/0/join`)).token;
      if (mine !== epoch) return;
      localStorage.setItem(SAVED, JSON.stringify({game, token, owner}));
      v = await call("GET", `/games/${game}/view`);
    }
    if (mine !== epoch) return;
    view = v;
    render();
    reviewFinished();
    readSeats();
    clearInterval(timer);
    timer = setInterval(refresh, 1500);
  } catch (e) {
    if (mine !== epoch) return;
    localStorage.removeItem(SAVED);
    game = token = owner = null;
  }
})();
