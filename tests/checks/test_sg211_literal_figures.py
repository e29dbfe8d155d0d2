"""SG211: literal figures in template prose (headings, versions, dates, list counts excepted)."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, sg211_literal_figures
from studygen.findings import ERROR

from .studies import latency, load, record

RECORDS = [record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])]


@pytest.fixture(autouse=True)
def _fresh_memos():
    """What SG211 worked out for a source is kept for the process: each test works it out again (a mutant of the
    code behind it must meet every test, not an answer an earlier test left)."""
    sg211_literal_figures.figures_by_line.cache_clear()
    sg211_literal_figures.computed_reference_lines.cache_clear()

ALLOWED = """\
{{ generated_note }}
{# a Jinja comment with 0.19 ms #}

# {{ study.title }} (2 variants)

## Results for 800 x 800

Measured with TensorRT 11.4 and CUDA 13 on 2025-06-01, in June 2025, with studygen v0.1.0 at commit `a1b2c3 0.21`.
<!-- a note with 3.5 ms -->
fp16, FP8 and bf16 on B200 and H100 (SG211, issue #2119), see [the log](https://example.org/run/42).

The 3 gaps below:

- first
- second
- third

1. one
2. two

```
trtexec --iterations=100
```

Latency: {{ study.span(study.figures(kind="latency")) }}.
"""


def test_computed_figures_and_exceptions_pass(tmp_path):
    study = load(tmp_path, records=RECORDS, template=ALLOWED)
    assert sg211_literal_figures.check(CheckContext(study)) == []


def test_literal_figures_are_errors_at_their_template_line(tmp_path):
    template = ALLOWED + (
        "\nThe GEMMs take 0.19 to 0.21 ms, a 2x gap.\n"
        "Quality on 400 images.\n"
        "Printed as a string: {{ \"0.04 ms\" }}.\n"
        "The 2 items below:\n\n- only one\n")
    study = load(tmp_path, records=RECORDS, template=template)
    findings = sg211_literal_figures.check(CheckContext(study))
    lines = template.split("\n")
    expected = {
        lines.index("The GEMMs take 0.19 to 0.21 ms, a 2x gap.") + 1: "0.19, 0.21, 2",
        lines.index("Quality on 400 images.") + 1: "400",
        lines.index('Printed as a string: {{ "0.04 ms" }}.') + 1: "0.04",
        lines.index("The 2 items below:") + 1: "2",
    }
    assert {f.line: f.message.split(" in prose")[0].removeprefix("template prints literal figure(s) ") for f in findings} == expected
    assert all(f.code == "SG211" and f.severity == ERROR and f.file == "templates/toy.md.j2" for f in findings)


def test_included_templates_are_read_too(tmp_path):
    template = "{{ generated_note }}\n\n# {{ study.title }}\n\n{% include 'part.md.j2' %}\n"
    study = load(tmp_path, records=RECORDS, template=template,
                 extra_files={"templates/part.md.j2": "FP8 saves 0.04 ms.\n"})
    findings = sg211_literal_figures.check(CheckContext(study))
    assert [(f.file, f.line) for f in findings] == [("templates/part.md.j2", 1)]
    assert "0.04" in findings[0].message


def test_number_literals_printed_through_expressions_are_figures(tmp_path):
    # issue 12, item I: a literal passed into a helper escapes the prose scan
    template = ALLOWED + (
        "\nFP8 saves {{ study.percent(0.12) }} of engine time.\n"
        "Printed alone: {{ 0.21 }}, negative {{ study.percent(-0.05) }}.\n"
        "Chosen: {{ 'none' if study.jobs() | length == 0 else 3.5 }}.\n"
        "Selected: {{ study.one(kind='latency', variant='fp16').number() }} and {{ study.jobs()[0] }}.\n")
    study = load(tmp_path, records=RECORDS, template=template)
    lines = template.split("\n")
    findings = sg211_literal_figures.check(CheckContext(study))
    got = {f.line: f.message.split(" in prose")[0].removeprefix("template prints literal figure(s) ") for f in findings}
    assert got == {
        lines.index("FP8 saves {{ study.percent(0.12) }} of engine time.") + 1: "0.12",
        lines.index("Printed alone: {{ 0.21 }}, negative {{ study.percent(-0.05) }}.") + 1: "0.21, -0.05",
        lines.index("Chosen: {{ 'none' if study.jobs() | length == 0 else 3.5 }}.") + 1: "3.5",
    }


def test_literal_arguments_of_one_source():
    import jinja2

    env = jinja2.Environment()
    source = ("{{ f(1, k=2)[3] }}\n{{ g(x, 4.5) if n >= 6 else -7 }}\n{% if n == 8 %}{{ h(9) }}{% endif %}\n"
              "{{ f(x[0], 10) }}\n")
    assert sg211_literal_figures.literal_arguments(env, source) == [(1, "1"), (2, "4.5"), (2, "-7"), (3, "9"), (4, "10")]


def _figures_by_line(study) -> dict[int, str]:
    return {f.line: f.message.split(" in prose")[0].removeprefix("template prints literal figure(s) ")
            for f in sg211_literal_figures.check(CheckContext(study))}


def test_tilde_fences_software_versions_and_multi_line_comments(tmp_path):
    template = ALLOWED + (
        "\n~~~\nlatency 0.19 ms\n~~~\n"
        "On TensorRT 11.4 the GEMMs take 0.21 ms.\n"
        "<!-- a note that goes on\n3.5 ms inside the note\nend of note --> FP8 saves 0.04 ms --> 0.03 ms\n"
        "After the note: 7 ms.")  # a template that ends without a newline
    study = load(tmp_path, records=RECORDS, template=template)
    lines = template.split("\n")
    assert _figures_by_line(study) == {
        lines.index("On TensorRT 11.4 the GEMMs take 0.21 ms.") + 1: "0.21",
        lines.index("end of note --> FP8 saves 0.04 ms --> 0.03 ms") + 1: "0.04, 0.03",
        lines.index("After the note: 7 ms.") + 1: "7",
    }


def test_a_string_printed_at_the_very_end_of_a_template_is_written_text(tmp_path):
    template = ALLOWED + '\nPrinted last: {{ "0.04 ms" }}'
    study = load(tmp_path, records=RECORDS, template=template)
    assert _figures_by_line(study) == {len(template.split("\n")): "0.04"}


def test_an_expression_cut_at_the_end_of_the_source_is_read_without_error():
    import jinja2

    env = jinja2.Environment()
    assert sg211_literal_figures.literal_arguments(env, "{{ f(1) }} {{ 2") == [(1, "1"), (1, "2")]
    assert sg211_literal_figures.written_text(env, 'text {{ "a"') == [(1, "text ")]


def test_each_template_is_parsed_once_for_render_and_sg211_and_not_lexed_apart(tmp_path, monkeypatch):
    """One parse of each template source a process reads, shared by render's compile and SG211; SG211 reads the
    written text off that tree and lexes a source again only when it does not parse (issue 25 item 5).
    Failed before: render parsed the template, SG211 parsed it twice more (printed literals, computed references)
    and lexed it for its written text; the included part was parsed twice and lexed once."""
    import jinja2

    template = ALLOWED + "\nFP8 saves {{ study.percent(0.12) }}; plans are 53 MB.\n{% include 'parse-once-part.md.j2' %}\n"
    part = "{% for x in [1] %}Part of the parse-once case: 0.75 ms.\n{% endfor %}"
    study = load(tmp_path, records=RECORDS, template=template, extra_files={"templates/parse-once-part.md.j2": part})
    parsed, lexed = [], []
    init, tokeniter = jinja2.parser.Parser.__init__, jinja2.lexer.Lexer.tokeniter
    monkeypatch.setattr(jinja2.parser.Parser, "__init__",
                        lambda self, env, source, *a, **k: parsed.append(source) or init(self, env, source, *a, **k))
    monkeypatch.setattr(jinja2.lexer.Lexer, "tokeniter",
                        lambda self, source, *a, **k: lexed.append(source) or tokeniter(self, source, *a, **k))
    context = CheckContext(study)
    assert context.render_error is None and "Part of the parse-once case: 0.75 ms." in context.rendered.readme
    lines = template.split("\n")
    assert _figures_by_line(study) == {lines.index("FP8 saves {{ study.percent(0.12) }}; plans are 53 MB.") + 1: "53, 0.12",
                                       1: "0.75"}
    assert (parsed.count(template), parsed.count(part)) == (1, 1)
    assert (lexed.count(template), lexed.count(part)) == (1, 1)


def test_a_missing_or_broken_included_template_is_a_template_error_with_its_place(tmp_path):
    import pytest

    from studygen.errors import TemplateError

    template = "{{ generated_note }}\n\n{% include 'missing.md.j2' %}\n"
    study = load(tmp_path, records=RECORDS, template=template)
    with pytest.raises(TemplateError) as raised:
        sg211_literal_figures.template_sources(study)
    line = next(n for n, text in enumerate(study.spec_text.splitlines(), 1) if text.startswith("template:"))
    assert raised.value.line() == f"families/toy/study.yaml:{line}: template 'missing.md.j2' not found (/template)"
    assert sg211_literal_figures.check(CheckContext(study)) == []  # SG201 reports it

    template = "{{ generated_note }}\n\n{% include 'part.md.j2' %}\n"
    study = load(tmp_path / "broken", records=RECORDS, template=template,
                 extra_files={"templates/part.md.j2": "fine\n{{ study.one( }}\n"})
    with pytest.raises(TemplateError) as raised:
        sg211_literal_figures.template_sources(study)
    assert raised.value.place.path == "part.md.j2" and raised.value.place.line == 2
    assert raised.value.message.startswith("template syntax error: ")


def test_a_template_rewritten_in_place_is_checked_as_it_now_reads(tmp_path):
    # the figures of a source are worked out once per process: keyed on its text, never on its path
    study = load(tmp_path, records=RECORDS, template=ALLOWED + "\nIt takes 0.37 ms.\n")
    first = sg211_literal_figures.check(CheckContext(study))
    assert [f.message.split(" in prose")[0] for f in first] == ["template prints literal figure(s) 0.37"]
    template_file = study.root / first[0].file
    template_file.write_text(ALLOWED + "\nIt takes 0.52 ms, then 0.37 ms.\n")
    again = sg211_literal_figures.check(CheckContext(study))
    assert [f.message.split(" in prose")[0] for f in again] == ["template prints literal figure(s) 0.52, 0.37"]
    assert again[0].line == first[0].line


def test_numbers_glued_to_their_unit_are_figures(tmp_path):
    template = ALLOWED + "\nThe GEMMs take 12.5ms, 3x faster, in 40GB at 1.98GHz.\n"
    study = load(tmp_path, records=RECORDS, template=template)
    assert _figures_by_line(study) == {len(template.split("\n")) - 1: "12.5, 3, 40, 1.98"}


def test_constant_expressions_are_folded_to_the_figure_they_print(tmp_path):
    # attack round: {{ 10 * 1.25 }} printed 12.5 and SG211 named only the 10; '* 1.25' and '~' went unseen
    template = ALLOWED + (
        "\nFP8 saves {{ 10 * 1.25 }} ms, {{ 3 / 4 }} of it.\n"
        "Glued: {{ '0.' ~ '21 ms' }} and {{ study.title ~ ' in 0.37 ms' }}.\n"
        "Or: {{ study.title or 2.5 }}; scaled {{ study.one(kind='latency', variant='fp16').number() * 100 }}, "
        "fudged {{ study.one(kind='latency', variant='fp16').number() * 1.1 }}.\n")
    study = load(tmp_path, records=RECORDS, template=template)
    lines = template.split("\n")
    assert _figures_by_line(study) == {
        lines.index("FP8 saves {{ 10 * 1.25 }} ms, {{ 3 / 4 }} of it.") + 1: "12.5, 0.75",
        lines.index("Glued: {{ '0.' ~ '21 ms' }} and {{ study.title ~ ' in 0.37 ms' }}.") + 1: "0.21, 0.37",
        len(lines) - 1: "2.5, 1.1",  # '* 100' changes the unit, not the figure
    }


def test_a_literal_bound_to_a_name_is_printed_where_the_name_is(tmp_path):
    template = ALLOWED + (
        "\n{% set saving = 0.04 %}\n"
        "{% for gap in [0.19, 0.21] %}a gap of {{ gap }} ms {% endfor %}\n"
        "{% macro ms(value=7.5) %}{{ value }} ms{% endmacro %}\n"
        "FP8 saves {{ saving }} ms.\n"
        "{% set unused = 9.5 %}\n")
    study = load(tmp_path, records=RECORDS, template=template)
    lines = template.split("\n")
    assert _figures_by_line(study) == {
        lines.index("{% set saving = 0.04 %}") + 1: "0.04",
        lines.index("{% for gap in [0.19, 0.21] %}a gap of {{ gap }} ms {% endfor %}") + 1: "0.19, 0.21",
        lines.index("{% macro ms(value=7.5) %}{{ value }} ms{% endmacro %}") + 1: "7.5",
    }


def test_an_include_whose_name_is_computed_is_read_or_named(tmp_path):
    # attack round: {% include 'pa' ~ 'rt.md.j2' %} hid the included template's 0.04 from SG211
    template = ("{{ generated_note }}\n\n{% include 'pa' ~ 'rt.md.j2' %}\n"
                "{% include 'other.md.j2' if study.title else 'none.md.j2' %}\n"
                "{% include study.title ~ '.md.j2' ignore missing %}\n")
    extra = {"templates/part.md.j2": "FP8 saves 0.04 ms.\n", "templates/other.md.j2": "It takes 0.5 ms.\n",
             "templates/none.md.j2": "Nothing.\n"}
    study = load(tmp_path, records=RECORDS, template=template, extra_files=extra)
    findings = sg211_literal_figures.check(CheckContext(study))
    got = sorted((f.file, f.line, f.message.split(":")[0]) for f in findings)
    assert got == [
        ("templates/other.md.j2", 1, "template prints literal figure(s) 0.5 in prose; figures must come from records "
         "through the view's helpers"),
        ("templates/part.md.j2", 1, "template prints literal figure(s) 0.04 in prose; figures must come from records "
         "through the view's helpers"),
        ("templates/toy.md.j2", 5, "template includes, imports or extends a template whose name is computed at "
         "render time, so what it prints cannot be read for literal figures"),
    ]


def test_folding_stops_where_a_figure_could_not_be_shown():
    # 10 ** 5000 folded to a number str() refuses to print (check ended in an internal error); 1e308 * 10 is inf
    by_line = sg211_literal_figures.figures_by_line
    assert by_line("{{ 10 ** 5000 }}") == ((1, ("10", "5000")),)
    assert by_line("{{ 1e308 * 10 }}") == ((1, ("1e+308", "10")),)
    assert by_line("{{ 'x' * 9000000 }}") == ((1, ("9000000",)),)  # not made: read literal by literal
    assert by_line("{{ 7 // 0 }}\n{{ x * 100 }}\n{{ 1000 / x }}\n{{ x * 1.5 }}") == ((1, ("7", "0")), (4, ("1.5",)))
    assert by_line("{{ 2 ** 10 }} {{ -(3) }}") == ((1, ("1024", "-3")),)


def test_what_each_kind_of_expression_prints():
    by_line = sg211_literal_figures.figures_by_line
    assert by_line("{{ 'ab' * 50000 }}") == ()  # 100,000 characters, the most folded: text without a number
    assert by_line("{{ 'ab' * 50001 }}") == ((1, ("50001",)),)  # one more: not made, read literal by literal
    assert by_line("{{ 1e999 }}") == ((1, ("inf",)),)  # Jinja reads the literal as infinity
    assert by_line("{{ x // 10 }} {{ x // 3 }}") == ((1, ("3",)),)  # a power of ten divides: a unit
    assert by_line("{% with a = 0.5, b = x %}{{ a }}{{ b }}{% endwith %}") == ((1, ("0.5",)),)
    assert by_line("{{ {'a': 0.25, 'b': x}|dictsort }}") == ((1, ("0.25",)),)
    assert by_line("{% filter upper %}{{ x }}{% endfilter %}") == ()


def test_each_template_of_an_include_list_is_read(tmp_path):
    template = "{{ generated_note }}\n\n{% include ['first.md.j2', 'second.md.j2' if x else 'third.md.j2'] %}\n"
    extra = {"templates/first.md.j2": "It takes 0.5 ms.\n", "templates/second.md.j2": "Or 0.6 ms.\n",
             "templates/third.md.j2": "Or 0.7 ms.\n"}
    study = load(tmp_path, records=RECORDS, template=template, extra_files=extra)
    assert sorted((f.file, f.message.split(" in prose")[0]) for f in sg211_literal_figures.check(CheckContext(study))) == [
        ("templates/first.md.j2", "template prints literal figure(s) 0.5"),
        ("templates/second.md.j2", "template prints literal figure(s) 0.6"),
        ("templates/third.md.j2", "template prints literal figure(s) 0.7")]


@pytest.mark.parametrize("which", range(4))
def test_written_text_read_off_the_tree_is_what_the_lexer_gives(which):
    from studygen.render.engine import make_environment
    from tests.render.test_template_sharing import EVERY_KIND, _shipped_sources

    source = [EVERY_KIND, *_shipped_sources()][which]
    env = make_environment([])
    lexed = sg211_literal_figures.written_text(env, source, strings=False)
    assert sg211_literal_figures.written_data(env.parsed(source)) == lexed
    if which == 0:  # every kind of block's text, in source order (a set block's, a macro's, a raw block's, ...)
        assert lexed == [(1, "intro "), (1, " text"), (2, "captured "), (3, "- "), (3, " row"), (4, "none"), (6, "yes"),
                         (6, "maybe"), (6, "no"), (7, "macro "), (7, " body"), (8, "caller "), (9, "filtered "),
                         (10, "with "), (11, "raw {{ not parsed }}"), (12, "trimmed"), (13, "block text "),
                         (15, "last line")]


def test_a_template_that_does_not_parse_is_read_token_by_token():
    # its written text, strings printed alone among it (the last at the very end), and its number arguments
    from studygen.render.engine import make_environment

    source = 'Took {{ "0.5 ms" }} and {{ "0.25 ms"|upper }}, {{ x(1.5) }} {{ x y }}\nlast {{ "7 ms" }}'
    env = make_environment([])
    assert sg211_literal_figures.written_text(env, source) == [
        (1, "Took "), (1, "0.5 ms"), (1, " and "), (1, "0.25 ms"), (1, ", "), (1, " "), (2, "last "), (2, "7 ms")]
    assert sg211_literal_figures.written_text(env, source, strings=False) == [
        (1, "Took "), (1, " and "), (1, ", "), (1, " "), (2, "last ")]
    assert sg211_literal_figures.figures_by_line(source) == ((1, ("0.5", "0.25", "1.5")), (2, ("7",)))
    assert sg211_literal_figures.written_text(env, '{{ "3 ms" }} {{ x y }}') == [(1, "3 ms"), (1, " ")]  # the first


def test_a_long_line_of_figures_reads_a_bounded_span_before_each(monkeypatch):
    # Each number's check for a software word before it ("TensorRT 10.8") searched the whole line up to the
    # number: a template line of 800 sentences (70 KB) cost 18.6 s of CPU. Now the white space back from the
    # number and 16 characters before it are searched.
    searched, pattern = [], sg211_literal_figures.SOFTWARE_BEFORE

    class Spy:
        def search(self, text, pos=0, endpos=None):
            end = len(text) if endpos is None else min(endpos, len(text))
            searched.append(end - pos)
            return pattern.search(text, pos, end)

    line = " ".join(f"Run {i} took {i}.5 ms on TensorRT {i % 9 + 1}.{i % 7}." for i in range(400))
    monkeypatch.setattr(sg211_literal_figures, "SOFTWARE_BEFORE", Spy())
    numbers = sg211_literal_figures.literal_numbers(line, line, [line], 1)
    assert len(searched) == 1200 and max(searched) <= 16  # each number's span, not the line before it
    assert numbers[:4] == ["0", "0.5", "1", "1.5"] and len(numbers) == 800  # the versions left out, as before
