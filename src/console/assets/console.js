// Review console keyboard shortcuts and small conveniences. Served as a file: the page's
// Content-Security-Policy allows no inline script.
(function () {
  "use strict";

  function typing(target) {
    return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  function go(selector) {
    var link = document.querySelector(selector);
    if (link) window.location.assign(link.href);
  }

  // Queue: j/k move the selection, Enter opens it.
  var rows = Array.prototype.slice.call(document.querySelectorAll("table[data-queue] tbody tr[data-href]"));
  var selected = rows.length ? 0 : -1;
  function select(index) {
    if (!rows.length) return;
    selected = Math.max(0, Math.min(rows.length - 1, index));
    rows.forEach(function (row, i) { row.classList.toggle("selected", i === selected); });
    rows[selected].scrollIntoView({ block: "nearest" });
  }
  if (rows.length) select(0);
  rows.forEach(function (row, i) {
    row.addEventListener("click", function (event) {
      if (event.target instanceof HTMLAnchorElement) return;
      select(i);
      window.location.assign(row.getAttribute("data-href"));
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.metaKey) return;
    var dispute = document.getElementById("dispute-form");
    // Ctrl+Enter submits the dispute reason being written.
    if (event.ctrlKey && event.key === "Enter" && dispute && dispute.contains(event.target)) {
      event.preventDefault();
      dispute.requestSubmit();
      return;
    }
    if (event.ctrlKey || typing(event.target)) {
      if (event.key === "Escape" && event.target instanceof HTMLElement) event.target.blur();
      return;
    }
    var help = document.getElementById("shortcuts");
    switch (event.key) {
      case "j":
        if (rows.length) select(selected + 1); else go("a[data-shortcut=j]");
        break;
      case "k":
        if (rows.length) select(selected - 1); else go("a[data-shortcut=k]");
        break;
      case "Enter":
      case "o":
        if (rows.length && selected >= 0) window.location.assign(rows[selected].getAttribute("data-href"));
        else return;
        break;
      case "v":
        var validate = document.getElementById("validate-form");
        if (validate) validate.requestSubmit(); else return;
        break;
      case "d":
        var reason = document.getElementById("dispute-reason");
        if (reason) reason.focus(); else return;
        break;
      case "u":
        go("a[data-shortcut=u]");
        break;
      case "?":
        if (help && !help.open) help.showModal();
        break;
      default:
        return;
    }
    event.preventDefault();
  });

  // Selects that apply at once (workspace switcher, key filter).
  document.querySelectorAll("select[data-autosubmit]").forEach(function (selectEl) {
    selectEl.addEventListener("change", function () { selectEl.form.requestSubmit(); });
  });

  // Confirmation before destructive forms (revoking a key).
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
    });
  });

  // Copy the new key's secret.
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var field = document.querySelector(button.getAttribute("data-copy"));
      if (!field) return;
      field.select();
      var done = function () { button.textContent = "Copied"; };
      if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
      else { document.execCommand("copy"); done(); }
    });
  });
})();
