// Taps on the map, the offline banner and the turn told to the player: phone.js.

// Joint dice (docs/dice-protocol.md): every request carries fresh entropy from this browser;
// a side's page commits to a secret value, then reveals it once every side has committed.
(function () {
  function randomHex(bytes) {
    const a = new Uint8Array(bytes);
    crypto.getRandomValues(a);
    return Array.from(a, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }
  // SHA-256 of an ASCII string (crypto.subtle exists only on https or localhost).
  function sha256(ascii) {
    function rotr(n, x) { return (x >>> n) | (x << (32 - n)); }
    const K = [];
    const H = [];
    let prime = 2;
    function isPrime(n) { for (let f = 2; f * f <= n; f++) { if (n % f === 0) return false; } return true; }
    let i = 0;
    while (i < 64) {
      if (isPrime(prime)) {
        if (i < 8) H[i] = (Math.pow(prime, 1 / 2) * 4294967296) | 0;
        K[i] = (Math.pow(prime, 1 / 3) * 4294967296) | 0;
        i++;
      }
      prime++;
    }
    const bytes = [];
    for (let c = 0; c < ascii.length; c++) bytes.push(ascii.charCodeAt(c) & 0xff);
    const bitLen = bytes.length * 8;
    bytes.push(0x80);
    while ((bytes.length % 64) !== 56) bytes.push(0);
    for (let s = 7; s >= 0; s--) bytes.push(s >= 4 ? 0 : (bitLen >>> (s * 8)) & 0xff);
    const w = new Array(64);
    for (let off = 0; off < bytes.length; off += 64) {
      for (let t = 0; t < 16; t++) {
        w[t] = (bytes[off + 4 * t] << 24) | (bytes[off + 4 * t + 1] << 16) | (bytes[off + 4 * t + 2] << 8) | bytes[off + 4 * t + 3];
      }
      for (let t = 16; t < 64; t++) {
        const s0 = rotr(7, w[t - 15]) ^ rotr(18, w[t - 15]) ^ (w[t - 15] >>> 3);
        const s1 = rotr(17, w[t - 2]) ^ rotr(19, w[t - 2]) ^ (w[t - 2] >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
      }
      let [a, b, c, d, e, f, g, h] = H;
      for (let t = 0; t < 64; t++) {
        const t1 = (h + (rotr(6, e) ^ rotr(11, e) ^ rotr(25, e)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
        const t2 = ((rotr(2, a) ^ rotr(13, a) ^ rotr(22, a)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      H[0] = (H[0] + a) | 0; H[1] = (H[1] + b) | 0; H[2] = (H[2] + c) | 0; H[3] = (H[3] + d) | 0;
      H[4] = (H[4] + e) | 0; H[5] = (H[5] + f) | 0; H[6] = (H[6] + g) | 0; H[7] = (H[7] + h) | 0;
    }
    return H.map(function (x) { return (x >>> 0).toString(16).padStart(8, "0"); }).join("");
  }
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
      htmx.ajax("POST", url + "/commit", { values: { digest: sha256(value) }, target: "#panel", swap: "outerHTML" })
        .finally(settle);
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
