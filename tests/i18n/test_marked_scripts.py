"""No page script carries words people read that the catalog does not see (script_strings)."""

from tests.i18n.script_strings import check_scripts, check_source


def test_every_script_string_people_read_is_marked() -> None:
    findings = check_scripts()
    assert not findings, "unmarked words in the page scripts:\n" + "\n".join(map(str, findings))


def test_an_unmarked_sentence_is_found() -> None:
    source = 'el.textContent = ok ? gettext("Saved.") : "Something went wrong.";\n'
    [finding] = check_source(source, "planted.js")
    assert finding.text == "Something went wrong." and finding.line == 1


def test_words_put_on_the_page_are_found_even_one_lowercase_word() -> None:
    source = 'h("span", { class: "tag tag-you" }, "you");\nbutton.title = `${n} left`;\n'
    assert [f.text for f in check_source(source)] == ["you", "… left"]


def test_a_template_literal_in_gettext_is_refused() -> None:
    [finding] = check_source("const a = gettext(`Round ${n}`);\n")
    assert "template literal" in finding.why


def test_marked_strings_and_the_machines_strings_pass() -> None:
    source = "\n".join([
        'const a = interpolate(gettext("Roll %(count)s dice"), { count });',
        'const b = ngettext("%(n)s roll left", "%(n)s rolls left", n);',
        'const c = pgettext("box", "Full house");',
        'document.querySelector("#scorecard button.option");',
        'el.addEventListener("keydown", go);',
        'h("button", { type: "button", class: "btn btn-small seat-leave" });',
        'if (e.key === "ArrowDown" || kind === "bot") x = /^Round \\d+$/.test(s);',
        '// A comment is no string: "Not marked at all"',
    ])
    assert check_source(source) == []


def test_a_concatenation_inside_gettext_is_not_marked() -> None:
    findings = check_source('const a = gettext("Score " + "it now");\n')
    assert [f.text for f in findings] == ["Score ", "it now"]
