/// The gallery's one style sheet and one script, served from `/_/gallery.css` and `/_/gallery.js` (the
/// pages carry no inline style or script: the Content-Security-Policy forbids both).
enum GalleryAssets {
    /// Responsive grid of square tiles (a tile's box never depends on its image, so nothing shifts while
    /// images load), light and dark colours from the system.
    static let css = """
        :root { color-scheme: light dark; --bg: #fafafa; --fg: #1b1b1b; --muted: #666; --tile: #ececec; --accent: #0b63c5; --bad: #b00020; }
        @media (prefers-color-scheme: dark) { :root { --bg: #141414; --fg: #e8e8e8; --muted: #9a9a9a; --tile: #232323; --accent: #6aa8ff; --bad: #ff7b8a; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
        header { display: flex; gap: 1rem; align-items: baseline; justify-content: space-between; padding: .6rem 1rem; border-bottom: 1px solid var(--tile); }
        header .brand { font-weight: 600; color: var(--fg); text-decoration: none; }
        .live { color: var(--muted); font-variant-numeric: tabular-nums; font-size: .85rem; flex: 0 0 auto; width: min(34em, 62vw); text-align: right; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        main { padding: 0 1rem 2rem; }
        a { color: var(--accent); }
        .crumbs, .step, .pages, .summary { margin: .8rem 0; }
        .summary, .note { color: var(--muted); }
        .status:empty { display: none; }
        .status { padding: .4rem .6rem; background: var(--tile); border-radius: 4px; }
        .folders { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4rem 1rem; }
        .grid { list-style: none; padding: 0; margin: 0; display: grid; gap: 12px; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); }
        .tile { margin: 0; min-width: 0; }
        .tile a { display: block; aspect-ratio: 1 / 1; background: var(--tile); border-radius: 4px; overflow: hidden; }
        .tile img { display: block; width: 100%; height: 100%; object-fit: contain; }
        .tile .name { display: block; font-size: .8rem; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; unicode-bidi: isolate; }
        .tile-error a, .tile-error > .error-text { display: flex; align-items: center; justify-content: center; padding: .6rem; text-align: center; }
        .error-text { color: var(--bad); overflow-wrap: anywhere; }
        body.dragging main { outline: 3px dashed var(--accent); outline-offset: -6px; }
        .inspector { display: grid; gap: 1rem; grid-template-columns: minmax(0, 2fr) minmax(280px, 1fr); align-items: start; }
        .inspector figure { margin: 0; grid-row: span 3; }
        .inspector figure img { width: 100%; height: auto; background: var(--tile); }
        .inspector h2 { font-size: 1rem; margin: 0 0 .3rem; }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        th { text-align: left; font-weight: 500; color: var(--muted); padding: .15rem .6rem .15rem 0; vertical-align: top; white-space: nowrap; }
        td { padding: .15rem 0; overflow-wrap: anywhere; }
        @media (max-width: 760px) { .inspector { grid-template-columns: 1fr; } .inspector figure { grid-row: auto; } }
        .login { margin: 3rem auto; max-width: 24rem; display: grid; gap: .6rem; }
        """

    /// The live strip (polls `/_/stats` every 2 s while the page is visible), uploads by drag and drop
    /// (`PUT /_/upload/FOLDER/NAME`, one file at a time, the new tile inserted from the server's HTML), the
    /// inspector's cost table (this image's response headers and the telemetry of its ETag) and keyboard
    /// steps (← → between images, Esc to the folder). Text is set with `textContent`, never parsed as HTML,
    /// except the tile the server escaped.
    static let script = """
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
              var path = folder.replace(/\\/+$/, "").split("/").map(encodeURIComponent).join("/") + "/" + encodeURIComponent(file.name);
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
        """
}
