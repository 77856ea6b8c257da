"use strict";
(function () {
  function mib(b) { return (b / 1048576).toFixed(1) + " MiB"; }
  function live() {
    var el = document.getElementById("live");
    if (!el) return;
    function tick() {
      if (document.hidden) return;
      fetch("/_/stats", { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (s) {
        if (!s) return;
        el.textContent = "budget " + mib(s.budgetInUseBytes) + " of " + mib(s.budgetBytes) + " · queue " + s.queueDepth +
          " · hit ratio " + (s.hitRatio * 100).toFixed(0) + "% · rejections " + s.rejections;
        el.dataset.budgetInUse = s.budgetInUseBytes;
      }).catch(function () {});
    }
    tick();
    setInterval(tick, 2000);
  }
  function upload() {
    var grid = document.getElementById("grid"), status = document.getElementById("upload-status");
    if (!grid || !status) return;
    var folder = grid.dataset.folder || "/";
    function say(text) { status.textContent = text; }
    document.addEventListener("dragover", function (e) { e.preventDefault(); document.body.classList.add("dragging"); });
    document.addEventListener("dragleave", function (e) { if (!e.relatedTarget) document.body.classList.remove("dragging"); });
    document.addEventListener("drop", function (e) {
      e.preventDefault();
      document.body.classList.remove("dragging");
      var files = Array.prototype.slice.call(e.dataTransfer.files);
      var chain = Promise.resolve();
      files.forEach(function (file) { chain = chain.then(function () { return send(file); }); });
    });
    function send(file) {
      say("uploading " + file.name + "…");
      var path = folder.replace(/\/+$/, "").split("/").map(encodeURIComponent).join("/") + "/" + encodeURIComponent(file.name);
      return fetch("/_/upload" + path, { method: "PUT", body: file, headers: { "Content-Type": "application/octet-stream" } })
        .then(function (r) {
          return r.text().then(function (t) {
            if (r.status === 201) {
              var answer = JSON.parse(t);
              grid.insertAdjacentHTML("afterbegin", answer.tile);
              say("uploaded " + answer.name);
            } else {
              say(file.name + ": " + r.status + " " + t);
            }
          });
        }).catch(function (err) { say(file.name + ": " + err); });
    }
    window.shrinkUpload = send;
  }
  function inspector() {
    var table = document.getElementById("cost");
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey || /input|textarea/i.test(e.target.tagName)) return;
      var id = { ArrowLeft: "prev", ArrowRight: "next", Escape: "up" }[e.key];
      var link = id && document.getElementById(id);
      if (link) { e.preventDefault(); location.href = link.href; }
    });
    if (!table) return;
    var body = table.tBodies[0];
    function row(name, value) {
      var tr = body.insertRow(), th = document.createElement("th"), td = tr.insertCell();
      th.textContent = name; tr.insertBefore(th, td); td.textContent = value;
      tr.dataset.key = name;
    }
    fetch(table.dataset.url).then(function (r) {
      var etag = r.headers.get("ETag") || "";
      row("status", String(r.status));
      row("content type", r.headers.get("Content-Type") || "");
      row("bytes", r.headers.get("Content-Length") || "");
      row("ETag", etag);
      row("origin", r.headers.get("X-Shrink-Origin") || "");
      row("Server-Timing", r.headers.get("Server-Timing") || "");
      return fetch("/_/telemetry/" + encodeURIComponent(etag.replace(/"/g, "")), { cache: "no-store" });
    }).then(function (r) { return r.ok ? r.json() : null; }).then(function (t) {
      if (!t) { row("telemetry", "not kept"); return; }
      row("made by", t.origin + (t.decodePath ? " (" + t.decodePath + ")" : ""));
      row("DCT scale", "1/" + t.prescale);
      row("pixel format", t.pixelFormat || "");
      row("predicted peak bytes", String(t.predictedPeakBytes));
      row("decode ms", t.decodeMs.toFixed(1));
      row("encode ms", t.encodeMs.toFixed(1));
      row("queue ms", t.queueMs.toFixed(1));
      row("latest response from", t.latestOrigin + " (" + t.responses + " responses, " + t.notModified + " of them 304)");
      table.dataset.ready = "1";
    }).catch(function (err) { row("error", String(err)); });
  }
  document.addEventListener("DOMContentLoaded", function () { live(); upload(); inspector(); });
})();