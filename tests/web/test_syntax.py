"""How to write a line, beside every box of lines (mathhammer.web.syntax), and the 40k line
writer's choices."""

from __future__ import annotations

import re

import pytest

from mathhammer.web.syntax import SYNTAX, ability_choices

BOXES = {"40k": ("weapon", "target", "buff"), "warmachine": ("attack", "target"),
         "dust": ("weapon", "target")}


@pytest.mark.parametrize("game, kind", [(g, k) for g, kinds in BOXES.items() for k in kinds])
def test_every_example_is_a_line_the_checker_reads(client, game, kind):
    for example in SYNTAX[(game, kind)].examples:
        answer = client.get("/api/check", params={"game": game, "kind": kind, "line": example})
        assert answer.json()["ok"], (game, kind, example, answer.json())


@pytest.mark.parametrize("path, game", [("/", "40k"), ("/warmachine", "warmachine"),
                                        ("/dust", "dust")])
def test_each_page_explains_its_boxes_and_keeps_saved_lines(client, path, game):
    import html

    page = client.get(path).text
    for kind in BOXES[game]:
        assert SYNTAX[(game, kind)].grammar in html.unescape(page)
        assert f'data-saved-for="{game}:{kind}"' in page
    assert page.count('<details class="syntax">') == len(BOXES[game])


def test_the_line_writer_is_never_part_of_the_question(client):
    html = client.get("/").text
    writers = re.findall(r'<fieldset class="writer".*?</fieldset>', html, flags=re.S)
    assert len(writers) == 2
    for writer in writers:   # no input of the writer has a name: not submitted, not in links
        assert not re.search(r"<(input|select)[^>]*\sname=", writer)
    assert all(f'value="{name}"' in writers[0] for name, _ in ability_choices())


def test_every_ability_is_offered_with_what_follows_it():
    choices = dict(ability_choices())
    assert choices["LANCE"] == "" and choices["SUSTAINED HITS"] == "X"
    assert choices["ANTI"] == "KEYWORD Y+" and choices["BLAST"] == "[X]"
