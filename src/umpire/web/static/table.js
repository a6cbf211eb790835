// The web table: a tap on the table moves the acting unit there; a tap on an enemy aims at it.
(function () {
  function tablePoint(svg, evt) {
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const h = parseFloat(svg.dataset.height);
    return { x: p.x, y: h - p.y };
  }
  document.addEventListener("click", function (evt) {
    const svg = evt.target.closest && evt.target.closest("#map svg");
    if (!svg) return;
    const panel = document.getElementById("panel");
    const form = document.getElementById("tap");
    if (!panel || !form || panel.dataset.myTurn !== "1") return;
    const unit = evt.target.closest(".unit");
    form.elements["x"].value = ""; form.elements["y"].value = ""; form.elements["unit"].value = "";
    if (unit && !unit.classList.contains("own")) {
      form.elements["unit"].value = unit.dataset.unit;
    } else if (!unit && panel.dataset.decision === "move") {
      const p = tablePoint(svg, evt);
      form.elements["x"].value = p.x.toFixed(2);
      form.elements["y"].value = p.y.toFixed(2);
    } else {
      return;
    }
    htmx.trigger(form, "submit");
  });
})();
