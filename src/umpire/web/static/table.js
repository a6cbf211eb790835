// Taps on the map, the offline banner and the turn told to the player: phone.js.

// Joint dice (docs/dice-protocol.md): every request carries fresh entropy from this browser;
// a side's page commits to a secret value, then reveals it once every side has committed.
(function () {
  function randomHex(bytes) {
    const a = new Uint8Array(bytes);
    crypto.getRandomValues(a);
    return Array.from(a, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }
  // SHA-256 of a text, as hex (a promise). The browser's own crypto.subtle.digest wherever
  // the page is a secure context (https, localhost); elsewhere (a table on plain http over
  // the LAN, where crypto.subtle is missing) the vendored js-sha256 (static/sha256.js, MIT,
  // licence in static/sha256-LICENSE.txt). Both are checked against the standard vectors
  // in tests/browser/test_web_security_browser.py.
  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }
  function subtle() { return window.isSecureContext && window.crypto && window.crypto.subtle; }
  function sha256(text) {
    if (subtle()) return window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(hex);
    return Promise.resolve(window.sha256(text));
  }
  sha256.path = function () { return subtle() ? "crypto.subtle" : "js-sha256"; };
  window.umpireSha256 = sha256;
  // What this page sent, keyed by the number of actions it saw ("at"): the action logged
  // next must carry one of these entropies, or the host changed it (docs/dice-protocol.md,
  // "What the web page must do", 4). Answers and typed faces resume an action that keeps
  // the entropy of the request that began it, so only orders and actions are expected.
  const expected = {};
  function expects(detail) {
    const at = detail.parameters["at"];
    return at !== undefined && at !== null && at !== "" && /\/(order|act)$/.test(detail.path || "");
  }
  document.addEventListener("htmx:configRequest", function (evt) {
    if (evt.detail.verb !== "post") return;
    const params = evt.detail.parameters;
    if (!params["entropy"]) params["entropy"] = randomHex(32);
    if (expects(evt.detail)) (expected[params["at"]] = expected[params["at"]] || []).push(params["entropy"]);
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    const cfg = evt.detail.requestConfig;
    const ok = evt.detail.successful !== undefined ? evt.detail.successful : evt.detail.xhr.status < 400;
    if (ok || !cfg || cfg.verb !== "post" || !expects(cfg)) return;
    const list = expected[cfg.parameters["at"]] || [];
    const i = list.indexOf(cfg.parameters["entropy"]);
    if (i >= 0) list.splice(i, 1);  // refused: nothing was logged for it
  });
  function checkEntropy() {
    const panel = document.getElementById("panel");
    if (!panel || !panel.dataset.jointPhase) return;
    document.querySelectorAll("#panel .log .entry[data-no]").forEach(function (entry) {
      const before = String(Number(entry.dataset.no) - 1);
      const sent = expected[before];
      if (!sent || sent.length === 0) return;
      delete expected[before];
      const got = entry.dataset.entropy || "";
      if (sent.indexOf(got) >= 0) {
        document.body.dataset.entropyChecked = String(Number(document.body.dataset.entropyChecked || "0") + 1);
        return;
      }
      const alarm = document.getElementById("entropy-alarm");
      document.body.dataset.entropyAlarm = "1";
      if (alarm) {
        alarm.hidden = false;
        alarm.textContent = "Warning: action " + entry.dataset.no + " was logged with entropy " +
          (got ? got.slice(0, 12) + "…" : "none") + ", but this page sent " + sent[0].slice(0, 12) +
          "…: the host changed what your dice came from. Keep the export and verify it.";
      }
    });
  }
  document.addEventListener("htmx:afterSettle", checkEntropy);
  let busy = false;
  let again = false;  // a newer panel arrived while a commit or reveal was on its way
  function settle() { busy = false; if (again) { again = false; joint(); } }
  function joint() {
    const panel = document.getElementById("panel");
    if (!panel || !panel.dataset.jointPhase) return;
    if (busy) { again = true; return; }
    const key = "umpire-joint:" + panel.dataset.game + ":" + panel.dataset.role;
    let value = localStorage.getItem(key);
    if (!value) { value = randomHex(32); localStorage.setItem(key, value); }
    const url = "/t/" + panel.dataset.token;
    if (panel.dataset.jointPhase === "commit" && panel.dataset.jointCommitted === "0") {
      busy = true;
      sha256(value).then(function (digest) {
        return htmx.ajax("POST", url + "/commit", { values: { digest: digest }, target: "#panel", swap: "outerHTML" });
      }).finally(settle);
    } else if (panel.dataset.jointPhase === "reveal" && panel.dataset.jointRevealed === "0") {
      busy = true;
      htmx.ajax("POST", url + "/reveal", { values: { value: value }, target: "#panel", swap: "outerHTML" })
        .finally(settle);
    }
  }
  document.addEventListener("htmx:afterSettle", joint);
  document.addEventListener("DOMContentLoaded", joint);
})();

// Live updates: answers can arrive out of order (a slow reply to this page's own request after
// the refetch a newer change caused), so a panel older than the one shown is never swapped in.
(function () {
  function stamp(html) {
    const tag = /<div id="panel"[^>]*>/.exec(html);
    const boot = tag && /\sdata-boot="([^"]*)"/.exec(tag[0]);
    const version = tag && /\sdata-version="(\d+)"/.exec(tag[0]);
    return boot && version ? { boot: boot[1], version: Number(version[1]) } : null;
  }
  document.addEventListener("htmx:beforeSwap", function (evt) {
    const shown = document.getElementById("panel");
    if (!shown || evt.detail.target !== shown || !evt.detail.shouldSwap) return;
    const got = stamp(String(evt.detail.serverResponse || ""));
    if (got && got.boot === shown.dataset.boot && got.version < Number(shown.dataset.version)) {
      evt.detail.shouldSwap = false;
      document.body.dataset.staleDropped = String(Number(document.body.dataset.staleDropped || "0") + 1);
    }
  });
})();
