#if Collector
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /`: the live page. One self-contained HTML file (no scripts or styles from elsewhere, so it works
/// offline): it opens `/tally/stream`, shows every event as it arrives, filters by name, kind and session,
/// marks violations with their rule, and lists the planned events not yet seen with the plan's coverage.
///
/// Elements tests rely on: rows are `#events tbody tr[data-id]` with `.name`, `.kind`, `.session`, `.source` cells;
/// a row with violations has the class `violation` and a `.violations` cell; the filters are
/// `#filter-name`, `#filter-kind`, `#filter-session`; coverage is `#coverage`, unseen events `#unseen li`.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
enum LivePage {
    static let response: Response = {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }()

    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Tally collector</title>
        <style>
          :root { font: 14px/1.4 system-ui, sans-serif; color: #1d232a; background: #f6f7f9; }
          body { margin: 0; display: grid; grid-template-columns: 1fr 20rem; grid-template-rows: auto 1fr; height: 100vh; }
          header { grid-column: 1 / 3; display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; background: #1d232a; color: #fff; }
          header h1 { font-size: 1rem; margin: 0; }
          header input, header select { font: inherit; padding: .2rem .4rem; }
          #state { margin-left: auto; font-size: .85rem; }
          #state.live::before { content: "● "; color: #3fb950; }
          #state.down::before { content: "● "; color: #f85149; }
          main { overflow: auto; }
          aside { overflow: auto; padding: .8rem 1rem; border-left: 1px solid #d0d7de; background: #fff; }
          table { border-collapse: collapse; width: 100%; }
          th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #e1e4e8; vertical-align: top; }
          th { position: sticky; top: 0; background: #eef1f4; }
          td.properties { font-family: ui-monospace, monospace; font-size: .8rem; word-break: break-all; }
          tr.violation { background: #fff1f0; }
          td.violations { color: #b42318; font-size: .85rem; }
          td.violations div::before { content: "⚠ "; }
          tr.hidden { display: none; }
          #notice { display: none; padding: .5rem 1rem; background: #fff8c5; }
          #notice.shown { display: block; }
          #refused { display: none; padding: .5rem 1rem; background: #fff1f0; color: #b42318; }
          #refused.shown { display: block; }
          #unseen { padding-left: 1.2rem; }
          .muted { color: #57606a; }
        </style>
        </head>
        <body>
        <header>
          <h1>Tally collector</h1>
          <input id="filter-name" placeholder="name contains" aria-label="Filter by name">
          <select id="filter-kind" aria-label="Filter by kind">
            <option value="">every kind</option>
            <option>track</option><option>screen</option><option>identify</option><option>group</option><option>alias</option>
          </select>
          <input id="filter-session" list="sessions" placeholder="session" aria-label="Filter by session">
          <datalist id="sessions"></datalist>
          <span id="count" class="muted"></span>
          <span id="state" class="down">connecting</span>
        </header>
        <main>
          <div id="notice"></div>
          <div id="refused" role="alert"></div>
          <table id="events">
            <thead><tr><th>#</th><th>received</th><th>session</th><th>source</th><th>kind</th><th>name</th><th>user</th><th>properties</th><th>violations</th></tr></thead>
            <tbody></tbody>
          </table>
        </main>
        <aside>
          <h2>Plan coverage</h2>
          <p id="coverage" class="muted">loading…</p>
          <h3>Planned, not yet seen</h3>
          <ul id="unseen"></ul>
        </aside>
        <script>
        "use strict";
        const maximumRows = 2000;
        const body = document.querySelector("#events tbody");
        const filters = { name: document.getElementById("filter-name"), kind: document.getElementById("filter-kind"), session: document.getElementById("filter-session") };
        const sessions = new Set();
        let coverageTimer = null;
        let refusedShown = 0;

        function cell(row, className, text) {
          const td = row.insertCell();
          td.className = className;
          td.textContent = text;
          return td;
        }

        function visible(event) {
          const name = filters.name.value.trim().toLowerCase();
          if (name && !event.name.toLowerCase().includes(name)) return false;
          if (filters.kind.value && event.kind !== filters.kind.value) return false;
          if (filters.session.value && event.session !== filters.session.value) return false;
          return true;
        }

        function add(event) {
          if (body.querySelector(`tr[data-id="${event.id}"]`)) return;
          const row = body.insertRow(0);
          row.dataset.id = event.id;
          row.event = event;
          cell(row, "id", event.id);
          cell(row, "received", event.received_at.replace("T", " ").replace("Z", ""));
          cell(row, "session", event.session);
          cell(row, "source", event.source);
          cell(row, "kind", event.type === "page" ? "screen (page)" : event.kind);
          cell(row, "name", event.name || event.user_id || event.group_id || "");
          cell(row, "user", event.user_id || event.anonymous_id || "");
          cell(row, "properties", JSON.stringify(event.properties));
          const problems = cell(row, "violations", "");
          for (const violation of event.violations || []) {
            const line = document.createElement("div");
            line.textContent = `${violation.path || "event"}: ${violation.message} (${violation.rule})`;
            problems.appendChild(line);
          }
          if ((event.violations || []).length > 0) row.classList.add("violation");
          if (!visible(event)) row.classList.add("hidden");
          if (event.session && !sessions.has(event.session)) {
            sessions.add(event.session);
            const option = document.createElement("option");
            option.value = event.session;
            document.getElementById("sessions").appendChild(option);
          }
          while (body.rows.length > maximumRows) body.deleteRow(body.rows.length - 1);
          counted();
        }

        function refilter() {
          for (const row of body.rows) row.classList.toggle("hidden", !visible(row.event));
          counted();
        }

        function counted() {
          const shown = body.querySelectorAll("tr:not(.hidden)").length;
          document.getElementById("count").textContent = `${shown} of ${body.rows.length} events shown`;
        }

        function notice(text) {
          const element = document.getElementById("notice");
          element.textContent = text;
          element.classList.add("shown");
        }

        function showRefused(refused) {
          // The status read at load and the stream can arrive in either order: keep the latest count.
          if (!refused || refused.requests <= refusedShown) return;
          refusedShown = refused.requests;
          const element = document.getElementById("refused");
          const last = refused.last;
          const plural = refused.requests === 1 ? "request" : "requests";
          element.textContent = `Refused ${refused.requests} write ${plural}; their events were not stored. ` +
            `Last: ${last.request} answered ${last.status} ${last.code}: ${last.message}`;
          element.classList.add("shown");
        }

        async function refreshRefused() {
          try {
            const response = await fetch("/tally/status");
            showRefused((await response.json()).refused);
          } catch (error) {
            notice(`Status unavailable: ${error}`);
          }
        }

        async function refreshCoverage() {
          coverageTimer = null;
          const coverage = document.getElementById("coverage");
          const unseen = document.getElementById("unseen");
          try {
            const response = await fetch("/tally/coverage");
            if (response.status === 404) { coverage.textContent = "No plan loaded (start with --plan FILE)."; return; }
            const report = await response.json();
            coverage.textContent = report.summary;
            unseen.replaceChildren(...report.planned.filter(event => event.count === 0).map(event => {
              const item = document.createElement("li");
              item.textContent = [event.kind, event.name].filter(Boolean).join(" ");
              return item;
            }));
          } catch (error) {
            coverage.textContent = `Coverage unavailable: ${error}`;
          }
        }

        function coverageSoon() {
          if (coverageTimer === null) coverageTimer = setTimeout(refreshCoverage, 500);
        }

        function connect() {
          const stream = new EventSource("/tally/stream?backlog=500");
          const state = document.getElementById("state");
          stream.onopen = () => { state.textContent = "live"; state.className = "live"; };
          stream.onerror = () => { state.textContent = "reconnecting"; state.className = "down"; };
          stream.onmessage = message => { add(JSON.parse(message.data)); coverageSoon(); };
          stream.addEventListener("skipped", message => {
            notice(`This page fell behind and skipped ${JSON.parse(message.data).skipped} events; reload to see them.`);
          });
          stream.addEventListener("refused", message => showRefused(JSON.parse(message.data)));
          stream.addEventListener("deleted", message => {
            const session = JSON.parse(message.data).session;
            if (session === null) { location.reload(); return; }
            for (const row of [...body.rows]) if (row.event.session === session) row.remove();
            counted();
            coverageSoon();
          });
        }

        for (const input of Object.values(filters)) {
          input.addEventListener("input", refilter);
          input.addEventListener("change", refilter);
        }
        refreshCoverage();
        refreshRefused();
        connect();
        </script>
        </body>
        </html>
        """#
}
#endif
