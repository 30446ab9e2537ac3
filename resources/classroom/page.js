"use strict";
// The class page: a trainer watches an exam live and exports it; a student sees their own results.
// A trainer's table follows the exam's live view (Server-Sent Events read with fetch, as they
// need the Bearer header), opened again with a growing pause when it ends; nothing is polled.
// Every text from the service goes in with textContent: nothing it sends is read as HTML.
(function () {
  const api = "/v3/classroom";
  const $ = (id) => document.getElementById(id);
  let token = sessionStorage.getItem("gns3-copilot-classroom") || "";
  let trainer = false;
  let shown = null;  // the exam shown, for the clock
  let live = null;  // the AbortController of the live view being read
  let liveExam = "";  // and its exam
  setInterval(() => { if (shown) clock(shown); }, 1000);

  async function call(method, path, body) {
    const response = await fetch(api + path, {
      method,
      headers: Object.assign({ "Authorization": "Bearer " + token },
        body ? { "Content-Type": "application/json" } : {}),
      body: body ? JSON.stringify(body) : undefined,
    });
    if (response.status === 401) { logout(); throw new Error("Your GNS3 login has ended: log in again."); }
    if (!response.ok) {
      let message = response.statusText;
      try { message = (await response.json()).message || message; } catch (e) { /* not JSON */ }
      throw new Error(message);
    }
    return response;
  }

  function text(tag, value, cls) {
    const el = document.createElement(tag);
    el.textContent = value == null ? "" : String(value);
    if (cls) el.className = cls;
    return el;
  }

  function logout() {
    token = ""; sessionStorage.removeItem("gns3-copilot-classroom");
    stopLive(); shown = null;
    $("class").hidden = true; $("logout").hidden = true; $("login").hidden = false; $("who").textContent = "";
  }

  async function login(event) {
    event.preventDefault();
    $("login-error").textContent = "";
    const response = await fetch(api + "/login", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: $("username").value, password: $("password").value }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) { $("login-error").textContent = body.message || "Could not log in."; return; }
    token = body.access_token; sessionStorage.setItem("gns3-copilot-classroom", token);
    $("password").value = "";
    await start();
  }

  async function start() {
    const me = await (await call("GET", "/me")).json();
    trainer = me.trainer;
    $("who").textContent = me.username + (trainer ? " (trainer)" : "");
    for (const el of document.querySelectorAll(".trainer")) el.hidden = !trainer;
    $("login").hidden = true; $("class").hidden = false; $("logout").hidden = false;
    await loadExams();
  }

  function show(error) { $("error").textContent = error.message; }

  async function loadExams() {
    const exams = await (await call("GET", "/exams")).json();
    const select = $("exam"); const chosen = select.value;
    select.replaceChildren();
    for (const exam of exams) {
      const option = text("option", exam.title + " — " + exam.group);
      option.value = exam.exam_id; select.append(option);
    }
    if (chosen) select.value = chosen;
    if (!select.value && exams.length) select.value = exams[exams.length - 1].exam_id;
    $("empty").hidden = exams.length > 0;
    await refresh();
  }

  function checksList(checks) {
    const list = document.createElement("ul");
    for (const check of checks || []) {
      list.append(text("li", check.title + ": " + check.message, check.state));
    }
    return list;
  }

  function row(cells, status) {
    const tr = document.createElement("tr");
    tr.className = status.replace(/ /g, "-");
    for (const cell of cells) tr.append(cell);
    return tr;
  }

  async function refresh() {
    const examId = $("exam").value;
    if (!examId) return;
    if (trainer) { follow(examId); return; }
    const exam = await (await call("GET", "/exams/" + encodeURIComponent(examId))).json();
    const titles = Object.fromEntries(exam.tasks.map((t) => [t.task_id, t]));
    render(exam, exam.attempts.map((a) => ({
      student: $("who").textContent, task: titles[a.task_id].title, status: a.status,
      minutes: a.submitted_at ? ((a.submitted_at - a.started_at) / 60).toFixed(1) : null,
      checks: a.checks || [], hints_used: a.hints_used, score: a.score, points: a.points,
    })));
  }

  function render(exam, rows) {
    shown = exam; clock(exam);
    const done = rows.filter((r) => r.status === "submitted").length;
    $("summary").textContent = done + " of " + rows.length + " submitted";
    $("results").tBodies[0].replaceChildren(...rows.map((r) => {
      const score = text("td", r.score == null ? "—" : r.score + " / " + r.points, "score");
      const checks = document.createElement("td"); checks.append(checksList(r.checks));
      return row([text("td", r.student), text("td", r.task), text("td", r.status, "status"),
        text("td", r.minutes == null ? "" : r.minutes), checks, text("td", r.hints_used), score], r.status);
    }));
    $("error").textContent = "";
  }

  function stopLive() { if (live) live.abort(); live = null; liveExam = ""; }

  // The exam's live view: each event re-renders; an ended or broken stream is opened again after
  // 1 s, doubling up to 30 s. Choosing another exam or logging out aborts it.
  function follow(examId) {
    if (live && liveExam === examId) return;  // already followed: its events keep coming
    stopLive();
    const controller = new AbortController(); live = controller; liveExam = examId;
    (async () => {
      let delay = 1000;
      while (!controller.signal.aborted) {
        try {
          await readLive(examId, controller.signal, () => { delay = 1000; });
        } catch (error) {
          if (controller.signal.aborted) return;
          show(error);
          if (error.final) { if (live === controller) { live = null; liveExam = ""; } return; }
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 30000);
      }
    })();
  }

  async function readLive(examId, signal, heard) {
    const response = await fetch(api + "/exams/" + encodeURIComponent(examId) + "/events", {
      headers: { "Authorization": "Bearer " + token, "Accept": "text/event-stream" }, signal,
    });
    if (response.status === 401) { logout(); throw Object.assign(new Error("Your GNS3 login has ended: log in again."), { final: true }); }
    if (!response.ok) {
      let message = response.statusText;
      try { message = (await response.json()).message || message; } catch (e) { /* not JSON */ }
      throw Object.assign(new Error(message), { final: response.status === 403 || response.status === 404 });
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = ""; let data = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const lines = (pending + value).split(/\r\n|\r|\n/);
      pending = lines.pop();
      for (const line of lines) {
        if (line === "") {
          if (data.length) { const event = JSON.parse(data.join("\n")); data = []; render(event.exam, event.rows); heard(); }
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
        }
      }
    }
  }

  function clock(exam) {
    const left = Math.max(0, Math.round(exam.ends_at - Date.now() / 1000));
    $("clock").textContent = left > 0
      ? "Ends in " + Math.floor(left / 60) + " min " + (left % 60) + " s" : "Time is over";
  }

  async function download(kind) {
    const examId = $("exam").value;
    const response = await call("GET", "/exams/" + encodeURIComponent(examId) + "/results?format=" + kind);
    const blob = await response.blob();
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob); link.download = "results-" + examId.slice(0, 8) + "." + kind;
    document.body.append(link); link.click(); link.remove();
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("login").addEventListener("submit", (e) => login(e).catch((err) => { $("login-error").textContent = err.message; }));
    $("logout").addEventListener("click", logout);
    $("exam").addEventListener("change", () => refresh().catch(show));
    $("csv").addEventListener("click", () => download("csv").catch(show));
    $("json").addEventListener("click", () => download("json").catch(show));
    $("collect").addEventListener("click", () => call("POST", "/exams/" + encodeURIComponent($("exam").value) + "/collect").catch(show));
    $("release").addEventListener("click", () => call("POST", "/exams/" + encodeURIComponent($("exam").value) + "/release").catch(show));
    if (token) start().catch((e) => { logout(); $("login-error").textContent = e.message; });
  });
})();
