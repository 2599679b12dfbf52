"""The moderation page (sqladmin on ``/admin``), on SQLite and PostgreSQL: moderators only; its
lists are read-only; its forms act through the moderation functions (audited, effects done)."""

from __future__ import annotations

import re

from .conftest import People


def test_the_moderation_page_lists_and_acts_through_the_moderation_functions(people: People) -> None:
    client = people.client
    mod = people.as_("Mod")
    client.post("/api/reports", json={"player": "Bob", "reason": "rude in chat"}, headers=people.as_("Ada"))
    reports = client.get("/admin/report/list", headers=mod)
    assert reports.status_code == 200 and "rude in chat" in reports.text
    assert "script-src 'self'" in reports.headers["content-security-policy"]
    assert "<script>" not in reports.text  # nothing inline: the CSP would refuse it
    for script in re.findall(r'<script[^>]*src="([^"]+)"', reports.text):
        assert client.get(script, headers=mod).status_code == 200, script  # served here, no CDN
    # Nothing is edited, created, deleted or exported by hand: only the actions act.
    for path in ("/admin/player/edit/x", "/admin/player/create", "/admin/player/export/csv"):
        assert client.get(path, headers=mod).status_code in (403, 404), path
    listed = client.get("/admin/player/list", headers=mod).text
    assert "Bob" in listed and "argon2" not in listed  # no password hash anywhere
    report_id = client.get("/api/moderation/reports", headers=mod).json()["reports"][0]["id"]
    to_file = client.get(f"/admin/report/action/open-player?pks={report_id}", headers=mod,
                         follow_redirects=False)
    opened = client.get(to_file.headers["location"], headers=mod)  # (a redirect drops the Cookie header)
    assert opened.status_code == 200 and "rude in chat" in opened.text and 'name="action"' in opened.text
    # A suspension from the page's form: audited, effective, and the report handled with it.
    form = {"op": "sanction", "name": "Bob", "action": "suspend", "minutes": "90", "reason": "spam",
            "report": str(report_id)}
    foreign = client.post("/admin/moderation/act", data=form, headers={**mod, "Origin": "https://evil.example"})
    assert foreign.status_code == 403
    done = client.post("/admin/moderation/act", data=form, headers=mod, follow_redirects=False)
    assert done.status_code == 303 and "done=suspend" in done.headers["location"]
    assert client.post("/api/account/signin", json={"name": "Bob", "password": "correct horse"}
                       ).json()["code"] == "suspended"
    assert client.get("/api/moderation/reports", headers=mod).json()["reports"] == []
    log = client.get("/api/moderation/log", headers=mod).json()["entries"]
    assert [(entry["action"], entry["target"], entry["reason"]) for entry in log[:2]] == [
        ("handle_report", "Bob", "suspend: spam"), ("suspend", "Bob", "spam")]
    refused = client.post("/admin/moderation/act", data={**form, "action": "mute", "minutes": ""},
                          headers=mod)
    assert refused.status_code == 400 and "minutes" in refused.text
    french = client.get("/admin/moderation/player?name=Bob&lang=fr", headers=mod).text
    assert '<main class="col-12" lang="fr">' in french and "Suspendre (pour un temps)" in french
    audit = client.get("/admin/audit-entry/list", headers=mod)
    assert audit.status_code == 200 and "spam" in audit.text
    assert client.get("/admin/audit-entry/list", headers=people.as_("Ada")).status_code == 403


def test_the_moderation_lists_speak_french_or_english_as_the_site_does(people: People) -> None:
    client = people.client
    mod = people.as_("Mod")
    client.post("/api/reports", json={"player": "Bob", "reason": "rude in chat"}, headers=people.as_("Ada"))
    client.cookies.clear()
    english = client.get("/admin/report/list", headers=mod).text  # English unless asked
    for words in ("Reports", "Search", "Reported player", "Reported by", "Reason", "Audit log"):
        assert words in english, words
    assert "Signalements" not in english
    # The site's own language cookie is read...
    with_cookie = client.get("/admin/player/list", headers={"Cookie": f"{mod['Cookie']}; lang=fr"}).text
    assert "Joueurs" in with_cookie and "Players" not in with_cookie
    # ... and ?lang=: sqladmin's words (it ships no French: this site's web/moderation/fr.po) and
    # the names of this site's lists, columns and action.
    french = client.get("/admin/report/list?lang=fr", headers=mod).text
    for words in ("Signalements", "Rechercher", "Joueur signalé", "Signalé par", "Motif",
                  "Journal de modération", "Ouvrir la fiche du joueur", "Ludothèque · modération"):
        assert words in french, words
    assert "Reported by" not in french and "Search" not in french
