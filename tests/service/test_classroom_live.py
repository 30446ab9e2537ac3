"""The classroom on the trainer's service, as a class meets it: the real `gns3-copilot serve`, the
real GNS3 server with real VPCS hosts, real GNS3 accounts in a real GNS3 group, one project per
student shared with that student only. A trainer adds a task and opens an exam; students take it
in their own labs with their own logins; the answer key never reaches a student before release;
two submissions at the same second and a service restarted mid-exam lose and double nothing.
"""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import json
import os
import shutil
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from gns3_copilot_desktop.core.gns3 import Gns3Client
from tests.helpers.classroom import (
    SECRET_VALUES,
    TASK,
    Account,
    Class,
    admin_account,
    console,
    live_events,
    make_account,
    make_group,
    open_exam,
    start_serve,
    student_lab,
    upload_task,
)
from tests.helpers.copilot_app import SCREENSHOTS_ENV
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab

pytestmark = [pytest.mark.gns3, pytest.mark.slow]


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture(scope="module")
def klass(gns3_vpcs_lab: Gns3VpcsLab, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Class]:
    base = gns3_vpcs_lab.base_url
    trainer = admin_account(gns3_vpcs_lab)
    alice, bob = make_account(base, trainer), make_account(base, trainer)
    outsider = make_account(base, trainer, prefix="visitor")
    group = make_group(base, trainer, [alice, bob])
    for student in (alice, bob):
        _run(student_lab(base, trainer, student))
    run_dir = tmp_path_factory.mktemp("classroom")
    serve = start_serve(base, run_dir)
    klass = Class(base, run_dir, serve, trainer, alice, bob, outsider, group)
    try:
        yield klass
    finally:
        klass.serve.stop()

        async def clean() -> None:
            async with Gns3Client(base, token=trainer.token) as client:
                for student in (alice, bob):
                    await client.delete_project(student.project_id)

        _run(clean())


def _pc1(klass: Class, student: Account, *commands: str) -> str:
    async def go() -> str:
        async with Gns3Client(klass.base_url, token=klass.trainer.token) as client:
            return await console(client, student.project_id, "PC1", *commands)

    return str(_run(go()))


def _exam(klass: Class, task_id: str, **fields: Any) -> dict[str, Any]:
    return open_exam(klass.serve, klass.trainer, task_id, klass.group, **fields)


def test_trainer_routes_refuse_students_and_a_hostile_task_names_its_line(klass: Class) -> None:
    for method, path in (("POST", "/v3/classroom/tasks"), ("GET", "/v3/classroom/tasks")):
        body = {"name": "t.toml", "text": TASK} if method == "POST" else None
        refused = klass.call(klass.alice, method, path, json=body)
        assert refused.status_code == 403, refused.text
    me = klass.call(klass.alice, "GET", "/v3/classroom/me").json()
    assert me == {"username": klass.alice.name, "trainer": False}
    assert klass.call(klass.trainer, "GET", "/v3/classroom/me").json()["trainer"] is True

    hostile = {
        "an unknown field": (
            TASK.replace('level = "beginner"', 'level = "beginner"\ncolour = 1'),
            "line 5: colour",
        ),
        "a check that writes": (
            TASK.replace('command = "show ip"', 'command = "ip 10.0.0.1/8"'),
            "line 28: checks.1.command",
        ),
        "YAML": ("title: x\nticket: y\n", "not YAML"),
        "an unknown catalog fault": (
            TASK.replace(
                'inject = ["ip 198.51.100.77/24"]\nundo = ["ip 192.0.2.1/24"]',
                'catalog = "vpcs-made-up"',
            ),
            "no fault 'vpcs-made-up' in the app's catalog",
        ),
    }
    for what, (text, said) in hostile.items():
        refused = klass.call(
            klass.trainer, "POST", "/v3/classroom/tasks", json={"name": "bad.toml", "text": text}
        )
        assert refused.status_code == 422, what
        assert said in refused.json()["message"], (what, refused.json())
    tasks = klass.call(klass.trainer, "GET", "/v3/classroom/tasks").json()
    assert tasks == [], "a refused file left a task behind"
    too_big = klass.call(
        klass.trainer,
        "POST",
        "/v3/classroom/tasks",
        json={"name": "big.toml", "text": "#" * 300_000},
    )
    assert too_big.status_code == 422


def test_a_whole_exam_two_students_one_result_each_and_no_answer_before_release(
    klass: Class,
) -> None:
    task = upload_task(klass.serve, klass.trainer)
    assert task["points"] == 100
    exam = _exam(klass, task["task_id"], assist="off")
    eid, tid = exam["exam_id"], task["task_id"]
    assert exam["students"] == 2

    # a user outside the group: the exam does not exist for them
    assert klass.call(klass.outsider, "GET", "/v3/classroom/exams").json() == []
    for method, path in (
        ("GET", f"/v3/classroom/exams/{eid}"),
        ("POST", f"/v3/classroom/exams/{eid}/tasks/{tid}/start"),
    ):
        hidden = klass.call(
            klass.outsider, method, path, json={"project_id": klass.alice.project_id}
        )
        assert hidden.status_code == 404, hidden.text

    seen = klass.call(klass.alice, "GET", "/v3/classroom/exams").json()
    assert [e["exam_id"] for e in seen] == [eid]
    assert seen[0]["tasks"][0]["ticket"] == "PC1 cannot reach PC2 since this morning."
    assert "answers" not in seen[0]["tasks"][0]

    # another student's project: GNS3 itself refuses Alice
    other = klass.start(klass.alice, eid, tid, klass.bob)
    assert other.status_code in (403, 404), other.text
    assert "198.51.100.77" not in _pc1(klass, klass.bob, "show ip")

    first: dict[str, Any] = {}
    for student in (klass.alice, klass.bob):
        started = klass.start(student, eid, tid)
        assert started.status_code == 200, started.text
        assert started.json()["status"] == "running"
        assert started.json()["deadline"] <= exam["ends_at"]
        assert "198.51.100.77/24" in _pc1(klass, student, "show ip"), "not injected"
        first[student.name] = started.json()
    again = klass.start(klass.alice, eid, tid)
    assert again.status_code == 200 and again.json() == first[klass.alice.name]

    # the exam's rules: no hints, no copilot, no trainer routes
    hint = klass.call(klass.alice, "POST", f"/v3/classroom/exams/{eid}/tasks/{tid}/hint")
    assert hint.status_code == 403 and "Hints are off" in hint.json()["message"]
    chat = klass.call(
        klass.alice,
        "POST",
        "/v3/chat/stream",
        json={"message": "fix it", "project_id": klass.alice.project_id},
    )
    assert chat.status_code == 403 and "off during the exam" in chat.json()["message"]
    for method, path in (
        ("GET", f"/v3/classroom/exams/{eid}/results"),
        ("POST", f"/v3/classroom/exams/{eid}/release"),
        ("POST", f"/v3/classroom/exams/{eid}/collect"),
    ):
        assert klass.call(klass.alice, method, path).status_code == 403

    _pc1(klass, klass.alice, "ip 192.0.2.1/24")  # Alice fixes her lab; Bob does not

    submit = f"/v3/classroom/exams/{eid}/tasks/{tid}/submit"
    with ThreadPoolExecutor(3) as pool:  # the same second: Alice twice, Bob once
        answers = list(
            pool.map(lambda s: klass.call(s, "POST", submit), [klass.alice, klass.alice, klass.bob])
        )
    alice_codes = sorted(a.status_code for a in answers[:2])
    assert alice_codes == [200, 409], [a.text for a in answers]
    alice = next(a.json() for a in answers[:2] if a.status_code == 200)
    assert alice["score"] == 100 and [c["state"] for c in alice["checks"]] == ["pass", "pass"]
    bob = answers[2].json()
    assert answers[2].status_code == 200 and bob["score"] == 0
    assert bob["checks"][0]["message"] == "PC1 gets no answer from PC2."
    # a result cannot change afterwards
    later = klass.call(klass.alice, "POST", submit)
    assert later.status_code == 409 and "cannot change" in later.json()["message"]

    data = klass.call(klass.trainer, "GET", f"/v3/classroom/exams/{eid}/results").json()
    rows = {r["student"]: r for r in data["rows"]}
    assert rows[klass.alice.name]["score"] == 100 and rows[klass.bob.name]["score"] == 0
    assert (
        rows[klass.alice.name]["checks_passed"] == 2
        and rows[klass.bob.name]["status"] == "submitted"
    )
    exported = klass.call(klass.trainer, "GET", f"/v3/classroom/exams/{eid}/results?format=csv")
    assert exported.headers["content-type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(exported.text)))
    assert {(r["student"], r["score"], r["points"]) for r in table} == {
        (klass.alice.name, "100", "100"),
        (klass.bob.name, "0", "100"),
    }

    # the answer key: in no student's answer until the trainer releases it
    mine = klass.call(klass.alice, "GET", f"/v3/classroom/exams/{eid}").json()
    assert "answers" not in mine["tasks"][0]
    leaks = [v for v in SECRET_VALUES for body in klass.seen_by_students if v in body]
    assert leaks == []
    assert not any(v in klass.serve.output() for v in SECRET_VALUES), "the log names the answer"
    assert (
        klass.call(klass.trainer, "POST", f"/v3/classroom/exams/{eid}/release").status_code == 204
    )
    released = klass.call(klass.alice, "GET", f"/v3/classroom/exams/{eid}").json()
    assert released["tasks"][0]["answers"] == [
        {"device": "PC1", "inject": ["ip 198.51.100.77/24"], "undo": ["ip 192.0.2.1/24"]}
    ]


def test_a_restart_mid_exam_and_the_end_of_time_lose_nothing(klass: Class) -> None:
    task = upload_task(klass.serve, klass.trainer)
    tid = task["task_id"]
    # an exam that ends 30 s from now (room for two starts on a loaded machine), with hints
    exam = _exam(klass, tid, assist="hints", duration_min=1, starts_at=time.time() - 30)
    eid = exam["exam_id"]
    for student in (klass.alice, klass.bob):
        started = klass.start(student, eid, tid)
        assert started.status_code == 200, started.text
    hint = klass.call(klass.alice, "POST", f"/v3/classroom/exams/{eid}/tasks/{tid}/hint").json()
    assert hint == {"hint": "Compare the addresses of PC1 and PC2.", "left": 1}
    # Bob asks three times at once: each of the two hints is given once, the third request is
    # told there are none left, and he is charged for the two he got
    url = f"/v3/classroom/exams/{eid}/tasks/{tid}/hint"
    with ThreadPoolExecutor(3) as pool:
        asked = list(pool.map(lambda _: klass.call(klass.bob, "POST", url), range(3)))
    assert sorted(r.status_code for r in asked) == [200, 200, 409], [r.text for r in asked]
    given = sorted(r.json()["left"] for r in asked if r.status_code == 200)
    assert given == [0, 1]

    klass.restart()  # the service goes down mid-exam and comes back on the same records

    _pc1(klass, klass.alice, "ip 192.0.2.1/24")
    done = klass.call(klass.alice, "POST", f"/v3/classroom/exams/{eid}/tasks/{tid}/submit")
    assert done.status_code == 200, done.text
    assert done.json()["score"] == 100 and done.json()["hints_used"] == 1
    # Bob never submits: when the time is over the trainer collects his lab as it is
    deadline = klass.call(klass.bob, "GET", f"/v3/classroom/exams/{eid}").json()
    ends = deadline["attempts"][0]["deadline"]
    asked_at = time.time()
    early = klass.call(klass.trainer, "POST", f"/v3/classroom/exams/{eid}/collect").json()
    if asked_at < ends:  # Bob's time is not over yet: nothing is collected
        assert early == {"graded": 0, "unreadable": []}
    time.sleep(max(0.0, ends - time.time()) + 0.5)  # the exam's own clock, read from the service
    collected = klass.call(klass.trainer, "POST", f"/v3/classroom/exams/{eid}/collect").json()
    assert early["graded"] + collected["graded"] == 1
    results = klass.call(klass.trainer, "GET", f"/v3/classroom/exams/{eid}/results").json()
    rows = {r["student"]: r for r in results["rows"]}
    assert rows[klass.alice.name]["score"] == 100 and rows[klass.alice.name]["hints_used"] == 1
    assert rows[klass.bob.name]["status"] == "submitted" and rows[klass.bob.name]["score"] == 0
    assert rows[klass.bob.name]["hints_used"] == 2
    assert len(rows) == 2
    # the exam is over: nobody starts it again
    late = klass.start(klass.bob, eid, tid)
    assert late.status_code == 409 and "not open" in late.json()["message"]
    _pc1(klass, klass.bob, "ip 192.0.2.1/24")


def test_the_trainers_live_view_hears_a_submit_and_nothing_of_another_exam(klass: Class) -> None:
    tid = upload_task(klass.serve, klass.trainer)["task_id"]
    eid, other = (_exam(klass, tid, title=t)["exam_id"] for t in ("Live", "Elsewhere"))
    url = f"{klass.serve.url}/v3/classroom/exams/{{}}/events"
    for who in (klass.alice, klass.outsider):  # a student, and a user of no group
        assert klass.call(who, "GET", url.format(eid)[len(klass.serve.url) :]).status_code == 403
    with (
        live_events(url.format(eid), klass.trainer.headers) as events,
        live_events(url.format(other), klass.trainer.headers) as elsewhere,
    ):
        seen = [events.get(timeout=10)]  # the exam as it is, on connecting
        assert [r["status"] for r in seen[0]["rows"]] == ["not started"] * 2
        elsewhere.get(timeout=10)
        assert klass.call(klass.trainer, "POST", f"/v3/classroom/exams/{other}/release").is_success
        assert elsewhere.get(timeout=10)["exam"]["released"] is True
        assert events.empty(), "another exam's change reached this exam's stream"
        with (
            live_events(url.format(eid), klass.trainer.headers),
            live_events(url.format(eid), klass.trainer.headers),
            httpx.stream("GET", url.format(eid), headers=klass.trainer.headers) as fifth,
        ):
            assert fifth.status_code == 429, "a caller has at most four live views"
        assert klass.start(klass.alice, eid, tid).status_code == 200
        submit = f"/v3/classroom/exams/{eid}/tasks/{tid}/submit"
        assert klass.call(klass.alice, "POST", submit).status_code == 200
        submitted_at = time.monotonic()
        while not any(r["status"] == "submitted" for r in seen[-1]["rows"]):
            seen.append(events.get(timeout=10))
        assert time.monotonic() - submitted_at < 5, "the submit was not pushed at once"
    alice = next(r for r in seen[-1]["rows"] if r["student"] == klass.alice.name)
    assert alice["score"] == 0 and alice["checks_total"] == 2
    assert {e["exam"]["exam_id"] for e in seen} == {eid}
    assert not any(e["exam"]["released"] for e in seen)
    assert all(a["rows"] != b["rows"] for a, b in itertools.pairwise(seen))
    assert [e["version"] for e in seen] == sorted({e["version"] for e in seen})
    _pc1(klass, klass.alice, "ip 192.0.2.1/24")


HOSTILE_TITLE = "<img src=x onerror=\"document.title='owned'\">Gateway <b>gone</b>"


def _chromium() -> str:
    found = shutil.which("chromium-headless-shell") or shutil.which("chromium")
    if found is None:
        pytest.skip("no Chromium here (Debian's chromium-headless-shell)")
    return found


def test_the_class_page_shows_the_exam_live_and_exports_it_in_chromium(klass: Class) -> None:
    """The trainer's class page in a real Chromium driven by Playwright: it logs in with GNS3,
    follows the exam as students start and submit (pushed through one live view, never polled),
    shows hostile text as text, exports the CSV; a student logging in sees their own row only."""
    sync_api = pytest.importorskip("playwright.sync_api")
    task = upload_task(
        klass.serve, klass.trainer, TASK.replace('"PC1 moved"', json.dumps(HOSTILE_TITLE))
    )
    exam = _exam(klass, task["task_id"], title="Friday lab exam", assist="hints")
    eid, tid = exam["exam_id"], task["task_id"]
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 640}, accept_downloads=True)
            asked: list[str] = []  # what the page asked of the results: pushed, never polled
            page.on("request", lambda r: asked.append(r.url.split("/v3/classroom/")[-1]))
            page.goto(f"{klass.serve.url}/classroom")
            page.fill("#username", klass.trainer.name)
            page.fill("#password", "wrong password")
            page.click("button[type=submit]")
            sync_api.expect(page.locator("#login-error")).not_to_be_empty()
            page.fill("#password", klass.trainer.password)
            page.click("button[type=submit]")
            sync_api.expect(page.locator("#who")).to_have_text(f"{klass.trainer.name} (trainer)")
            sync_api.expect(page.locator("#login")).to_be_hidden()
            page.select_option("#exam", eid)
            rows = page.locator("#results tbody tr")
            sync_api.expect(rows).to_have_count(2)
            sync_api.expect(page.locator("#summary")).to_have_text("0 of 2 submitted")

            assert klass.start(klass.alice, eid, tid).status_code == 200
            alice_row = rows.filter(has_text=klass.alice.name)
            sync_api.expect(alice_row.locator("td.status")).to_have_text("running")
            submitted = klass.call(
                klass.alice, "POST", f"/v3/classroom/exams/{eid}/tasks/{tid}/submit"
            )
            assert submitted.status_code == 200
            sync_api.expect(alice_row.locator("td.score")).to_have_text("0 / 100")
            sync_api.expect(page.locator("#summary")).to_have_text("1 of 2 submitted")
            sync_api.expect(alice_row).to_contain_text("PC1 gets no answer from PC2.")
            assert not [a for a in asked if a.endswith("/results")], asked
            assert asked.count(f"exams/{eid}/events") == 1, asked
            # the hostile title is text on the page, never markup
            sync_api.expect(alice_row).to_contain_text("<b>gone</b>")
            assert page.locator("#results img, #results b").count() == 0
            assert page.title() != "owned"

            with page.expect_download() as download:
                page.click("#csv")
            exported = Path(download.value.path()).read_text(encoding="utf-8")
            table = list(csv.DictReader(io.StringIO(exported)))
            assert {r["student"]: r["status"] for r in table} == {
                klass.alice.name: "submitted",
                klass.bob.name: "not started",
            }
            assert table[0]["task"].startswith("'<img") or table[0]["task"].startswith("<img")

            if folder := os.environ.get(SCREENSHOTS_ENV):  # the first exam of the module, if run
                quiz = page.locator("#exam option", has_text="Week 3 quiz")
                if quiz.count():
                    page.select_option("#exam", quiz.first.get_attribute("value"))
                    sync_api.expect(page.locator("#summary")).to_have_text("2 of 2 submitted")
                page.screenshot(path=str(Path(folder) / "classroom-page.png"), full_page=True)

            student = browser.new_page()
            student.goto(f"{klass.serve.url}/classroom")
            student.fill("#username", klass.alice.name)
            student.fill("#password", klass.alice.password)
            student.click("button[type=submit]")
            sync_api.expect(student.locator("#who")).to_have_text(klass.alice.name)
            student.select_option("#exam", eid)
            mine = student.locator("#results tbody tr")
            sync_api.expect(mine).to_have_count(1)
            sync_api.expect(mine).to_contain_text("0 / 100")
            assert klass.bob.name not in student.content()
            assert student.locator("#csv").is_hidden()
        finally:
            browser.close()
    _pc1(klass, klass.alice, "ip 192.0.2.1/24")


def test_practice_through_the_service_checks_any_time_and_giving_up_restores_the_lab(
    klass: Class,
) -> None:
    task = upload_task(klass.serve, klass.trainer)
    tid = task["task_id"]
    practice = _exam(klass, tid, title="Practice: the moved host", kind="practice", assist="tutor")
    eid = practice["exam_id"]
    assert practice["kind"] == "practice"
    for student in (klass.alice, klass.bob):
        assert klass.start(student, eid, tid).status_code == 200
    # Tutor only while practising: a new conversation is a Tutor one whatever was asked
    made = klass.call(
        klass.alice,
        "POST",
        "/v3/chat/sessions",
        json={"project_id": klass.alice.project_id, "mode": "assistant"},
    )
    assert made.status_code == 201 and made.json()["mode"] == "tutor"

    base = f"/v3/classroom/exams/{eid}/tasks/{tid}"
    first = klass.call(klass.alice, "POST", f"{base}/check").json()
    assert [c["state"] for c in first["checks"]] == ["fail", "fail"]
    assert first["attempt"]["status"] == "running", "a failed check ends nothing"
    assert klass.call(klass.alice, "POST", f"{base}/submit").status_code == 409
    _pc1(klass, klass.alice, "ip 192.0.2.1/24")
    solved = klass.call(klass.alice, "POST", f"{base}/check").json()
    assert [c["state"] for c in solved["checks"]] == ["pass", "pass"]
    assert solved["attempt"]["status"] == "submitted" and solved["attempt"]["score"] == 100
    assert solved["attempt"]["note"] == "solved"

    gave = klass.call(klass.bob, "POST", f"{base}/give-up")
    assert gave.status_code == 200, gave.text
    assert gave.json()["answers"] == [
        {"device": "PC1", "inject": ["ip 198.51.100.77/24"], "undo": ["ip 192.0.2.1/24"]}
    ]
    assert gave.json()["problem"] == "" and gave.json()["attempt"]["score"] == 0
    assert "192.0.2.1/24" in _pc1(klass, klass.bob, "show ip"), "giving up restores the lab"
    mine = {
        s.name: klass.call(s, "GET", f"/v3/classroom/exams/{eid}").json()
        for s in (klass.alice, klass.bob)
    }
    assert "answers" in mine[klass.bob.name]["tasks"][0], "Bob gave up: he sees the answer"
    assert "answers" not in mine[klass.alice.name]["tasks"][0], "Alice solved it: no answer"
    assert klass.call(klass.bob, "POST", f"{base}/give-up").status_code == 409

    # an exam's checks run once, at Submit: no check, no give up
    exam = _exam(klass, tid)
    assert klass.start(klass.bob, exam["exam_id"], tid).status_code == 200
    path = f"/v3/classroom/exams/{exam['exam_id']}/tasks/{tid}"
    assert klass.call(klass.bob, "POST", f"{path}/check").status_code == 409
    assert klass.call(klass.bob, "POST", f"{path}/give-up").status_code == 409
    assert klass.call(klass.bob, "POST", f"{path}/submit").json()["score"] == 0
    _pc1(klass, klass.bob, "ip 192.0.2.1/24")


def test_a_member_of_the_trainer_group_is_a_trainer_and_nobody_else(klass: Class) -> None:
    """``--trainer-group``: a GNS3 user of that group (given GNS3's "User manager" role, which
    lets them read groups) is a trainer; a student of the class is still not."""
    base = klass.base_url
    teacher = make_account(base, klass.trainer, prefix="teacher")
    teachers = make_group(base, klass.trainer, [teacher])
    roles = httpx.get(f"{base}/v3/access/roles", headers=klass.trainer.headers).json()
    role = next(r for r in roles if r["name"] == "User manager")
    groups = httpx.get(f"{base}/v3/access/groups", headers=klass.trainer.headers).json()
    group_id = next(g["user_group_id"] for g in groups if g["name"] == teachers)
    ace = {
        "ace_type": "group",
        "path": "/",
        "group_id": group_id,
        "role_id": role["role_id"],
        "propagate": True,
        "allowed": True,
    }
    made = httpx.post(f"{base}/v3/access/acl", json=ace, headers=klass.trainer.headers)
    assert made.status_code == 201, made.text
    assert klass.call(teacher, "GET", "/v3/classroom/me").json()["trainer"] is False
    klass.restart("--trainer-group", teachers)
    assert klass.call(teacher, "GET", "/v3/classroom/me").json() == {
        "username": teacher.name,
        "trainer": True,
    }
    assert klass.call(klass.alice, "GET", "/v3/classroom/me").json()["trainer"] is False
    task = upload_task(klass.serve, teacher)
    tid = task["task_id"]
    # an exam that ends 30 s from now: Alice starts it and leaves it running
    exam = open_exam(
        klass.serve, teacher, tid, klass.group, duration_min=1, starts_at=time.time() - 30
    )
    assert exam["students"] == 2 and exam["tasks"][0]["answers"], "the teacher sees the key"
    eid = exam["exam_id"]
    started = klass.start(klass.alice, eid, tid)
    assert started.status_code == 200, started.text
    ends = klass.call(klass.alice, "GET", f"/v3/classroom/exams/{eid}").json()["attempts"][0]
    time.sleep(max(0.0, ends["deadline"] - time.time()) + 0.5)  # the exam's own clock
    # GNS3 gives the teacher no right on Alice's project: her lab is not graded (a result is
    # final, and one read without the right would be a zero), it is named instead
    collected = klass.call(teacher, "POST", f"/v3/classroom/exams/{eid}/collect").json()
    assert collected == {"graded": 0, "unreadable": [klass.alice.name]}
    rows = klass.call(teacher, "GET", f"/v3/classroom/exams/{eid}/results").json()["rows"]
    assert [r["status"] for r in rows if r["student"] == klass.alice.name] == ["running"]
    # an administrator's login reads every lab: now it is graded, once
    collected = klass.call(klass.trainer, "POST", f"/v3/classroom/exams/{eid}/collect").json()
    assert collected == {"graded": 1, "unreadable": []}
    _pc1(klass, klass.alice, "ip 192.0.2.1/24")  # her lab as the other tests found it


CATALOG_FAULT = (
    'catalog = "{fault}"\n'
    'params = {{ wrong_address = "198.51.100.77", address = "192.0.2.1", prefix = "24", '
    'gateway = "" }}'
)


def test_a_catalog_fault_in_a_class_task_is_filled_from_its_params(klass: Class) -> None:
    own = 'inject = ["ip 198.51.100.77/24"]\nundo = ["ip 192.0.2.1/24"]'
    tasks = {
        name: upload_task(
            klass.serve, klass.trainer, TASK.replace(own, CATALOG_FAULT.format(fault=name))
        )["task_id"]
        for name in ("vpcs-wrong-address", "vpcs-duplicate-address", "vpcs-wrong-mask")
    }
    exam = _exam(klass, tasks["vpcs-wrong-address"], task_ids=list(tasks.values()))
    eid = exam["exam_id"]
    started = klass.start(klass.alice, eid, tasks["vpcs-wrong-address"])
    assert started.status_code == 200, started.text
    assert "198.51.100.77/24" in _pc1(klass, klass.alice, "show ip"), "filled and injected"
    # a missing parameter says which, and nothing starts
    for name, wanted in (
        ("vpcs-duplicate-address", "peer_address"),
        ("vpcs-wrong-mask", "wrong_prefix"),
    ):
        missing = klass.start(klass.alice, eid, tasks[name])
        assert missing.status_code == 409 and wanted in missing.json()["message"], missing.text
    answers = klass.call(klass.trainer, "GET", f"/v3/classroom/exams/{eid}").json()["tasks"][0]
    assert answers["answers"][0]["catalog"] == "vpcs-wrong-address"
    _pc1(klass, klass.alice, "ip 192.0.2.1/24")


# last: it leaves Bob's PC1 stopped
def test_a_fault_that_cannot_be_injected_is_undone_and_never_starts_the_clock(
    klass: Class,
) -> None:
    # a fault that changes nothing the checks see (it sets the address PC1 already has): the
    # start is refused, nothing is recorded and the clock never starts
    harmless = TASK.replace('inject = ["ip 198.51.100.77/24"]', 'inject = ["ip 192.0.2.1/24"]')
    task = upload_task(klass.serve, klass.trainer, harmless)
    exam = _exam(klass, task["task_id"])
    eid, tid = exam["exam_id"], task["task_id"]
    refused = klass.start(klass.bob, eid, tid)
    assert refused.status_code == 409, refused.text
    assert refused.json()["message"].startswith("Could not inject the task: every check")
    assert klass.call(klass.bob, "GET", f"/v3/classroom/exams/{eid}").json()["attempts"] == []
    rows = klass.call(klass.trainer, "GET", f"/v3/classroom/exams/{eid}/results").json()["rows"]
    assert {r["status"] for r in rows} == {"not started"}
    assert "192.0.2.1/24" in _pc1(klass, klass.bob, "show ip")

    # a device the task needs is stopped: "could not inject", never a started exam
    async def stop_pc1() -> None:
        async with Gns3Client(klass.base_url, token=klass.trainer.token) as client:
            nodes = await client.list_nodes(klass.bob.project_id)
            await client.stop_node(
                klass.bob.project_id, next(n.node_id for n in nodes if n.name == "PC1")
            )

    _run(stop_pc1())
    real = upload_task(klass.serve, klass.trainer)
    exam = _exam(klass, real["task_id"])
    refused = klass.start(klass.bob, exam["exam_id"], real["task_id"])
    assert refused.status_code == 409 and "cannot inject on PC1" in refused.json()["message"]
    assert (
        klass.call(klass.bob, "GET", f"/v3/classroom/exams/{exam['exam_id']}").json()["attempts"]
        == []
    )
