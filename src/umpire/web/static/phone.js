// The web table on a phone (docs/web.md, "On a phone"): taps on the map, a line saying what
// each tap did or why it did nothing, labels at a readable size, the acting unit's move
// allowance (asked of the server: it decides what is legal), errors cleared by the next
// success, a banner while the server cannot be reached, and "your turn" told to the player.
(function () {
  "use strict";
  const NEAR = 24;  // screen pixels: a tap this close to a unit's centre is a tap on it
  const LABEL_PX = 11;  // the labels' size on the screen, whatever the zoom
  let selected = null;  // the index of the selected unit (a string, as in data-unit)
  let zoom = Number(sessionStorage.getItem("umpire-zoom") || "1");

  function panel() { return document.getElementById("panel"); }
  function svgOf() { return document.querySelector("#map svg"); }

  function note(text, refused) {
    const el = document.getElementById("tapnote");
    if (!el) return;
    el.textContent = text;
    el.classList.toggle("refused", Boolean(refused));
    document.body.dataset.tapnote = text;  // for the browser tests
  }

  // -- the map's scale: labels about LABEL_PX on screen; zoom buttons ------------------------
  function scaleLabels() {
    const svg = svgOf();
    if (!svg) return;
    const map = document.getElementById("map");
    map.classList.remove("zoom2", "zoom3");
    if (zoom > 1) map.classList.add("zoom" + zoom);
    const w = svg.getBoundingClientRect().width;
    const units = parseFloat(svg.dataset.width);
    if (!w || !units) return;
    const fs = LABEL_PX * units / w;
    svg.style.setProperty("--fs", fs.toFixed(3) + "px");
    placeLabels(svg, fs);
  }
  // Labels above their unit; one that would cover a label already placed goes below it.
  function placeLabels(svg, fs) {
    const h = parseFloat(svg.dataset.height);
    const placed = [];
    const boxes = [];
    svg.querySelectorAll("g.unit").forEach(function (g) {
      const t = g.querySelector("text.label");
      if (t) boxes.push([g, t]);
    });
    boxes.sort(function (a, b) { return parseFloat(a[0].dataset.x) - parseFloat(b[0].dataset.x); });
    function clash(bb) {
      return placed.some(function (o) {
        return bb.x < o.x + o.width && o.x < bb.x + bb.width && bb.y < o.y + o.height && o.y < bb.y + bb.height;
      });
    }
    boxes.forEach(function (pair) {
      const g = pair[0]; const t = pair[1];
      if (!t.dataset.above) t.dataset.above = t.getAttribute("y");
      const cy = h - parseFloat(g.dataset.y);
      const above = parseFloat(t.dataset.above);
      t.setAttribute("y", above);
      let bb = t.getBBox();
      if (clash(bb)) {
        t.setAttribute("y", (2 * cy - above + fs * 0.8).toFixed(2));
        const below = t.getBBox();
        if (clash(below)) t.setAttribute("y", above); else bb = below;
      }
      placed.push(bb);
    });
  }
  window.addEventListener("resize", scaleLabels);

  // -- units and points ----------------------------------------------------------------------
  function unitInfo(g) {
    const t = g.querySelector(":scope > title");
    return t ? t.textContent : g.dataset.name;
  }
  function screenOf(svg, x, y) {
    const h = parseFloat(svg.dataset.height);
    const pt = svg.createSVGPoint();
    pt.x = x; pt.y = h - y;
    return pt.matrixTransform(svg.getScreenCTM());
  }
  function tablePoint(svg, evt) {
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return { x: p.x, y: parseFloat(svg.dataset.height) - p.y };
  }
  // The unit tapped: the one under the finger, else the nearest centre within NEAR pixels
  // among those ``near`` lets count (a move's destination may lie close to friends).
  function unitAt(svg, evt, near) {
    const hit = evt.target.closest && evt.target.closest(".unit");
    if (hit) return hit;
    let best = null;
    let bestD = NEAR;
    svg.querySelectorAll("g.unit").forEach(function (g) {
      if (!near(g)) return;
      const c = screenOf(svg, parseFloat(g.dataset.x), parseFloat(g.dataset.y));
      const d = Math.hypot(c.x - evt.clientX, c.y - evt.clientY);
      if (d < bestD) { bestD = d; best = g; }
    });
    return best;
  }
  function aimedAt(i) { return document.querySelector('#panel button.choice[data-target="' + i + '"]'); }
  function unitG(i) { return document.querySelector('#map g.unit[data-unit="' + i + '"]'); }

  function select(i) {
    document.querySelectorAll("#map g.unit.selected").forEach(function (g) { g.classList.remove("selected"); });
    selected = i;
    const g = i === null ? null : unitG(i);
    if (g) g.classList.add("selected");
    const p = panel();
    const layer = document.querySelector("#map .reach-layer");
    if (layer) layer.replaceChildren();
    if (g && p && i === p.dataset.acting && p.dataset.decision === "move") drawAllowance(p);
  }

  // The acting unit's allowance: the server probes its own legality test along rays.
  const allowanceCache = {};
  function drawAllowance(p, quiet) {
    const key = p.dataset.token + ":" + p.dataset.at + ":" + p.dataset.version;
    const draw = function (data) {
      const svg = svgOf();
      const layer = document.querySelector("#map .reach-layer");
      if (!svg || !layer || String(data.unit) !== panel().dataset.acting) return;  // moved on
      if (!data.points || !data.points.length) {
        if (quiet) return;
        note((data.name || "It") + " cannot move from where it stands" + (data.why ? ": " + data.why : "") + ". Pick from the list.", true);
        document.body.dataset.allowance = "0";
        return;
      }
      const h = parseFloat(svg.dataset.height);
      const poly = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
      poly.setAttribute("class", "reach");
      poly.setAttribute("points", data.points.map(function (q) { return q[0] + "," + (h - q[1]); }).join(" "));
      layer.replaceChildren(poly);
      document.body.dataset.allowance = String(data.points.length);
    };
    if (allowanceCache[key]) { draw(allowanceCache[key]); return; }
    fetch("/t/" + p.dataset.token + "/allowance", { headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) { allowanceCache[key] = data; draw(data); } })
      .catch(function () { /* the offline banner says so */ });
  }

  function why(p) {
    // Why a tap cannot give an order now, in the page's words (the server has the last word).
    if (!p.dataset.side) {
      return p.dataset.role === "host"
        ? "The host's link does not play a side: open a side's link to give orders."
        : "You are watching: this link gives no orders.";
    }
    if (p.dataset.state === "over") return "The battle is over.";
    if (p.dataset.state === "starting") return "The battle has not started: waiting for every side's page.";
    if (p.dataset.rolling) return "Waiting for real dice.";
    if (p.dataset.myTurn !== "1") {
      return p.dataset.waitingSide
        ? "Not your turn: waiting for the " + p.dataset.waitingSide + " side (" + p.dataset.step + ")."
        : "Not your turn.";
    }
    return "";
  }
  function actingName(p) {
    const g = unitG(p.dataset.acting);
    return g ? g.dataset.name : "the unit to act";
  }
  // An order from a tap: x and y (a move) or unit (an enemy aimed at), on the state shown.
  function send(values, what) {
    const p = panel();
    const source = document.getElementById("tapnote");
    if (!p || !source) return;
    const body = { at: p.dataset.at };
    ["x", "y", "unit"].forEach(function (k) { if (values[k] !== undefined) body[k] = values[k]; });
    note(what, false);
    htmx.ajax("POST", "/t/" + p.dataset.token + "/order", { values: body, source: source, target: "#panel", swap: "outerHTML" });
  }

  document.addEventListener("click", function (evt) {
    const svg = evt.target.closest && evt.target.closest("#map svg");
    const p = panel();
    if (!svg || !p) return;
    const reason = why(p);
    const kind = p.dataset.decision;
    // While a unit moves, only an enemy it may charge snaps to a nearby tap: a tap close to
    // friends (or to the unit itself) is where to go. Otherwise a tap near a unit is on it.
    const moving = !reason && kind === "move";
    const g = unitAt(svg, evt, function (u) {
      if (!moving) return true;
      return u.dataset.side !== p.dataset.side && Boolean(aimedAt(u.dataset.unit));
    });
    if (g) {
      const name = g.dataset.name;
      const enemy = p.dataset.side && g.dataset.side !== p.dataset.side;
      if (reason) {
        if (!enemy) select(g.dataset.unit);
        note(unitInfo(g) + ". " + reason, true);
        return;
      }
      if (enemy) {
        if (kind !== "move" && kind !== "fire") {
          note(unitInfo(g) + ". This is a " + p.dataset.step + " decision: pick from the list.", true);
          return;
        }
        const aimed = aimedAt(g.dataset.unit);
        if (!aimed) {
          note("No order of " + actingName(p) + " aims at " + name + " now: the list shows every order it may give.", true);
          return;
        }
        send({ unit: g.dataset.unit }, actingName(p) + ": " + aimed.textContent.trim() + "…");
        return;
      }
      if (g.dataset.unit === p.dataset.acting) {
        note(name + " selected: " + (kind === "move"
          ? "tap the table inside the green outline to move it there, or an enemy to charge."
          : "tap an enemy to aim at it."), false);
      } else {
        note(unitInfo(g) + ". Selected, but " + actingName(p) + " (outlined in gold) acts now.", true);
      }
      select(g.dataset.unit);  // after the line: an allowance with no room says so instead
      return;
    }
    // a tap on the table itself
    if (reason) { note(reason, true); return; }
    if (kind === "move") {
      if (selected !== p.dataset.acting) {
        select(p.dataset.acting);
        note(actingName(p) + " acts now: the green outline shows where it may go; tap inside it to move.", true);
        return;
      }
      const pt = tablePoint(svg, evt);
      send({ x: pt.x.toFixed(2), y: pt.y.toFixed(2) }, "Moving " + actingName(p) + "…");
      return;
    }
    if (kind === "fire") {
      note("A fire decision: tap an enemy inside " + actingName(p) + "'s fire arc, or pick from the list.", true);
      return;
    }
    note("This is a " + (p.dataset.step || "choice") + " decision, not a move: pick from the list.", true);
  });

  // A refused tap: its reason stays under the map as well as at the top of the page.
  document.addEventListener("htmx:afterRequest", function (evt) {
    const elt = evt.detail.elt;
    // the page's htmx-config swaps 4xx answers too (a one-line refusal into #flash), so htmx
    // calls them successful: the status decides here
    const status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    const ok = status >= 200 && status < 400;
    if (ok) {
      const flash = document.getElementById("flash");
      if (flash && evt.detail.requestConfig && evt.detail.requestConfig.verb === "post") flash.replaceChildren();
      return;
    }
    if (elt && elt.id === "tapnote") {
      const html = evt.detail.xhr && evt.detail.xhr.responseText || "";
      const text = new DOMParser().parseFromString(html, "text/html").body.textContent.trim();
      note(text || "The server refused the order.", true);
    }
  });

  document.addEventListener("click", function (evt) {
    const b = evt.target.closest && evt.target.closest("button.zoom");
    if (!b) return;
    zoom = Math.max(1, Math.min(3, zoom + (b.dataset.zoom === "in" ? 1 : -1)));
    sessionStorage.setItem("umpire-zoom", String(zoom));
    scaleLabels();
  });

  // -- after every new panel: labels, the acting unit selected, the turn told ----------------
  let myTurn = null;
  const baseTitle = document.title;
  let audio = null;
  document.addEventListener("pointerdown", function () {
    // a sound needs a tap on the page first (browsers' autoplay rules)
    if (!audio && window.AudioContext) { try { audio = new AudioContext(); } catch (e) { audio = null; } }
  }, { once: true });
  function chime() {
    if (!audio) return;
    try {
      const o = audio.createOscillator();
      const gain = audio.createGain();
      o.frequency.value = 660; gain.gain.value = 0.08;
      o.connect(gain); gain.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.18);
    } catch (e) { /* no sound here */ }
  }
  function tellTurn(p) {
    const mine = p.dataset.myTurn === "1" && Boolean(p.dataset.side);
    document.title = (mine ? "▶ Your turn: " : "") + baseTitle;
    document.body.dataset.yourTurn = mine ? "1" : "0";
    if (mine && myTurn === false) {
      if (navigator.vibrate) { try { navigator.vibrate(200); } catch (e) { /* not allowed */ } }
      chime();
      if (window.Notification && Notification.permission === "granted" && document.hidden) {
        try { new Notification("Umpire: your turn", { body: (p.dataset.step || p.dataset.title || "").trim(), tag: "umpire-turn" }); } catch (e) { /* mobile needs a service worker */ }
      }
      document.body.dataset.turnsTold = String(Number(document.body.dataset.turnsTold || "0") + 1);
    }
    myTurn = mine;
  }
  function fresh() {
    const p = panel();
    if (!p) return;
    scaleLabels();
    tellTurn(p);
    if (p.dataset.kind === "battle") {
      const mine = p.dataset.myTurn === "1" && (p.dataset.decision === "move" || p.dataset.decision === "fire");
      select(mine ? p.dataset.acting : null);
      // every seat sees where the acting unit may go; only its player's page selects it
      if (!mine && p.dataset.decision === "move" && p.dataset.acting) drawAllowance(p, true);
    }
  }
  // A new panel (an order's answer or the live feed's refetch): draw it afresh. The panel is
  // the only thing htmx swaps that carries the map and the turn.
  let shown = null;
  document.addEventListener("htmx:afterSettle", function () {
    const p = panel();
    if (p && p !== shown) { shown = p; fresh(); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    shown = panel();
    fresh();
    const bell = document.getElementById("notify");
    if (bell && window.Notification && Notification.permission === "default" && panel() && panel().dataset.side) {
      bell.hidden = false;
      bell.addEventListener("click", function () {
        Notification.requestPermission().then(function () { bell.hidden = true; });
      });
    }
  });

  // -- when the server cannot be reached: a banner; once it can, the page redraws itself -----
  let down = false;
  function offline(on) {
    const banner = document.getElementById("offline");
    if (banner) banner.hidden = !on;
    document.body.dataset.offline = on ? "1" : "0";
    const was = down;
    down = on;
    if (was && !on) refresh();
  }
  function refresh() {
    const p = panel();
    if (p) htmx.trigger(p, "sse:changed");
    const lobby = document.getElementById("lobby-list");
    if (lobby) htmx.trigger(lobby, "sse:changed");
  }
  document.addEventListener("htmx:sendError", function () { offline(true); });
  document.addEventListener("htmx:sseError", function () { offline(true); });
  document.addEventListener("htmx:sseOpen", function () { offline(false); });
  document.addEventListener("htmx:afterRequest", function (evt) { if (evt.detail.xhr && evt.detail.xhr.status > 0) { if (down) offline(false); } });
  window.addEventListener("offline", function () { offline(true); });
  // A tab left in the background (a phone asleep) redraws itself when it is shown again.
  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
  window.addEventListener("pageshow", function (evt) { if (evt.persisted) refresh(); });
})();
